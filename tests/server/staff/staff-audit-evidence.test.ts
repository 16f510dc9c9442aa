// What the audit log holds of the staff area's reads and refusals: which leads a list showed (their ids, never their
// values), and every refused request (403, 429) with who sent it, bounded to one row per actor and minute.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { StaffClient, enrolled, sendLead } from './staff-client.ts';

let server: InProcessServer;
const leadIds: string[] = [];
beforeAll(async () => {
  server = await startInProcessServer();
  for (const lastName of ['Ames', 'Baird', 'Cole'])
    leadIds.push(await sendLead(server, { ...lead, lastName }));
});
afterAll(() => server.stop());

const lead = {
  firstName: 'Rosa',
  lastName: 'Marquez',
  phone: '(555) 010-2233',
  email: 'rosa@example.org',
  concernFor: 'family',
  urgency: 'urgent',
  source: '/treatment/fentanyl-addiction',
};

const rowsOf = async (actor: string) =>
  (await server.store.audit.page({ limit: 500 })).rows.filter((row) => row.actor === actor).reverse();

describe('the audit row of a list', () => {
  it('names the ids of the leads shown, page by page', async () => {
    const staff = await enrolled(server, 'lister@example.org');
    const first = await staff.json<{ leads: { id: string }[]; next: string }>(
      await staff.get('/leads?limit=2'),
    );
    await staff.get(`/leads?limit=2&before=${encodeURIComponent(first.next)}`);
    await staff.get('/leads?status=closed');
    const lists = (await rowsOf('lister@example.org')).filter((row) => row.action === 'list');
    const newestFirst = [...leadIds].reverse();
    expect(lists.map((row) => row.detail)).toEqual([
      `shown=${newestFirst.slice(0, 2).join(',')}`,
      `shown=${newestFirst[2]}`,
      'status=closed shown=none',
    ]);
    expect(JSON.stringify(lists)).not.toMatch(/Ames|Baird|Cole|rosa/i);
  });
});

describe("the audit log's end, kept outside the table", () => {
  it('is in the log and in the checkpoint file beside the database (0600), signed, after each append', async () => {
    const staff = await enrolled(server, 'anchored@example.org');
    await staff.get('/leads');
    const [newest] = (await server.store.audit.page({ limit: 1 })).rows;
    const heads = server.logs
      .filter((line) => line.msg === 'audit log appended')
      .map((line) => line.auditHead);
    expect(heads.at(-1)).toEqual({ seq: newest!.seq, hash: newest!.hash });
    const file = `${server.dbFile}.audit-head`;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      seq: newest!.seq,
      hash: newest!.hash,
      keyId: expect.stringMatching(/^lead-[0-9a-f]{16}$/),
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await server.store.audit.verify()).toMatchObject({ ok: true });
  });
});

describe('refused requests', () => {
  it("audits and logs a member's 403 (admins only), once a minute with a count, never the query", async () => {
    const staff = await enrolled(server, 'not-admin@example.org');
    // The query is not a search (a `q` in an address is refused before anything else), but none of it is kept either.
    for (let n = 0; n < 5; n += 1)
      expect(await staff.get('/leads.csv?status=new&form=Ames')).toHaveProperty('status', 403);
    const refused = (await rowsOf('not-admin@example.org')).filter((row) => row.action === 'refused');
    expect(refused.map((row) => row.detail)).toEqual([
      'status=403 GET /staff/api/leads.csv reason=admins only count=1',
    ]);
    const logged = server.logs.filter((line) => line.msg === 'staff request refused');
    expect(logged).toContainEqual(
      expect.objectContaining({ refused: 'status=403 GET /staff/api/leads.csv reason=admins only count=1' }),
    );
    expect(server.logText()).not.toMatch(/Ames/);
  });

  it('audits a cross-site request under the member whose cookie it rode on', async () => {
    const staff = await enrolled(server, 'ridden@example.org');
    const forged = await staff.post('/leads/x/notes', { text: 'hi' }, { Origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect((await rowsOf('ridden@example.org')).at(-1)).toMatchObject({
      action: 'refused',
      detail: 'status=403 POST /staff/api/leads/x/notes reason=cross-site request count=1',
    });
  });

  it('audits a signed-out refusal as anonymous with a coarse client hint', async () => {
    const stranger = new StaffClient(server.url);
    expect(await stranger.post('/enrol/options', { token: 'made-up' })).toHaveProperty('status', 403);
    const [row] = await rowsOf('anonymous 127.0.0.0/24');
    expect(row).toMatchObject({
      action: 'refused',
      detail: expect.stringMatching(/^status=403 POST \/staff\/api\/enrol\/options /),
    });
  });
});

describe('a refused flood of sign-in ceremonies (429)', () => {
  let limited: InProcessServer;
  beforeAll(async () => {
    limited = await startInProcessServer({ staff: { ceremonyStarts: 2 } });
  });
  afterAll(() => limited.stop());

  it('is audited as one row for its minute, however many were refused', async () => {
    const stranger = new StaffClient(limited.url);
    const statuses = [];
    for (let n = 0; n < 12; n += 1) statuses.push((await stranger.post('/signin/options')).status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const refused = (await limited.store.audit.page({ limit: 100 })).rows.filter(
      (row) => row.action === 'refused',
    );
    expect(refused).toEqual([
      expect.objectContaining({
        actor: 'anonymous 127.0.0.0/24',
        detail: expect.stringMatching(/^status=429 POST \/staff\/api\/signin\/options reason=.* count=1$/),
      }),
    ]);
  });
});

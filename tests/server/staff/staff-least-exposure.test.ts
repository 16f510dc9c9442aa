// What the staff API keeps out of sight: a search term never travels in an address (search is a POST), a cursor or
// filter it cannot read is the caller's mistake (400, not a 503 with an error in the log), and one member cannot page
// through every lead: past the read limit, 429 with Retry-After, logged and audited once per window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { consultationLead, enrolled, sendLead, type StaffClient } from './staff-client.ts';

let server: InProcessServer;
let leadId: string;
let otherId: string;
let staff: StaffClient;
beforeAll(async () => {
  server = await startInProcessServer();
  leadId = await sendLead(server);
  otherId = await sendLead(server, {
    ...consultationLead,
    firstName: 'Ana',
    lastName: 'Okafor',
    phone: '(555) 010-9876',
  });
  staff = await enrolled(server, 'maria@example.org');
});
afterAll(() => server.stop());

const errorsLogged = () => server.logs.filter((line) => Number(line.level) >= 50);

describe('searching', () => {
  it('refuses a search term in an address, on every staff API route, without logging it', async () => {
    for (const path of [
      '/leads?q=marquez',
      '/leads?status=new&q=5550102233',
      '/leads.csv?q=rosa',
      `/leads/${leadId}?q=x`,
      '/audit?q[]=x',
      '/me?q=x',
    ]) {
      const response = await staff.get(path);
      expect(response.status, path).toBe(400);
      expect(await response.json()).toEqual({
        error: 'a search goes in the body of POST /staff/api/leads/search, never in the address',
      });
    }
    expect(server.logText()).not.toMatch(/marquez|5550102233|rosa/i);
  });

  it('finds leads by name, phone and its last 4 digits with POST /leads/search, filters beside', async () => {
    const found = async (body: Record<string, unknown>) =>
      (await staff.json<{ leads: { id: string }[] }>(await staff.post('/leads/search', body))).leads.map(
        (lead) => lead.id,
      );
    expect(await found({ q: 'marquez', status: 'new' })).toEqual([leadId]);
    expect(await found({ q: 'Okafor' })).toEqual([otherId]);
    expect(await found({ q: '(555) 010-9876' })).toEqual([otherId]);
    expect(await found({ q: '2233' })).toEqual([leadId]);
    expect(await found({ q: 'marquez', status: 'closed' })).toEqual([]);
    // No search: every lead, newest first, as GET /leads gives them.
    expect(await found({})).toEqual([otherId, leadId]);
  });

  it('pages with the cursor in the body', async () => {
    type Page = { leads: { id: string }[]; next: string | null };
    const first = await staff.json<Page>(await staff.post('/leads/search', { limit: 1 }));
    expect(first.leads.map((lead) => lead.id)).toEqual([otherId]);
    const second = await staff.json<Page>(
      await staff.post('/leads/search', { limit: '1', before: first.next }),
    );
    expect(second.leads.map((lead) => lead.id)).toEqual([leadId]);
  });
});

describe('a cursor or filter the inbox cannot read', () => {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const bad = [
    'before=not-a-cursor',
    'before=%21%21%21',
    `before=${cursor({ a: 1 })}`,
    `before=${cursor([1, 2])}`,
    `before=${cursor(['only one'])}`,
    'before=a&before=b',
    'status=lost',
    'from=yesterday',
    'to=2026-13-45T00:00',
    'limit=0',
    'limit=many',
  ];
  it('is answered 400 with what is wrong, never 503, and logs no error', async () => {
    const errors = errorsLogged().length;
    for (const query of bad) {
      const response = await staff.get(`/leads?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { error: string }).error, query).toMatch(/\w/);
    }
    for (const body of [
      { before: 'not-a-cursor' },
      { before: cursor([1]) },
      { before: ['a'] },
      { q: { $ne: 1 } },
    ]) {
      const response = await staff.post('/leads/search', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(errorsLogged().length).toBe(errors);
  });
});

describe('the read limit', () => {
  const READ_LIMIT = 5;
  let limited: InProcessServer;
  beforeAll(async () => {
    limited = await startInProcessServer({ staff: { readLimit: READ_LIMIT } });
    leadId = await sendLead(limited);
    await sendLead(limited);
  });
  afterAll(() => limited.stop());

  it('answers 429 with Retry-After past the limit, and audits it once', async () => {
    const reader = await enrolled(limited, 'reader@example.org');
    // A list of two leads, a lead, the list again: five leads read, and the next read is refused.
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i += 1) {
      last = await reader.get(i % 2 ? `/leads/${leadId}` : '/leads');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last?.json()).toEqual({
      error: 'too many leads read in a short time; try again in a few minutes',
    });
    expect((await reader.post('/leads/search', { q: 'marquez' })).status).toBe(429);
    const rows = (await limited.store.audit.page({ limit: 200 })).rows.filter(
      (row) => row.action === 'read-limit',
    );
    expect(rows.map((row) => [row.actor, row.detail])).toEqual([
      ['reader@example.org', `limit=${READ_LIMIT}`],
    ]);
    expect(limited.logs.filter((line) => line.msg === 'staff member over the lead read limit')).toHaveLength(
      1,
    );
    expect(limited.logText()).not.toMatch(/marquez|rosa/i);
    // Another member's reads are their own.
    const other = await enrolled(limited, 'other@example.org');
    expect((await other.get(`/leads/${leadId}`)).status).toBe(200);
  });
});

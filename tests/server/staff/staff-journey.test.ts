// The staff inbox's API end to end, as the app uses it: invited, enrolled with a passkey, signed in, working a lead,
// signed out; the session cookie's attributes, and the audit row of every act.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { StaffClient, consultationLead, enrolled, invite, sendLead } from './staff-client.ts';

let server: InProcessServer;
let leadId: string;
beforeAll(async () => {
  server = await startInProcessServer();
  leadId = await sendLead(server);
});
afterAll(() => server.stop());

const auditRows = async () => (await server.store.audit.page({ limit: 200 })).rows.reverse();

describe("a staff member's day", () => {
  const client = () => new StaffClient(server.url);
  let staff: StaffClient;

  it('enrols a passkey with the invitation and gets a session cookie', async () => {
    staff = client();
    const token = await invite(server, 'Maria.Admissions@Example.org');
    const response = await staff.enrol(token);
    expect(await staff.json(response)).toEqual({
      email: 'maria.admissions@example.org',
      admin: false,
      roles: ['admissions'],
    });
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^staff_session=[\w-]+\.[\w-]+;/);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Path=\/staff(;|$)/);
    // Loopback over plain HTTP: a developer's machine, where a Secure cookie would never be sent back.
    expect(cookie).not.toMatch(/; Secure/i);
    // Nothing secret stored: the session id and the token only as hashes.
    const db = server.store;
    expect(JSON.stringify(await db.staff.members())).not.toContain(token);
  });

  it('says who is signed in, with their passkey', async () => {
    const me = await staff.json<{ email: string; passkeys: { id: string; createdAt: string }[] }>(
      await staff.get('/me'),
    );
    expect(me).toMatchObject({
      email: 'maria.admissions@example.org',
      admin: false,
      roles: ['admissions'],
    });
    expect(me.passkeys).toEqual([
      {
        id: staff.authenticator.credentials[0]?.id,
        name: null,
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
    ]);
  });

  it('lists the leads newest first, with name, tap-to-call phone and urgency', async () => {
    const list = await staff.json<{ leads: Record<string, unknown>[]; next: string | null }>(
      await staff.get('/leads'),
    );
    expect(list.leads[0]).toMatchObject({
      id: leadId,
      formId: 'consultation',
      formName: 'Free consultation request',
      name: 'Rosa Marquez',
      phone: '(555) 010-2233',
      tel: 'tel:+15550102233',
      urgency: expect.any(String),
      status: 'new',
    });
    expect(list.leads[0]?.ageSeconds).toBeGreaterThanOrEqual(0);
    const searched = await staff.json<{ leads: { id: string }[] }>(
      await staff.post('/leads/search', { q: 'marquez', status: 'new' }),
    );
    expect(searched.leads.map((lead) => lead.id)).toEqual([leadId]);
  });

  it('opens a lead: the person and how to call them, every field under its label, the form and the source page', async () => {
    const lead = await staff.json<{ fields: { name: string; label: string; value: string }[] }>(
      await staff.get(`/leads/${leadId}`),
    );
    expect(lead).toMatchObject({
      id: leadId,
      formName: 'Free consultation request',
      name: 'Rosa Marquez',
      phone: '(555) 010-2233',
      tel: 'tel:+15550102233',
      source: consultationLead.source,
    });
    expect(lead.fields).toContainEqual({ name: 'lastName', label: 'Last Name', value: 'Marquez' });
    expect(lead.fields).toContainEqual({
      name: 'message',
      label: expect.any(String),
      value: 'Please call after 5',
    });
  });

  it('sets a status and adds a note, each showing who and when', async () => {
    const changed = await staff.json<{ status: string; history: unknown[] }>(
      await staff.post(`/leads/${leadId}/status`, { status: 'contacted' }),
    );
    expect(changed.status).toBe('contacted');
    expect(changed.history).toEqual([
      { author: 'maria.admissions@example.org', at: expect.any(String), from: 'new', to: 'contacted' },
    ]);
    const note = await staff.json(
      await staff.post(`/leads/${leadId}/notes`, { text: 'Left a voicemail' }),
      201,
    );
    expect(note).toMatchObject({ author: 'maria.admissions@example.org', text: 'Left a voicemail' });
    expect(await staff.post(`/leads/${leadId}/calls`)).toHaveProperty('status', 204);
    expect(await staff.post('/leads/no-such-lead/calls')).toHaveProperty('status', 404);
    expect(await staff.post(`/leads/${leadId}/status`, { status: 'called' })).toHaveProperty('status', 400);
    expect(await staff.post(`/leads/${leadId}/notes`, { text: '  ' })).toHaveProperty('status', 400);
  });

  it('signs out: the cookie is cleared and the old one opens nothing', async () => {
    const old = staff.cookie;
    const out = await staff.post('/signout');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^staff_session=;/);
    const replay = client();
    replay.cookie = old;
    expect(await replay.get('/me')).toHaveProperty('status', 401);
  });

  it('signs in again with the passkey', async () => {
    expect(await staff.json(await staff.signIn())).toEqual({
      email: 'maria.admissions@example.org',
      admin: false,
      roles: ['admissions'],
    });
    expect(await staff.get('/me')).toHaveProperty('status', 200);
  });

  it('audits every act: who, what, which lead, and never the search text', async () => {
    const rows = await auditRows();
    const acts = rows.map((row) => [row.actor, row.action, row.leadId, row.detail]);
    const maria = 'maria.admissions@example.org';
    expect(acts).toEqual(
      expect.arrayContaining([
        [maria, 'enrol', null, null],
        [maria, 'list', null, `shown=${leadId}`],
        [maria, 'list', null, `status=new&q=(search) shown=${leadId}`],
        [maria, 'view', leadId, null],
        [maria, 'call', leadId, null],
        [maria, 'status', leadId, 'new -> contacted'],
        [maria, 'note', leadId, null],
        [maria, 'sign-out', null, null],
        [maria, 'sign-in', null, null],
      ]),
    );
    expect(JSON.stringify(rows)).not.toMatch(/marquez|voicemail/i);
    expect(await server.store.audit.verify()).toEqual({ ok: true, rows: rows.length });
  });

  it('lets a member add a second passkey, and an admin export and read the audit log', async () => {
    const added = await staff.post('/passkeys/options');
    const options = await staff.json<Parameters<StaffClient['authenticator']['register']>[0]>(added);
    expect(options.excludeCredentials?.map((credential) => credential.id)).toEqual([
      staff.authenticator.credentials[0]?.id,
    ]);
    const second = staff.authenticator.register(options, { origin: staff.origin });
    const me = await staff.json<{ passkeys: unknown[] }>(
      await staff.post('/passkeys/verify', { response: second }),
      201,
    );
    expect(me.passkeys).toHaveLength(2);

    expect(await staff.get('/leads.csv')).toHaveProperty('status', 403);
    expect(await staff.get('/audit')).toHaveProperty('status', 403);
    const admin = await enrolled(server, 'lead@example.org', true);
    const csv = await admin.get('/leads.csv?form=consultation');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = Buffer.from(await csv.arrayBuffer());
    // A UTF-8 byte-order mark first (Excel reads accented names right), then labels and the site's local times.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toMatch(
      /^Lead ID,Received \(America\/Los_Angeles\),Form,Status,Owner,.*,Notes,Merged into,First Name,Last Name,Phone Number/,
    );
    expect(text.split('\r\n')[1]).toMatch(/^[\w-]+,\d{4}-\d\d-\d\d \d\d:\d\d,Free consultation request,/);
    expect(text).toContain('Marquez');
    const log = await admin.json<{ rows: { action: string }[] }>(await admin.get('/audit'));
    expect(log.rows[0]?.action).toBe('export-end');
    const actions = (await auditRows()).map((row) => `${row.action} ${row.detail ?? ''}`.trim());
    expect(actions).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^passkey-added passkey [\w-]{8}, session [\da-f]{8}$/),
        expect.stringMatching(/^export-start form=consultation export=[\w-]+$/),
        expect.stringMatching(/^export-end export=[\w-]+ outcome=finished rows=1$/),
        'refused status=403 GET /staff/api/leads.csv reason=admins only count=1',
        'audit-view',
      ]),
    );
  });
});

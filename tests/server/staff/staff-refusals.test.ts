// What the staff API refuses, and how: spent or expired invitations, unknown passkeys, revoked members' and forged
// cookies, cross-site requests, missing leads, every route without a session, expired sessions (by the server's clock,
// moved here), repeated failed sign-ins, and a store that fails. Never a 500; never a hint to a signed-out request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { DAY_MS, StaffClient, enrolled, invite, sendLead } from './staff-client.ts';

const MINUTE = 60 * 1000;
let clock = Date.now();
let server: InProcessServer;
let leadId: string;
beforeAll(async () => {
  server = await startInProcessServer({ staff: { now: () => clock, signInFailures: 3 } });
  leadId = await sendLead(server);
});
afterAll(() => server.stop());

const failedSignIns = async () =>
  (await server.store.audit.page({ limit: 500 })).rows.filter((row) => row.action === 'sign-in-failed');

describe('invitations', () => {
  it('refuses an expired invitation, and a spent one', async () => {
    const client = new StaffClient(server.url);
    const expired = await invite(server, 'late@example.org', false, clock + DAY_MS);
    clock += DAY_MS + 1;
    try {
      const refused = await client.post('/enrol/options', { token: expired });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: 'invalid or expired invitation' });
    } finally {
      clock -= DAY_MS + 1;
    }
    const token = await invite(server, 'once@example.org', false, clock + DAY_MS);
    expect(await client.enrol(token)).toHaveProperty('status', 200);
    const again = new StaffClient(server.url);
    expect(await again.enrol(token)).toHaveProperty('status', 403);
    expect(await again.post('/enrol/options', { token: 'made-up' })).toHaveProperty('status', 403);
    expect(await again.post('/enrol/options', {})).toHaveProperty('status', 403);
  });

  it('refuses a passkey registered without user verification', async () => {
    const client = new StaffClient(server.url);
    const token = await invite(server, 'nopin@example.org', false, clock + DAY_MS);
    expect(await client.enrol(token, { unverified: true })).toHaveProperty('status', 400);
    expect(client.cookie).toBeUndefined();
  });
});

describe('sign-in and sessions', () => {
  it('refuses an unknown passkey (401), audited with the reason, never the credential', async () => {
    const stranger = new StaffClient(server.url);
    const options = await stranger.json<Parameters<StaffClient['authenticator']['assert']>[0]>(
      await stranger.post('/signin/options'),
    );
    stranger.authenticator.register(
      { ...(await (await enrolledOptions()).json()), challenge: 'x' },
      { origin: stranger.origin },
    );
    const response = stranger.authenticator.assert(options, { origin: stranger.origin });
    const refused = await stranger.post('/signin/verify', { response });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'passkey not recognised' });
    const row = (await failedSignIns()).at(0);
    expect(row).toMatchObject({ actor: 'unknown', detail: 'unknown passkey' });
    expect(JSON.stringify(row)).not.toContain(response.id);
  });

  it("ends a revoked member's sessions at once, and refuses their passkey", async () => {
    const member = await enrolled(server, 'leaving@example.org');
    expect(await member.get('/me')).toHaveProperty('status', 200);
    await server.store.staff.revoke('leaving@example.org', clock);
    const after = await member.get('/leads');
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: 'signed out' });
    expect(await member.signIn()).toHaveProperty('status', 401);
  });

  it('refuses a forged or altered cookie', async () => {
    const member = await enrolled(server, 'forger@example.org');
    const [id] = (member.cookie ?? '').slice('staff_session='.length).split('.');
    for (const cookie of [
      `staff_session=${id}`,
      `staff_session=${id}.AAAA`,
      'staff_session=abc.def',
      'staff_session=',
    ]) {
      const forged = new StaffClient(server.url);
      forged.cookie = cookie;
      expect(await forged.get('/me')).toHaveProperty('status', 401);
    }
  });

  it('ends a session idle for 15 minutes, and any session after 12 hours', async () => {
    const member = await enrolled(server, 'clock@example.org');
    clock += 14 * MINUTE;
    expect(await member.get('/me')).toHaveProperty('status', 200);
    clock += 14 * MINUTE;
    expect(await member.get('/me')).toHaveProperty('status', 200);
    clock += 15 * MINUTE;
    expect(await member.get('/me')).toHaveProperty('status', 401);

    expect(await member.signIn()).toHaveProperty('status', 200);
    for (let elapsed = 0; elapsed < 12 * 60; elapsed += 10) {
      clock += 10 * MINUTE;
      const answer = await member.get('/me');
      if (answer.status !== 200) {
        expect(answer.status).toBe(401);
        expect(elapsed + 10).toBe(12 * 60);
        return;
      }
    }
    throw new Error('the session outlived its 12 hours');
  });

  it('limits failed sign-ins per address: 429 with Retry-After, even for a good passkey', async () => {
    const member = await enrolled(server, 'unlucky@example.org');
    const stranger = new StaffClient(server.url);
    stranger.authenticator.credentials.push(
      ...member.authenticator.credentials.map((c) => ({ ...c, id: 'AAAA' })),
    );
    // Earlier tests' failures from this address count too: at most 3 in all, then 429.
    const answers: number[] = [];
    for (let attempt = 0; attempt < 4 && answers.at(-1) !== 429; attempt += 1)
      answers.push((await stranger.signIn()).status);
    expect(answers.at(-1)).toBe(429);
    expect(answers.slice(0, -1).every((status) => status === 401)).toBe(true);
    const limited = await stranger.signIn();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await member.signIn()).toHaveProperty('status', 429);
  });
});

describe('cross-site requests and missing leads', () => {
  it('refuses a state-changing request from another origin, or without X-Staff-Request (403)', async () => {
    const member = await enrolled(server, 'csrf@example.org');
    const foreign = await member.post(
      `/leads/${leadId}/status`,
      { status: 'closed' },
      { Origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: 'cross-site request' });
    const bare = await fetch(`${server.url}/staff/api/leads/${leadId}/status`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: member.origin, Cookie: member.cookie ?? '' },
      body: JSON.stringify({ status: 'closed' }),
    });
    expect(bare.status).toBe(403);
    const signedOut = await new StaffClient(server.url).post('/signin/options', {}, { Origin: 'null' });
    expect(signedOut.status).toBe(403);
    expect((await server.store.inbox.get(leadId))?.status).toBe('new');
  });

  it('answers 404 for a lead that does not exist only when signed in; 401 first when signed out', async () => {
    const member = await enrolled(server, 'finder@example.org');
    const missing = await member.get('/leads/no-such-lead');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not found' });
    expect(await member.post('/leads/no-such-lead/status', { status: 'closed' })).toHaveProperty(
      'status',
      404,
    );
    expect(await member.post('/leads/no-such-lead/notes', { text: 'x' })).toHaveProperty('status', 404);
    const anonymous = new StaffClient(server.url);
    for (const id of ['no-such-lead', leadId])
      expect(await anonymous.get(`/leads/${id}`)).toHaveProperty('status', 401);
    expect(await member.post('/leads', '{not json')).toHaveProperty('status', 400);
  });

  it('refuses every API route without a session, with the same answer', async () => {
    const open = ['POST /enrol/options', 'POST /enrol/verify', 'POST /signin/options', 'POST /signin/verify'];
    const guarded = server.staffRoutes.filter((route) => !open.includes(route));
    expect(guarded).toEqual(expect.arrayContaining(['GET /leads/:id', 'POST /signout', 'GET /events']));
    const anonymous = new StaffClient(server.url);
    for (const route of [...guarded, 'GET /no-such-route']) {
      const [method = 'GET', path = ''] = route.split(' ');
      const answer = await anonymous.request(
        method,
        path.replace(':id', leadId),
        method === 'GET' ? undefined : {},
      );
      expect([route, answer.status, await answer.json()]).toEqual([route, 401, { error: 'signed out' }]);
    }
  });
});

describe('a store that fails', () => {
  it('answers 503, never 500, signed in or not', async () => {
    const member = await enrolled(server, 'outage@example.org');
    await server.store.close();
    expect(await member.get('/leads')).toHaveProperty('status', 503);
    const anonymous = new StaffClient(server.url);
    const options = await anonymous.post('/signin/options');
    expect(options.status).toBe(503);
    expect(await options.json()).toEqual({ error: 'the inbox is not available; try again shortly' });
    expect(await anonymous.get('/me')).toHaveProperty('status', 401);
  });
});

/** Registration options for a throwaway credential (the stranger's authenticator needs one to sign with). */
async function enrolledOptions() {
  const client = new StaffClient(server.url);
  return client.post('/enrol/options', {
    token: await invite(server, `temp${Math.random()}@example.org`, false, clock + DAY_MS),
  });
}

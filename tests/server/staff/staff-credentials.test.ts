// Credentials die when revoked, and a session alone never makes a new one: a revoked member's unused link is refused
// (and gone from `npm run staff -- invites`), only a reinstatement made after the revoke lets them back; adding a
// passkey needs this session's user-verified passkey check of the last 5 minutes; members see and remove their
// passkeys (never the last) and see and end their other sessions. Every act audited, with its actor.
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED, type Me, type SessionsList } from '../../../contracts/staff-api.ts';
import { ROOT } from '../../../content/paths.ts';
import { runStaffCli } from '../../../server/cli/staff.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { DAY_MS, StaffClient, enrolled } from './staff-client.ts';

const MINUTE = 60 * 1000;
let clock = Date.now();
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({ staff: { now: () => clock } });
});
afterAll(() => server.stop());

const auditRows = async () => (await server.store.audit.page({ limit: 500 })).rows.reverse();
const actsOf = async (actor: string) =>
  (await auditRows()).filter((row) => row.actor === actor).map((row) => row.action);
const inviteAt = async (email: string, options: { reinstate?: boolean } = {}) =>
  (await server.store.staff.createInvite(email, ['admissions'], clock + DAY_MS, { now: clock, ...options }))
    .token;

describe('invitations after a revoke', () => {
  it("refuses a revoked member's unused link, saying why, and lists it no more", async () => {
    await enrolled(server, 'ana@example.org');
    // A link to add a passkey, never opened; then the revoke.
    const unused = await inviteAt('ana@example.org');
    expect((await server.store.staff.revoke('ana@example.org', clock))?.invitesCancelled).toBe(1);
    const holder = new StaffClient(server.url);
    const refused = await holder.enrol(unused);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: REFUSED.revokedInvitation });
    expect(holder.cookie).toBeUndefined();
    expect(await holder.post('/enrol/verify', { token: unused, response: {} })).toHaveProperty('status', 403);
    const listed = await runCli(runStaffCli, ['invites'], {
      cwd: ROOT,
      env: { ...process.env, LEADS_DB: server.dbFile },
    });
    expect([listed.code, listed.out]).toEqual([0, 'No invitation is waiting.\n']);
  });

  it('lets a revoked member back only with a reinstatement made after the revoke, audited', async () => {
    const back = new StaffClient(server.url);
    expect(await back.enrol(await inviteAt('ana@example.org', { reinstate: true }))).toHaveProperty(
      'status',
      200,
    );
    expect(await back.get('/me')).toHaveProperty('status', 200);
    expect((await auditRows()).at(-1)).toMatchObject({
      actor: 'ana@example.org',
      action: 'enrol',
      detail: 'reinstated',
    });
  });

  it("refuses a cancelled invitation, and a current member's link after an hour", async () => {
    const token = await inviteAt('bo@example.org');
    expect(await server.store.staff.cancelInvites('bo@example.org', clock)).toBe(1);
    const refused = await new StaffClient(server.url).enrol(token);
    expect(await refused.json()).toEqual({ error: REFUSED.cancelledInvitation });

    await enrolled(server, 'cy@example.org');
    const link = await inviteAt('cy@example.org');
    clock += 61 * MINUTE;
    const late = await new StaffClient(server.url).enrol(link);
    expect([late.status, await late.json()]).toEqual([403, { error: 'invalid or expired invitation' }]);
  });
});

describe('adding a passkey', () => {
  it('needs a fresh passkey check of this session: 403 without, and works after re-authentication', async () => {
    const member = await enrolled(server, 'dee@example.org');
    clock += 4 * MINUTE;
    // Asked for while the sign-in was fresh; sent once it is not.
    const options = await member.json<PublicKeyCredentialCreationOptionsJSON>(
      await member.post('/passkeys/options'),
    );
    const registration = member.authenticator.register(options, { origin: member.origin });
    clock += 2 * MINUTE;
    for (const refused of [
      await member.post('/passkeys/verify', { response: registration }),
      await member.post('/passkeys/options'),
    ]) {
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: REFUSED.freshPasskey });
    }
    expect((await member.json<Me>(await member.get('/me'))).passkeys).toHaveLength(1);
    member.authenticator.credentials.pop(); // the one refused: never registered

    // Without user verification, or with someone else's passkey: no.
    expect(await member.reauthenticate({ unverified: true })).toHaveProperty('status', 400);
    const other = await enrolled(server, 'other@example.org');
    member.authenticator.credentials.push(...other.authenticator.credentials);
    expect(await member.reauthenticate()).toHaveProperty('status', 400);
    member.authenticator.credentials.pop();
    expect(await member.post('/passkeys/options')).toHaveProperty('status', 403);

    expect(await member.reauthenticate()).toHaveProperty('status', 204);
    const fresh = await member.json<PublicKeyCredentialCreationOptionsJSON>(
      await member.post('/passkeys/options'),
    );
    const added = await member.post('/passkeys/verify', {
      response: member.authenticator.register(fresh, { origin: member.origin }),
    });
    expect((await member.json<Me>(added, 201)).passkeys).toHaveLength(2);
    expect(await actsOf('dee@example.org')).toEqual([
      'enrol',
      'refused', // the first 403 of the minute, audited at once (staff-refusals.ts)
      're-authenticate-failed',
      're-authenticate-failed',
      're-authenticate',
      'passkey-added',
    ]);
  });
});

describe("a member's own passkeys and sessions", () => {
  it('lists the passkeys and removes any but the last, with a fresh check', async () => {
    const member = await enrolled(server, 'eve@example.org');
    const first = member.authenticator.credentials[0]?.id ?? '';
    const options = await member.json<PublicKeyCredentialCreationOptionsJSON>(
      await member.post('/passkeys/options'),
    );
    await member.post('/passkeys/verify', {
      response: member.authenticator.register(options, { origin: member.origin }),
    });
    const me = await member.json<Me>(await member.get('/me'));
    expect(me.passkeys.map((passkey) => passkey.id).sort()).toEqual(
      member.authenticator.credentials.map((credential) => credential.id).sort(),
    );

    clock += 6 * MINUTE;
    const stale = await member.request('DELETE', `/passkeys/${first}`);
    expect([stale.status, await stale.json()]).toEqual([403, { error: REFUSED.freshPasskey }]);
    expect(await member.reauthenticate()).toHaveProperty('status', 204);
    const removed = await member.json<Me>(await member.request('DELETE', `/passkeys/${first}`));
    expect(removed.passkeys.map((passkey) => passkey.id)).not.toContain(first);
    const last = await member.request('DELETE', `/passkeys/${removed.passkeys[0]?.id}`);
    expect([last.status, await last.json()]).toEqual([409, { error: REFUSED.lastPasskey }]);
    expect(await member.request('DELETE', '/passkeys/no-such-passkey')).toHaveProperty('status', 404);
    // The removed one signs no one in.
    expect(await member.signIn()).toHaveProperty('status', 200);
    member.authenticator.credentials.splice(1, 1);
    expect(await member.signIn()).toHaveProperty('status', 401);
    expect(await actsOf('eve@example.org')).toContain('passkey-removed');
  });

  it('lists the sessions, this device marked, and ends one of the others or all of them', async () => {
    const agent = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36';
    const phone = await enrolled(server, 'fay@example.org');
    const desks = [0, 1].map(() => new StaffClient(server.url, { headers: { 'User-Agent': agent } }));
    for (const desk of desks) {
      desk.authenticator.credentials.push(...phone.authenticator.credentials);
      expect(await desk.signIn()).toHaveProperty('status', 200);
    }
    const { sessions } = await phone.json<SessionsList>(await phone.get('/sessions'));
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(sessions.filter((session) => session.device === 'Chrome on Android')).toHaveLength(2);
    const own = sessions.find((session) => session.current)?.id ?? '';
    const [other] = sessions.filter((session) => !session.current);

    expect(await phone.request('DELETE', `/sessions/${own}`)).toHaveProperty('status', 400);
    expect(await phone.request('DELETE', '/sessions/no-such-session')).toHaveProperty('status', 404);
    expect(await phone.request('DELETE', `/sessions/${other?.id}`)).toHaveProperty('status', 204);
    const alive = await Promise.all(desks.map(async (desk) => (await desk.get('/me')).status));
    expect(alive.sort()).toEqual([200, 401]);
    expect(await phone.json(await phone.post('/sessions/end-others'))).toEqual({ ended: 1 });
    for (const desk of desks) expect(await desk.get('/me')).toHaveProperty('status', 401);
    expect(await phone.get('/me')).toHaveProperty('status', 200);
    expect(await actsOf('fay@example.org')).toEqual([
      'enrol',
      'sign-in',
      'sign-in',
      'session-ended',
      'session-ended',
    ]);
  });
});

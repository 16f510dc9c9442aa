// Staff management in the inbox (issue #30, item 10), over the staff API: only admins (an admissions member gets 403);
// an invitation's link at the address the admin is on; cancel, revoke and roles by the CLI's rules; inviting and
// changing roles only after a fresh passkey check; every act audited with the admin's e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InviteAnswer, Team } from '../../../contracts/staff-admin.ts';
import { loadSite } from '../../../server/content.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { enrolled, StaffClient, type StaffClient as Client } from './staff-client.ts';

let server: InProcessServer;
let admin: Client;
let member: Client;
beforeAll(async () => {
  server = await startInProcessServer();
  admin = await enrolled(server, 'lead@example.org', true);
  member = await enrolled(server, 'ana@example.org');
});
afterAll(() => server.stop());

const auditOf = async (action: string) =>
  (await server.store.audit.page({ limit: 1000 })).rows.filter((row) => row.action === action);

describe('staff management in the inbox', () => {
  it('refuses every staff act to an admissions member (403)', async () => {
    expect(await member.get('/team')).toHaveProperty('status', 403);
    for (const [path, body] of [
      ['/team/invite', { email: 'x@example.org', roles: ['admissions'] }],
      ['/team/cancel', { email: 'x@example.org' }],
      ['/team/revoke', { email: 'lead@example.org' }],
      ['/team/roles', { email: 'ana@example.org', roles: ['admissions', 'admin'] }],
    ] as const)
      expect(await member.post(path, body), path).toHaveProperty('status', 403);
    expect(await member.get('/reports/speed-to-lead')).toHaveProperty('status', 403);
    expect(
      (await server.store.staff.members()).find((one) => one.email === 'ana@example.org')?.roles,
    ).toEqual(['admissions']);
  });

  it('invites with the link at the address the admin is on, lists, cancels; audited with the admin', async () => {
    const bad = await admin.post('/team/invite', { email: 'not an address', roles: ['admissions'] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'give an e-mail address' });
    expect(await admin.post('/team/invite', { email: 'new@example.org', roles: [] })).toHaveProperty(
      'status',
      400,
    );
    const invited = await admin.json<InviteAnswer>(
      await admin.post('/team/invite', { email: 'New@Example.org', roles: ['admissions'] }),
      201,
    );
    // The request's own address (this test server's), not the site's production host (site/site.json's url).
    expect(invited.link).toMatch(new RegExp(`^${server.url}/staff/enrol#[\\w-]{20,}$`));
    expect(invited.link).not.toContain(loadSite().url);
    expect(invited).toMatchObject({ email: 'new@example.org', kind: 'new member' });

    const team = await admin.json<Team>(await admin.get('/team'));
    expect(team.roles).toEqual(['admissions', 'editor', 'reviewer', 'publisher', 'admin']);
    expect(team.invites).toEqual([
      expect.objectContaining({ email: 'new@example.org', roles: ['admissions'], kind: 'new member' }),
    ]);
    expect(team.members.map((one) => one.email)).toEqual(['ana@example.org', 'lead@example.org']);
    expect(team.members[0]).toMatchObject({
      roles: ['admissions'],
      passkeys: 1,
      revokedAt: null,
      onShift: false,
    });
    expect(JSON.stringify(team)).not.toContain(invited.link.split('#')[1]);

    expect(await admin.post('/team/cancel', { email: 'new@example.org' })).toHaveProperty('status', 204);
    expect(await admin.post('/team/cancel', { email: 'new@example.org' })).toHaveProperty('status', 404);
    // The cancelled link opens nothing.
    const late = new StaffClient(server.url);
    expect((await late.enrol(invited.link.split('#')[1] ?? '')).status).toBe(403);
    expect(await auditOf('invite')).toContainEqual(
      expect.objectContaining({ actor: 'lead@example.org', detail: 'new@example.org' }),
    );
    expect(await auditOf('invite-cancel')).toContainEqual(
      expect.objectContaining({ actor: 'lead@example.org', detail: 'new@example.org invitations=1' }),
    );
    expect(await auditOf('staff-view')).toContainEqual(
      expect.objectContaining({ actor: 'lead@example.org' }),
    );
  });

  it('changes roles and revokes; never the admin themself; a new invitation needs a fresh passkey check', async () => {
    expect(
      await admin.post('/team/roles', { email: 'ana@example.org', roles: ['admissions', 'admin'] }),
    ).toHaveProperty('status', 204);
    expect(
      (await server.store.staff.members()).find((one) => one.email === 'ana@example.org')?.roles,
    ).toEqual(['admissions', 'admin']);
    expect(await auditOf('roles')).toContainEqual(
      expect.objectContaining({
        actor: 'lead@example.org',
        detail: 'ana@example.org admissions -> admissions,admin',
      }),
    );
    expect(
      await admin.post('/team/roles', { email: 'lead@example.org', roles: ['admissions'] }),
    ).toHaveProperty('status', 400);
    expect(await admin.post('/team/revoke', { email: 'lead@example.org' })).toHaveProperty('status', 400);
    expect(await admin.post('/team/revoke', { email: 'ana@example.org' })).toHaveProperty('status', 204);
    expect(await member.get('/me')).toHaveProperty('status', 401);
    expect(await auditOf('revoke')).toContainEqual(
      expect.objectContaining({ actor: 'lead@example.org', detail: 'ana@example.org' }),
    );
    // A revoked member comes back only when asked for in so many words.
    expect(
      await admin.post('/team/invite', { email: 'ana@example.org', roles: ['admissions'] }),
    ).toHaveProperty('status', 409);
    expect(
      await admin.post('/team/invite', { email: 'ana@example.org', roles: ['admissions'], reinstate: true }),
    ).toHaveProperty('status', 201);

    // Signed in longer ago than the passkey check lasts: inviting asks for the passkey again, revoking does not.
    let clock = Date.now();
    const stale = await startInProcessServer({ staff: { now: () => clock } });
    try {
      const other = await enrolled(stale, 'boss@example.org', true);
      clock += 6 * 60_000;
      const refused = await other.post('/team/invite', { email: 'x@example.org', roles: ['admissions'] });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: 'confirm with your passkey first' });
      expect((await other.reauthenticate()).status).toBe(204);
      expect(
        await other.post('/team/invite', { email: 'x@example.org', roles: ['admissions'] }),
      ).toHaveProperty('status', 201);
    } finally {
      await stale.stop();
    }
  });
});

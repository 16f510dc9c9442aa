import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLeadStore } from '../store/sqlite/lead-store.ts';
import { runCli } from '../../tests/helpers/run-cli.ts';
import { useTempDirForAll } from '../../tests/helpers/temp-dir.ts';
import { runStaffCli } from './staff.ts';

const folder = useTempDirForAll('staff-cli-');
let dir: string;
let dbFile: string;
const NOW = new Date('2026-01-09T12:00:00Z');

beforeAll(async () => {
  dir = folder();
  dbFile = join(dir, 'leads.db');
  await openLeadStore(dbFile).close();
});

const cli = (args: string[]) =>
  runCli(runStaffCli, args, { env: { LEADS_DB: dbFile }, cwd: dir, now: () => NOW, user: 'ops' });

async function withStore<T>(use: (store: ReturnType<typeof openLeadStore>) => Promise<T>): Promise<T> {
  const store = openLeadStore(dbFile, { writerThread: false });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const tokenOf = (out: string) => /\/staff\/enrol#([\w-]+)/.exec(out)?.[1] ?? '';
const passkey = (id: string) => ({
  id,
  publicKey: new Uint8Array([1, 2, 3]),
  counter: 0,
  transports: ['internal'],
});

describe('npm run staff', () => {
  it('invites with a one-time link at STAFF_ORIGIN, the token in the fragment, valid 24 hours; 1 hour for a member', async () => {
    const { code, out } = await cli(['invite', 'Ana@Example.org', '--admin']);
    expect(code).toBe(0);
    expect(out).toContain('Invitation for ana@example.org (admin).');
    // No STAFF_ORIGIN and not production: the developer's own machine.
    expect(out).toContain('http://localhost:3000/staff/enrol#');
    const token = tokenOf(out);
    await withStore(async (store) => {
      expect(await store.staff.inviteFor(token, NOW.getTime() + 23 * 3600_000)).toMatchObject({
        email: 'ana@example.org',
        admin: true,
      });
      expect(await store.staff.inviteFor(token, NOW.getTime() + 24 * 3600_000)).toBeUndefined();
      expect(await store.staff.enrol(token, 'ana-id', passkey('cred-1'), NOW.getTime())).toMatchObject({
        admin: true,
        roles: ['admissions', 'admin'],
      });
    });
    const again = await cli(['invite', 'ana@example.org']);
    expect(again.out).toContain('ana@example.org is a member already: this link adds a passkey.');
    expect(again.out).toContain('valid 1 hour and once');
    await withStore(async (store) => {
      const token = tokenOf(again.out);
      expect(await store.staff.inviteFor(token, NOW.getTime() + 59 * 60_000)).toMatchObject({
        kind: 'add a passkey',
      });
      expect(await store.staff.inviteFor(token, NOW.getTime() + 60 * 60_000)).toBeUndefined();
    });
    expect((await cli(['invites'])).out).toMatch(
      /^E-mail\s+Roles\s+For\s+Created \(UTC\)\s+Expires \(UTC\)\nana@example\.org\s+admissions\s+add a passkey\s+2026-01-09 12:00\s+2026-01-09 13:00\n$/,
    );
  });

  it('lists the staff, and revokes one at once: sessions and passkeys deleted, invitations cancelled', async () => {
    await withStore((store) => store.staff.startSession('ana-id', NOW.getTime()));
    const listed = await cli(['list']);
    expect(listed.out).toMatch(
      /^E-mail\s+Roles\s+Passkeys\s+Last sign-in \(UTC\)\s+Revoked \(UTC\)\s+Name\s+Credential\n/,
    );
    expect(listed.out).toMatch(/ana@example\.org\s+admissions, admin\s+1\s+-\s+-\s+-\s+-\n/);
    const revoked = await cli(['revoke', 'ANA@example.org']);
    expect([revoked.code, revoked.out]).toEqual([
      0,
      'Revoked ana@example.org: signed out everywhere, passkeys deleted, 1 invitation cancelled.\n',
    ]);
    // Her unused link to add a passkey is dead, and no longer listed.
    expect((await cli(['invites'])).out).toBe('No invitation is waiting.\n');
    const db = new Database(dbFile, { readonly: true });
    expect(db.prepare("SELECT COUNT(*) AS n FROM sessions WHERE staff_id = 'ana-id'").get()).toEqual({
      n: 0,
    });
    expect(db.prepare("SELECT COUNT(*) AS n FROM passkeys WHERE staff_id = 'ana-id'").get()).toEqual({
      n: 0,
    });
    db.close();
    expect((await cli(['list'])).out).toMatch(
      /ana@example\.org\s+admissions, admin\s+0\s+-\s+2026-01-09 12:00\s+-\s+-\n/,
    );
    expect(await cli(['revoke', 'nobody@example.org'])).toMatchObject({ code: 1 });
  });

  it('lets a revoked member back only by an explicit reinstatement; lists and cancels invitations', async () => {
    const refused = await cli(['invite', 'ana@example.org']);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe(
      'ana@example.org was revoked (2026-01-09 12:00 UTC); their invitations were cancelled with it. ' +
        'To let them back in: npm run staff -- invite ana@example.org --reinstate\n',
    );
    expect(await cli(['invite', 'bob@example.org', '--reinstate'])).toMatchObject({ code: 1 });
    const reinstated = await cli(['invite', 'ana@example.org', '--reinstate']);
    expect(reinstated.out).toContain('Reinstatement for ana@example.org.');
    expect(reinstated.out).toContain('valid 24 hours');
    const bob = await cli(['invite', 'bob@example.org', '--admin']);
    expect(bob.out).toContain('Invitation for bob@example.org (admin).');
    const listed = (await cli(['invites'])).out;
    expect(listed).toMatch(
      /ana@example\.org\s+admissions\s+reinstatement\s+2026-01-09 12:00\s+2026-01-10 12:00\n/,
    );
    expect(listed).toMatch(
      /bob@example\.org\s+admissions, admin\s+new member\s+2026-01-09 12:00\s+2026-01-10 12:00\n/,
    );
    expect(listed).not.toContain(tokenOf(bob.out));

    expect(await cli(['cancel', 'Bob@Example.org'])).toMatchObject({
      code: 0,
      out: 'Cancelled 1 invitation for bob@example.org: its link no longer works.\n',
    });
    expect((await cli(['invites'])).out).not.toContain('bob@example.org');
    expect(await cli(['cancel', 'bob@example.org'])).toMatchObject({ code: 1 });
    await withStore(async (store) => {
      const at = NOW.getTime() + 60_000;
      expect(await store.staff.inviteRefusal(tokenOf(bob.out), at)).toBe('cancelled');
      // The reinstatement readmits her: her role decided afresh by it.
      expect(await store.staff.enrol(tokenOf(reinstated.out), 'x', passkey('cred-2'), at)).toMatchObject({
        id: 'ana-id',
        revokedAt: null,
        admin: false,
        roles: ['admissions'],
      });
    });
  });

  it('refuses what it cannot do with usage', async () => {
    expect(await cli(['invite', 'not-an-address'])).toMatchObject({ code: 2 });
    expect(await cli(['invite'])).toMatchObject({ code: 2 });
    expect(await cli(['list', '--all'])).toMatchObject({ code: 2 });
    expect(await cli(['fire', 'x'])).toMatchObject({ code: 2 });
  });

  it('prints the audit log newest last, every act of its own in it', async () => {
    const { code, out } = await cli(['audit']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Seq\s+At \(UTC\)\s+Actor\s+Action\s+Lead\s+Detail$/);
    const acts = lines.slice(1).map((line) =>
      line
        .split(/\s{2,}/)
        .slice(2, 6)
        .join(' | '),
    );
    expect(acts).toEqual([
      'cli:ops | invite | - | ana@example.org admin',
      'cli:ops | invite | - | ana@example.org',
      'cli:ops | cli-read | - | invites',
      'cli:ops | cli-read | - | staff list',
      'cli:ops | revoke | - | ana@example.org invitations-cancelled=1',
      'cli:ops | cli-read | - | invites',
      'cli:ops | cli-read | - | staff list',
      'cli:ops | reinstate | - | ana@example.org',
      'cli:ops | invite | - | bob@example.org admin',
      'cli:ops | cli-read | - | invites',
      'cli:ops | invite-cancel | - | bob@example.org invitations=1',
      'cli:ops | cli-read | - | invites',
    ]);
  });

  it('verifies the chain, and names the first row that was altered', async () => {
    expect(await cli(['audit', '--verify'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/whole: 13 rows/),
    });
    const db = new Database(dbFile);
    db.exec('DROP TRIGGER audit_no_update');
    db.prepare("UPDATE audit SET detail = 'someone@else.org' WHERE seq = 4").run();
    db.close();
    const broken = await cli(['audit', '--verify']);
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/^The audit log is broken at row 4: /);
  });
});

describe('the audit log cut at its end', () => {
  it('fails --verify, naming the missing rows, even after more acts are appended', async () => {
    const cutFile = join(dir, 'cut.db');
    await openLeadStore(cutFile).close();
    const run = (args: string[]) =>
      runCli(runStaffCli, args, { env: { LEADS_DB: cutFile }, cwd: dir, now: () => NOW, user: 'ops' });
    for (let n = 0; n < 4; n += 1) expect((await run(['audit'])).code).toBe(0);
    expect(await run(['audit', '--verify'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/whole: 4 rows/),
    });
    // Someone with the file: the guard taken off, the last rows deleted (row 5 is the --verify's own).
    const db = new Database(cutFile);
    db.exec('DROP TRIGGER audit_no_delete');
    db.prepare('DELETE FROM audit WHERE seq >= 3').run();
    db.close();
    const cut = await run(['audit', '--verify']);
    expect(cut.code).toBe(1);
    expect(cut.err).toBe(
      'The audit log is broken at row 3: rows 3 to 5 are missing: the log ends at row 2, its checkpoint at row 5\n',
    );
    // That --verify appended its own row after the cut: the cut is still reported.
    const again = await run(['audit', '--verify']);
    expect(again.code).toBe(1);
    expect(again.err).toBe(
      'The audit log is broken at row 3: rows 3 to 5 are missing: they were gone when row 3 was appended\n',
    );
  });
});

describe('roles', () => {
  it('invites with the admissions role when no role is named; --role names them; --admin is both', async () => {
    const rolesFile = join(dir, 'roles.db');
    await openLeadStore(rolesFile).close();
    const run = (args: string[]) =>
      runCli(runStaffCli, args, { env: { LEADS_DB: rolesFile }, cwd: dir, now: () => NOW, user: 'ops' });
    const plain = await run(['invite', 'cy@example.org']);
    const admin = await run(['invite', 'di@example.org', '--role', 'admin']);
    const both = await run(['invite', 'ed@example.org', '--admin']);
    expect(await run(['invite', 'fy@example.org', '--role', 'pilot'])).toMatchObject({ code: 2 });
    const store = openLeadStore(rolesFile, { writerThread: false });
    try {
      const at = NOW.getTime();
      expect(await store.staff.inviteFor(tokenOf(plain.out), at)).toMatchObject({
        admin: false,
        roles: ['admissions'],
      });
      expect(await store.staff.inviteFor(tokenOf(admin.out), at)).toMatchObject({
        admin: true,
        roles: ['admin'],
      });
      expect(await store.staff.inviteFor(tokenOf(both.out), at)).toMatchObject({
        admin: true,
        roles: ['admissions', 'admin'],
      });
      expect(await store.staff.enrol(tokenOf(plain.out), 'cy-id', passkey('cred-cy'), at)).toMatchObject({
        roles: ['admissions'],
      });
      expect(await store.staff.setRoles('cy@example.org', ['admin', 'admissions'])).toMatchObject({
        admin: true,
        roles: ['admissions', 'admin'],
      });
    } finally {
      await store.close();
    }
  });
});

describe('editorial roles, names and credentials', () => {
  const file = () => join(dir, 'editorial.db');
  const run = (args: string[]) =>
    runCli(runStaffCli, args, { env: { LEADS_DB: file() }, cwd: dir, now: () => NOW, user: 'ops' });
  const member = async (email: string) => {
    const store = openLeadStore(file(), { writerThread: false });
    try {
      return (await store.staff.members()).find((one) => one.email === email);
    } finally {
      await store.close();
    }
  };
  beforeAll(async () => {
    await openLeadStore(file()).close();
  });

  it('invites with --roles editor,reviewer, a --name and a --credential, which the enrolment gives the member', async () => {
    const invited = await run([
      'invite',
      'maya@example.org',
      '--roles',
      'editor,reviewer',
      '--name',
      'Maya Chen',
      '--credential',
      'MD, Addiction Medicine',
    ]);
    expect(invited.code).toBe(0);
    const store = openLeadStore(file(), { writerThread: false });
    try {
      expect(
        await store.staff.enrol(tokenOf(invited.out), 'maya-id', passkey('cred-maya'), NOW.getTime()),
      ).toMatchObject({
        roles: ['editor', 'reviewer'],
        admin: false,
        name: 'Maya Chen',
        credential: 'MD, Addiction Medicine',
      });
    } finally {
      await store.close();
    }
    expect((await run(['list'])).out).toMatch(
      /maya@example\.org\s+editor, reviewer\s+1\s+-\s+-\s+Maya Chen\s+MD, Addiction Medicine\n/,
    );
    expect(await run(['invite', 'x@example.org', '--roles', 'editor,pilot'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('Unknown role "pilot"') as unknown,
    });
  });

  it('sets roles, name and credential of a member; fields left out stay; audited with before and after', async () => {
    const set = await run(['set', 'Maya@example.org', '--roles', 'reviewer,publisher', '--credential', 'MD']);
    expect(set).toMatchObject({ code: 0, out: 'maya@example.org: reviewer,publisher | Maya Chen | MD\n' });
    expect(await member('maya@example.org')).toMatchObject({
      roles: ['reviewer', 'publisher'],
      name: 'Maya Chen',
      credential: 'MD',
    });
    // --role and --admin keep working with set; an empty credential clears it.
    expect(await run(['set', 'maya@example.org', '--admin', '--credential', ''])).toMatchObject({ code: 0 });
    expect(await member('maya@example.org')).toMatchObject({
      roles: ['admissions', 'admin'],
      admin: true,
      credential: null,
    });
    expect(await run(['set', 'maya@example.org', '--role', 'editor'])).toMatchObject({ code: 0 });
    expect((await member('maya@example.org'))?.roles).toEqual(['editor']);
    const audit = (await run(['audit'])).out;
    expect(audit).toMatch(
      /roles\s+-\s+maya@example\.org editor,reviewer \| Maya Chen \| MD, Addiction Medicine -> reviewer,publisher \| Maya Chen \| MD\n/,
    );
    expect(await run(['set', 'maya@example.org'])).toMatchObject({ code: 2 });
    expect(await run(['set', 'nobody@example.org', '--role', 'editor'])).toMatchObject({ code: 1 });
  });

  it('still invites the admissions role when none is named', async () => {
    const plain = await run(['invite', 'lu@example.org']);
    const store = openLeadStore(file(), { writerThread: false });
    try {
      expect(await store.staff.inviteFor(tokenOf(plain.out), NOW.getTime())).toMatchObject({
        roles: ['admissions'],
      });
    } finally {
      await store.close();
    }
  });
});

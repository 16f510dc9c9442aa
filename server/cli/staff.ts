// `npm run staff -- <command>`: who may use the admissions inbox (/staff/). Invitations (made, listed, cancelled), the
// staff list, revoking (which cancels the member's waiting invitations too), and the audit log. Reads LEADS_DB and its key as `npm run leads` does; safe while the server runs (each write is one
// small transaction, and the server checks every request against the database, so a revoke takes effect at once).
// Every act is itself audited, as `cli:<os user>`.
import { cli, CliFailure, readArgs, runAsMain, UsageError, type CliIo } from '../../core/cli.ts';
import { ConfigError, readConfig } from '../config.ts';
import { ContentError } from '../content.ts';
import type { AuditRow } from '../store/contract/audit-log.ts';
import { CipherError } from '../store/shared/cipher.ts';
import { KeyError } from '../store/shared/key-file.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import { DEFAULT_ROLES, isStaffRole, STAFF_ROLES, type StaffRole } from '../../contracts/staff-api.ts';
import { RevokedMemberError, type MemberProfile, type StaffMember } from '../store/contract/staff-store.ts';
import { normaliseEmail, normaliseRoles, profileText } from '../store/shared/staff-records.ts';
import {
  cancelInvitations,
  enrolLink,
  INVITE_VALID_MS,
  inviteMember,
  NotRevokedError,
  revokeMember,
} from '../staff/staff-management.ts';
import { actorOf, withStore } from './cli-store.ts';

export { INVITE_VALID_MS } from '../staff/staff-management.ts';

export const USAGE = `Usage: npm run staff -- <command>

  invite <email> [--roles <role,role>] [--role <role>]... [--admin] [--name "..."] [--credential "..."] [--reinstate]
                             print a one-time enrolment link, valid 24 hours, for the roles given (${STAFF_ROLES.join(', ')};
                             none given: admissions, who work leads; --admin is --role admissions --role admin: may
                             also manage staff, export and read the audit log); --name and --credential: how a
                             reviewer is named on the site ("Maya Chen", "MD, Addiction Medicine": a clinical
                             credential lets a reviewer approve clinical claims); for a current member, a link that
                             adds a passkey, valid 1 hour; for a revoked member, refused unless --reinstate: they may
                             come back (audited as a reinstatement)
  set <email> [--roles <role,role>] [--role <role>]... [--admin] [--name "..."] [--credential "..."]
                             change a member's roles (exactly those given), name or credential ("" clears one)
  invites                    invitations still waiting: e-mail, roles, for whom, created, expires (never the link)
  cancel <email>             cancel that e-mail's waiting invitations: their links no longer work
  list                       staff: e-mail, roles, passkeys, last sign-in, revoked
  revoke <email>             revoke at once: their sessions and passkeys are deleted, their invitations cancelled
  audit [--verify]           the audit log, newest last; --verify checks its chain and exits 1 at the first bad row

Reads LEADS_DB (default data/leads.db) and its key as the server does (see npm run leads -- help).
`;

/** The flags that ask for `roles` again: none for the default, --admin for an admin who works leads. */
function roleFlags(roles: readonly StaffRole[]): string {
  const key = roles.join(',');
  if (key === 'admissions') return '';
  if (key === 'admissions,admin') return ' --admin';
  return roles.map((role) => ` --role ${role}`).join('');
}

/** The role flags every command shares: --roles a,b, --role a (repeated), --admin. */
const ROLE_OPTIONS = {
  admin: { type: 'boolean' },
  role: { type: 'string', multiple: true },
  roles: { type: 'string' },
  name: { type: 'string' },
  credential: { type: 'string' },
} as const;

/** The roles the flags name, normalised; undefined when none is named. UsageError for an unknown one. */
function rolesOf(values: { admin?: boolean; role?: string[]; roles?: string }): StaffRole[] | undefined {
  const asked = [
    ...(values.role ?? []),
    ...(values.roles ?? '')
      .split(',')
      .map((role) => role.trim())
      .filter((role) => role !== ''),
  ];
  const unknown = asked.find((role) => !isStaffRole(role));
  if (unknown !== undefined)
    throw new UsageError(`Unknown role "${unknown}": the roles are ${STAFF_ROLES.join(', ')}.`);
  // --admin keeps its old meaning: an admin who also works leads.
  const all = [...asked, ...(values.admin === true ? ['admissions', 'admin'] : [])];
  return all.length > 0 ? normaliseRoles(all) : undefined;
}

/** The name and credential the flags give (an empty one clears it), or a UsageError naming the limit. */
function profileOf(values: { name?: string; credential?: string }): MemberProfile {
  try {
    return {
      ...(values.name === undefined ? {} : { name: profileText(values.name) }),
      ...(values.credential === undefined ? {} : { credential: profileText(values.credential) }),
    };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** A member's roles, name and credential as the audit log and the list write them. */
const describeMember = (member: Pick<StaffMember, 'roles' | 'name' | 'credential'>): string =>
  [member.roles.join(','), member.name, member.credential].filter((part) => part).join(' | ');

const invitations = (count: number) => (count === 1 ? '1 invitation' : `${count} invitations`);

const when = (ms: number | null): string =>
  ms === null ? '-' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** Columns padded to their widest cell. */
function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

async function allAuditRows(store: LeadStore): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await store.audit.page({ before, limit: 1000 });
    rows.push(...page.rows);
    if (page.next === null) return rows.reverse();
    before = page.next;
  }
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  /** The command's words (parseArgs, strict): `count` positionals, and only the flags given; else `usage`. */
  const takes = <const F extends string>(flags: readonly F[], count: number, usage: string) => {
    const options = Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean' as const }]));
    let parsed;
    try {
      parsed = readArgs(rest, options, { positionals: true });
    } catch {
      throw new UsageError(usage);
    }
    if (parsed.positionals.length !== count) throw new UsageError(usage);
    return { args: parsed.positionals, has: (flag: F) => parsed.values[flag] === true };
  };
  const now = (io.now?.() ?? new Date()).getTime();
  const actor = actorOf(io);

  switch (command) {
    case 'invite': {
      const usage =
        'invite takes one e-mail address: invite <email> [--roles <role,role>] [--role <role>]... [--admin] ' +
        '[--name "..."] [--credential "..."] [--reinstate]';
      let parsed;
      try {
        parsed = readArgs(rest, { ...ROLE_OPTIONS, reinstate: { type: 'boolean' } }, { positionals: true });
      } catch {
        throw new UsageError(usage);
      }
      const args = parsed.positionals;
      if (args.length !== 1) throw new UsageError(usage);
      const email = normaliseEmail(args[0] ?? '');
      if (!email) throw new UsageError(`"${args[0] ?? ''}" is not an e-mail address`);
      const roles: StaffRole[] = rolesOf(parsed.values) ?? [...DEFAULT_ROLES];
      const profile = profileOf(parsed.values);
      const admin = roles.includes('admin');
      const reinstate = parsed.values.reinstate === true;
      // At STAFF_ORIGIN, where the server answers the staff area and its passkeys belong.
      const siteUrl = readConfig(io.env, io.cwd).staffOrigin;
      return withStore(io, async (store) => {
        let invited;
        try {
          invited = await inviteMember(store, { email, roles, reinstate, now, actor, profile });
        } catch (error) {
          if (error instanceof NotRevokedError)
            throw new CliFailure(
              `${email} is not a revoked member: --reinstate only lets a revoked member back in.`,
            );
          if (!(error instanceof RevokedMemberError)) throw error;
          throw new CliFailure(
            `${email} was revoked (${when(error.member.revokedAt)} UTC); their invitations were cancelled with it. ` +
              `To let them back in: npm run staff -- invite ${email}${roleFlags(roles)} --reinstate`,
          );
        }
        const { validMs } = invited;
        const whom =
          invited.kind === 'add a passkey'
            ? `${email} is a member already: this link adds a passkey.`
            : `${invited.kind === 'reinstatement' ? 'Reinstatement' : 'Invitation'} for ${email}${admin ? ' (admin)' : ''}.`;
        io.out(
          `${whom}\nSend them this link, valid ${validMs === INVITE_VALID_MS ? '24 hours' : '1 hour'} and once ` +
            `(the token after # never reaches a server log):\n\n  ${enrolLink(siteUrl, invited.token)}\n`,
        );
        return 0;
      });
    }
    case 'set': {
      const usage =
        'set takes one e-mail address and what to change: set <email> [--roles <role,role>] [--role <role>]... ' +
        '[--admin] [--name "..."] [--credential "..."]';
      let parsed;
      try {
        parsed = readArgs(rest, ROLE_OPTIONS, { positionals: true });
      } catch {
        throw new UsageError(usage);
      }
      if (parsed.positionals.length !== 1) throw new UsageError(usage);
      const email = normaliseEmail(parsed.positionals[0] ?? '') ?? parsed.positionals[0] ?? '';
      const roles = rolesOf(parsed.values);
      const profile = profileOf(parsed.values);
      if (roles === undefined && Object.keys(profile).length === 0) throw new UsageError(usage);
      return withStore(io, async (store) => {
        const before = (await store.staff.members()).find(
          (member) => member.email === email && member.revokedAt === null,
        );
        if (!before)
          throw new CliFailure(
            `No current staff member ${email}. \`npm run staff -- list\` shows them; invite them first.`,
          );
        if (roles !== undefined) await store.staff.setRoles(email, roles);
        const member = await store.staff.setProfile(email, profile);
        if (!member) throw new CliFailure(`${email} was revoked meanwhile: nothing more was changed.`);
        await store.audit.append({
          actor,
          action: 'roles',
          detail: `${email} ${describeMember(before)} -> ${describeMember(member)}`,
        });
        io.out(`${email}: ${describeMember(member)}\n`);
        return 0;
      });
    }
    case 'invites': {
      takes([], 0, 'invites takes no arguments');
      return withStore(io, async (store) => {
        const invites = await store.staff.invites(now);
        await store.audit.append({ actor, action: 'cli-read', detail: 'invites' });
        if (invites.length === 0) {
          io.out('No invitation is waiting.\n');
          return 0;
        }
        io.out(
          table([
            ['E-mail', 'Roles', 'For', 'Created (UTC)', 'Expires (UTC)'],
            ...invites.map((invite) => [
              invite.email,
              invite.roles.join(', '),
              invite.kind,
              when(invite.createdAt),
              when(invite.expiresAt),
            ]),
          ]),
        );
        return 0;
      });
    }
    case 'cancel': {
      const { args } = takes([], 1, 'cancel takes one e-mail address: cancel <email>');
      const email = normaliseEmail(args[0] ?? '') ?? args[0] ?? '';
      return withStore(io, async (store) => {
        const cancelled = await cancelInvitations(store, email, now, actor);
        if (cancelled === 0)
          throw new CliFailure(
            `No invitation for ${email} is waiting. \`npm run staff -- invites\` lists them.`,
          );
        io.out(
          `Cancelled ${invitations(cancelled)} for ${email}: ${cancelled === 1 ? 'its link no longer works' : 'their links no longer work'}.\n`,
        );
        return 0;
      });
    }
    case 'list': {
      takes([], 0, 'list takes no arguments');
      return withStore(io, async (store) => {
        const members = await store.staff.members();
        await store.audit.append({ actor, action: 'cli-read', detail: 'staff list' });
        if (members.length === 0) {
          io.out('No staff yet: npm run staff -- invite <email>\n');
          return 0;
        }
        io.out(
          table([
            ['E-mail', 'Roles', 'Passkeys', 'Last sign-in (UTC)', 'Revoked (UTC)', 'Name', 'Credential'],
            ...members.map((member) => [
              member.email,
              member.roles.join(', '),
              String(member.passkeys),
              when(member.lastSignInAt),
              when(member.revokedAt),
              member.name ?? '-',
              member.credential ?? '-',
            ]),
          ]),
        );
        return 0;
      });
    }
    case 'revoke': {
      const { args } = takes([], 1, 'revoke takes one e-mail address: revoke <email>');
      return withStore(io, async (store) => {
        const member = await revokeMember(store, args[0] ?? '', now, actor);
        if (!member)
          throw new CliFailure(
            `No staff member ${args[0] ?? ''}. \`npm run staff -- list\` shows them; ` +
              `\`npm run staff -- cancel <email>\` withdraws an invitation.`,
          );
        const cancelled = member.invitesCancelled;
        io.out(
          `Revoked ${member.email}: signed out everywhere, passkeys deleted` +
            `${cancelled ? `, ${invitations(cancelled)} cancelled` : ''}.\n`,
        );
        return 0;
      });
    }
    case 'audit': {
      const verify = takes(['verify'], 0, 'audit takes only --verify: audit [--verify]').has('verify');
      return withStore(io, async (store) => {
        // The check runs before this read is itself appended, so it judges the log as it was found.
        const verdict = verify ? await store.audit.verify() : undefined;
        const rows = verify ? [] : await allAuditRows(store);
        await store.audit.append({ actor, action: 'cli-read', detail: verify ? 'audit --verify' : 'audit' });
        if (verdict && !verdict.ok) {
          io.err(`The audit log is broken at row ${verdict.seq}: ${verdict.reason}\n`);
          return 1;
        }
        if (verdict?.ok) {
          io.out(
            `The audit log is whole: ${verdict.rows} rows, each chained to the one before and signed, ` +
              'and it ends where its checkpoint says.\n',
          );
          return 0;
        }
        io.out(
          rows.length === 0
            ? 'The audit log is empty.\n'
            : table([
                ['Seq', 'At (UTC)', 'Actor', 'Action', 'Lead', 'Detail'],
                ...rows.map((row) => [
                  String(row.seq),
                  row.at,
                  row.actor,
                  row.action,
                  row.leadId ?? '-',
                  row.detail ?? '',
                ]),
              ]),
        );
        return 0;
      });
    }
    default:
      throw new UsageError(command === undefined ? 'Give a command.' : `Unknown command "${command}".`);
  }
}

/** Runs the CLI; its exit code: 0 done, 1 could not (no database, no such member, a broken audit chain), 2 usage. */
export const runStaffCli = cli(run, USAGE, [KeyError, ConfigError, CipherError, ContentError]);

await runAsMain(import.meta.url, runStaffCli);

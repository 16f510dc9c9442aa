// `npm run leads -- <command>`: the staff's view of the lead database (LEADS_DB), with health details and messages
// decrypted with the key the server uses, read the same way (server/config.ts). Safe to run while the server runs:
// SQLite's WAL lets it read during writes, `retry-dead` is a small write the server's worker then picks up, and
// `backup` copies the database as it is at one moment (server/store/sqlite/backup.ts).
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormDefinition } from '../generated/content-types.ts';
import { ConfigError, readConfig, type ServerConfig } from '../server/config.ts';
import { loadForms } from '../server/content.ts';
import { BackupError, backupLeadDatabase } from '../server/store/sqlite/backup.ts';
import { CipherError } from '../server/store/shared/cipher.ts';
import { KeyError, keyFileOf } from '../server/store/shared/key-file.ts';
import { leadDetails, leadsCsv, leadsJsonLines, leadsTable } from '../server/store/shared/lead-report.ts';
import { rotateLeadKey } from '../server/store/sqlite/rotation.ts';
import { openLeadStore } from '../server/store/sqlite/lead-store.ts';
import type { LeadStore } from '../server/store/contract/lead-store.ts';
import { CopyError, copySqliteToPostgres } from '../server/store/copy-sqlite-to-postgres.ts';
import { openPostgresLeadStore } from '../server/store/postgres/pg-lead-store.ts';
import { rotatePostgresLeadKey } from '../server/store/postgres/pg-rotation.ts';

export const USAGE = `Usage: npm run leads -- <command>

  list [--json] [--since DATE]   leads, oldest first: a table, or one JSON object per line
  show <id>                      one lead with every field, and the state of its chat alert
  export --csv                   every lead as CSV (spreadsheet-safe) on standard output
  retry-dead                     put every dead chat alert back to pending; a running server sends them
  backup <file>                  copy the database to a new file, safely while the server runs; still encrypted
  rotate-key                     seal every value again under a new key, safely while the server runs
  migrate-to-postgres            copy LEADS_DB into DATABASE_URL (PostgreSQL), then check every row and value there;
                                 a second run copies nothing

DATE is a day (2026-01-08, from midnight UTC), a time (2026-01-08T09:00-08:00) or a span back from now (24h, 7d).
Reads LEADS_DB (default data/leads.db) and its key as the server does: LEADS_ENCRYPTION_KEY, or the key file
LEADS_KEY_FILE (default <LEADS_DB>.key; with NODE_ENV=production one of the two must be set). Either may hold
several keys (comma-separated, or one a line): the first seals, all open. rotate-key with a key file writes a new
key first in it and drops the old one when done; with LEADS_ENCRYPTION_KEY it seals everything under its first key.
`;

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
  now?: () => Date;
  /** The operating-system user named in the audit log; the process's own by default. */
  user?: string;
  /** rotate-key's wait for leads a server sealed with the old key (RotationOptions.settleMs), for tests. */
  rotateSettleMs?: number;
}

export class UsageError extends Error {}
/** Something the staff member can fix, such as a wrong LEADS_DB; shown without a stack trace. */
export class CliFailure extends Error {}

/** `--since` as an ISO 8601 instant. */
export function parseSince(text: string | undefined, now: Date): string {
  const problem = `--since takes a day (2026-01-08), a time (2026-01-08T09:00-08:00) or a span (24h, 7d), not "${text ?? ''}"`;
  if (text === undefined) throw new UsageError(problem);
  const span = /^(\d{1,5})([hd])$/.exec(text);
  if (span) {
    const hours = Number(span[1]) * (span[2] === 'd' ? 24 : 1);
    return new Date(now.getTime() - hours * 3_600_000).toISOString();
  }
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
  const time = /^\d{4}-\d{2}-\d{2}T/.test(day) ? Date.parse(day) : Number.NaN;
  if (Number.isNaN(time)) throw new UsageError(problem);
  return new Date(time).toISOString();
}

/** LEADS_DB, checked: a file that exists. */
function databaseFile(config: ServerConfig): string {
  if (config.leadsDb === ':memory:')
    throw new UsageError('LEADS_DB is :memory:, which only the server can see');
  if (!existsSync(config.leadsDb))
    throw new CliFailure(
      `No lead database at ${config.leadsDb}. Set LEADS_DB to the file the server writes (default data/leads.db).`,
    );
  return config.leadsDb;
}

/** The store the server uses: PostgreSQL when DATABASE_URL is set (its key from the environment), else LEADS_DB. */
export async function openStore(io: CliIo): Promise<LeadStore> {
  const config = readConfig(io.env, io.cwd);
  if (config.databaseUrl !== undefined)
    return openPostgresLeadStore(config.databaseUrl, {
      key: config.leadsEncryptionKey,
      keyFile: config.leadsKeyFile,
      max: 2,
    });
  // No writer thread: the CLI's one write (retry-dead) is small, and a thread would only slow its start.
  return openLeadStore(databaseFile(config), {
    key: config.leadsEncryptionKey,
    keyFile: config.leadsKeyFile,
    createKeyFile: false,
    writerThread: false,
  });
}

/** LEADS_DB for a command that works on the SQLite file alone; refused when the server's store is PostgreSQL. */
function sqliteOnly(config: ServerConfig, command: string): string {
  if (config.databaseUrl !== undefined)
    throw new UsageError(
      `${command} works on the SQLite file LEADS_DB, not on DATABASE_URL: PostgreSQL has its own backups ` +
        '(docs/DEPLOY.md, Several instances). Unset DATABASE_URL to run it on LEADS_DB.',
    );
  return databaseFile(config);
}

/** The form definitions, for labels; a lead is still shown, by field names, when they cannot be read. */
function formsOrNone(): Map<string, FormDefinition> {
  try {
    return loadForms();
  } catch {
    return new Map();
  }
}

async function run(argv: readonly string[], io: CliIo): Promise<void> {
  const [command, ...rest] = argv;
  const flags = new Set(rest.filter((arg) => arg.startsWith('--')));
  const known = (...names: string[]) => {
    const unknown = [...flags].filter((flag) => !names.includes(flag));
    if (unknown.length > 0) throw new UsageError(`${command} does not take ${unknown.join(', ')}`);
  };
  switch (command) {
    case 'list': {
      known('--json', '--since');
      const sinceAt = rest.indexOf('--since');
      const since = sinceAt === -1 ? undefined : parseSince(rest[sinceAt + 1], io.now?.() ?? new Date());
      const extra = rest.filter((arg, index) => !arg.startsWith('--') && index !== sinceAt + 1);
      if (extra.length > 0) throw new UsageError(`list does not take ${extra.join(' ')}`);
      return withStore(io, async (store) => {
        const leads = await store.listLeads({ since });
        await audited(io, store, { detail: `list count=${leads.length}` });
        io.out(flags.has('--json') ? leadsJsonLines(leads) : leadsTable(leads));
      });
    }
    case 'show': {
      known();
      const [id, ...extra] = rest;
      if (id === undefined || extra.length > 0) throw new UsageError('show takes one lead id: show <id>');
      return withStore(io, async (store) => {
        const lead = await store.getLead(id);
        if (!lead) throw new CliFailure(`No lead with id ${id}. \`npm run leads -- list\` shows the ids.`);
        await audited(io, store, { leadId: id, detail: 'show' });
        io.out(leadDetails(lead, await store.getAlert(id), formsOrNone().get(lead.formId)));
      });
    }
    case 'export': {
      known('--csv');
      if (!flags.has('--csv') || rest.length !== 1) throw new UsageError('export takes --csv: export --csv');
      return withStore(io, async (store) => {
        const leads = await store.listLeads();
        await audited(io, store, { detail: `export count=${leads.length}` });
        io.out(leadsCsv(leads));
      });
    }
    case 'retry-dead': {
      if (rest.length > 0) throw new UsageError('retry-dead takes no arguments');
      return withStore(io, async (store) => {
        const count = await store.retryDeadAlerts(Date.now());
        io.out(
          count === 0
            ? 'No dead chat alerts.\n'
            : `${count} dead chat alert${count === 1 ? '' : 's'} put back to pending: a running server sends ` +
                'them within seconds, or the next server start does.\n',
        );
      });
    }
    case 'backup': {
      known();
      const [file, ...extra] = rest;
      if (file === undefined || extra.length > 0)
        throw new UsageError('backup takes one file name: backup <file>');
      const target = resolve(io.cwd, file);
      const { leads, bytes } = await backupLeadDatabase(
        sqliteOnly(readConfig(io.env, io.cwd), 'backup'),
        target,
      );
      io.out(
        `Backed up ${leads} lead${leads === 1 ? '' : 's'} to ${target} (${Math.ceil(bytes / 1024)} KB). Its ` +
          'health details and messages are encrypted as stored: keep the key apart from it.\n',
      );
      return;
    }
    case 'rotate-key': {
      if (rest.length > 0) throw new UsageError('rotate-key takes no arguments');
      const config = readConfig(io.env, io.cwd);
      const options = {
        key: config.leadsEncryptionKey,
        keyFile: config.leadsKeyFile,
        forms: formsOrNone(),
        actor: actorOf(io),
        settleMs: io.rotateSettleMs,
      };
      // The store the server uses: PostgreSQL when DATABASE_URL is set, else LEADS_DB.
      const rotate = () =>
        config.databaseUrl === undefined
          ? rotateLeadKey(databaseFile(config), options)
          : rotatePostgresLeadKey(config.databaseUrl, options);
      io.out('Sealing every value again under the new key; the servers keep taking leads meanwhile...\n');
      const result = await rotate();
      io.out(
        `Done: ${result.resealed} lead${result.resealed === 1 ? '' : 's'} and notes sealed with key ${result.keyId}. ` +
          (result.keyFile
            ? `${result.keyFile} now holds that key alone.\n`
            : `No value is sealed with any other key: the other keys (${result.retired.join(', ') || 'none'}) may ` +
              'now be dropped from LEADS_ENCRYPTION_KEY.\n'),
      );
      return;
    }
    case 'migrate-to-postgres': {
      if (rest.length > 0) throw new UsageError('migrate-to-postgres takes no arguments');
      const config = readConfig(io.env, io.cwd);
      if (config.databaseUrl === undefined)
        throw new UsageError('migrate-to-postgres writes to DATABASE_URL: set it to the PostgreSQL database');
      const file = databaseFile(config);
      // The same key opens both: from the environment, or the file's key file (PostgreSQL has no file beside it).
      const keys = { key: config.leadsEncryptionKey, keyFile: config.leadsKeyFile ?? keyFileOf(file) };
      const { rows, copied } = await copySqliteToPostgres(file, config.databaseUrl, keys, actorOf(io));
      const total = Object.values(copied).reduce((sum, count) => sum + count, 0);
      const counts = Object.entries(rows)
        .map(([table, count]) => `${table} ${copied[table as keyof typeof copied]}/${count}`)
        .join(', ');
      io.out(
        (total === 0
          ? `Nothing to copy: PostgreSQL already holds every row of ${file}.`
          : `Copied ${total} row${total === 1 ? '' : 's'} from ${file} to PostgreSQL (copied/in the file: ${counts}).`) +
          ' Checked: every row is there, every lead and note opens with the key, the audit chain holds.\n',
      );
      return;
    }
    default:
      throw new UsageError(command === undefined ? 'Give a command.' : `Unknown command "${command}".`);
  }
}

/** Every read of leads is in the audit log before anything is shown. */
const actorOf = (io: CliIo) => `cli:${io.user ?? userInfo().username}`;
const audited = (io: CliIo, store: LeadStore, entry: { leadId?: string; detail: string }) =>
  store.audit.append({ actor: actorOf(io), action: 'cli-read', ...entry });

async function withStore(io: CliIo, use: (store: LeadStore) => void | Promise<void>): Promise<void> {
  const store = await openStore(io);
  try {
    await use(store);
  } finally {
    await store.close();
  }
}

/** Runs the CLI; returns its exit code: 0 done, 1 could not (no database, wrong key), 2 wrong arguments. */
export async function runLeadsCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE);
    return 0;
  }
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (
      [CliFailure, KeyError, ConfigError, CipherError, BackupError, CopyError].some(
        (kind) => error instanceof kind,
      )
    ) {
      const { message } = error as Error;
      io.err(`${message}\n`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runLeadsCli(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}

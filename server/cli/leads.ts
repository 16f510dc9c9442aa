// `npm run leads -- <command>`: the staff's view of the lead database (LEADS_DB), with health details and messages
// decrypted with the key the server uses, read the same way (server/config.ts). Safe to run while the server runs:
// SQLite's WAL lets it read during writes, `retry-dead` is a small write the server's worker then picks up, and
// `backup` copies the database as it is at one moment (server/store/sqlite/backup.ts).
import { basename, resolve } from 'node:path';
import { cli, CliFailure, readArgs, runAsMain, UsageError, type CliIo } from '../../core/cli.ts';
import type { FormDefinition } from '../../generated/content-types.ts';
import { ConfigError, readConfig, type ServerConfig } from '../config.ts';
import { loadForms } from '../content.ts';
import { BackupError, backupLeadDatabase } from '../store/sqlite/backup.ts';
import { CipherError } from '../store/shared/cipher.ts';
import { KeyError, keyFileOf } from '../store/shared/key-file.ts';
import { leadDetails, leadsCsv, leadsJsonLines, leadsTable } from '../store/shared/lead-report.ts';
import { rotateLeadKey } from '../store/sqlite/rotation.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import { CopyError, copySqliteToPostgres } from '../store/copy-sqlite-to-postgres.ts';
import { rotatePostgresLeadKey } from '../store/postgres/pg-rotation.ts';
import { actorOf, databaseFile, withStore } from './cli-store.ts';

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

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  /** The command's own words after it: parseArgs, strict, so an option it does not take is refused. */
  const words = (options: Parameters<typeof readArgs>[1] = {}) =>
    readArgs(rest, options, { positionals: true });
  switch (command) {
    case 'list': {
      const { values, positionals } = words({ json: { type: 'boolean' }, since: { type: 'string' } });
      if (positionals.length > 0) throw new UsageError(`list does not take ${positionals.join(' ')}`);
      const since =
        values.since === undefined ? undefined : parseSince(String(values.since), io.now?.() ?? new Date());
      return withStore(io, async (store) => {
        const leads = await store.listLeads({ since });
        await audited(io, store, { detail: `list count=${leads.length}` });
        io.out(values.json ? leadsJsonLines(leads) : leadsTable(leads));
        return 0;
      });
    }
    case 'show': {
      const [id, ...extra] = words().positionals;
      if (id === undefined || extra.length > 0) throw new UsageError('show takes one lead id: show <id>');
      return withStore(io, async (store) => {
        const lead = await store.getLead(id);
        if (!lead) throw new CliFailure(`No lead with id ${id}. \`npm run leads -- list\` shows the ids.`);
        await audited(io, store, { leadId: id, detail: 'show' });
        io.out(leadDetails(lead, await store.getAlert(id), formsOrNone().get(lead.formId)));
        return 0;
      });
    }
    case 'export': {
      const { values, positionals } = words({ csv: { type: 'boolean' } });
      if (!values.csv || positionals.length > 0) throw new UsageError('export takes --csv: export --csv');
      return withStore(io, async (store) => {
        const leads = await store.listLeads();
        await audited(io, store, { detail: `export count=${leads.length}` });
        io.out(leadsCsv(leads));
        return 0;
      });
    }
    case 'retry-dead': {
      if (words().positionals.length > 0) throw new UsageError('retry-dead takes no arguments');
      return withStore(io, async (store) => {
        const count = await store.retryDeadAlerts(Date.now());
        io.out(
          count === 0
            ? 'No dead chat alerts.\n'
            : `${count} dead chat alert${count === 1 ? '' : 's'} put back to pending: a running server sends ` +
                'them within seconds, or the next server start does.\n',
        );
        return 0;
      });
    }
    case 'backup': {
      const [file, ...extra] = words().positionals;
      if (file === undefined || extra.length > 0)
        throw new UsageError('backup takes one file name: backup <file>');
      const target = resolve(io.cwd, file);
      const source = sqliteOnly(readConfig(io.env, io.cwd), 'backup');
      // Audited before the copy is taken, so the copy holds its own row: who took a copy of every lead, and where.
      await withStore(io, (store) =>
        store.audit.append({ actor: actorOf(io), action: 'backup', detail: `file=${basename(target)}` }),
      );
      const { leads, bytes } = await backupLeadDatabase(source, target);
      io.out(
        `Backed up ${leads} lead${leads === 1 ? '' : 's'} to ${target} (${Math.ceil(bytes / 1024)} KB). Its ` +
          'health details and messages are encrypted as stored: keep the key apart from it.\n',
      );
      return 0;
    }
    case 'rotate-key': {
      if (words().positionals.length > 0) throw new UsageError('rotate-key takes no arguments');
      const config = readConfig(io.env, io.cwd);
      const options = {
        key: config.leadsEncryptionKey,
        keyFile: config.leadsKeyFile,
        forms: formsOrNone(),
        actor: actorOf(io),
        settleMs: io.rotateSettleMs,
        auditKey: config.auditKey,
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
      return 0;
    }
    case 'migrate-to-postgres': {
      if (words().positionals.length > 0) throw new UsageError('migrate-to-postgres takes no arguments');
      const config = readConfig(io.env, io.cwd);
      if (config.databaseUrl === undefined)
        throw new UsageError('migrate-to-postgres writes to DATABASE_URL: set it to the PostgreSQL database');
      const file = databaseFile(config);
      // The same key opens both: from the environment, or the file's key file (PostgreSQL has no file beside it).
      const keys = {
        key: config.leadsEncryptionKey,
        keyFile: config.leadsKeyFile ?? keyFileOf(file),
        auditKey: config.auditKey,
      };
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
      return 0;
    }
    default:
      throw new UsageError(command === undefined ? 'Give a command.' : `Unknown command "${command}".`);
  }
}

/** Every read of leads is in the audit log before anything is shown. */
const audited = (io: CliIo, store: LeadStore, entry: { leadId?: string; detail: string }) =>
  store.audit.append({ actor: actorOf(io), action: 'cli-read', ...entry });

/** Runs the CLI; returns its exit code: 0 done, 1 could not (no database, wrong key), 2 wrong arguments. */
export const runLeadsCli = cli(run, USAGE, [KeyError, ConfigError, CipherError, BackupError, CopyError]);

await runAsMain(import.meta.url, runLeadsCli);

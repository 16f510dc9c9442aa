// What the production CLIs (`npm run leads`, `npm run staff`) share: how they talk to the terminal, how they end, and
// the store they open — the one the server uses, read the same way (server/config.ts).
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../../core/cli-args.ts';
import { readConfig, type ServerConfig } from '../config.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import { openPostgresLeadStore } from '../store/postgres/pg-lead-store.ts';
import { openLeadStore } from '../store/sqlite/lead-store.ts';

export { UsageError };

/** The terminal as a CLI sees it; tests pass their own (a clock, a user) and read what it wrote. */
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

/** Something the staff member can fix, such as a wrong LEADS_DB; shown without a stack trace. */
export class CliFailure extends Error {}

/** Who the audit log names for a CLI's acts: `cli:<os user>`. */
export const actorOf = (io: CliIo) => `cli:${io.user ?? userInfo().username}`;

type ErrorKind = abstract new (...args: never[]) => Error;

/**
 * A CLI as a function of its arguments: `help` (or --help, -h) prints `usage`; a UsageError prints its message and
 * `usage`, exit 2; an error of the `failures` kinds (or a CliFailure) prints its message alone, exit 1; anything else
 * is a bug, thrown with its stack.
 */
export function cli(
  run: (argv: readonly string[], io: CliIo) => Promise<number>,
  usage: string,
  failures: readonly ErrorKind[],
): (argv: readonly string[], io: CliIo) => Promise<number> {
  return async (argv, io) => {
    if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
      io.out(usage);
      return 0;
    }
    try {
      return await run(argv, io);
    } catch (error) {
      if (error instanceof UsageError) {
        io.err(`${error.message}\n\n${usage}`);
        return 2;
      }
      if ([CliFailure, ...failures].some((kind) => error instanceof kind)) {
        io.err(`${(error as Error).message}\n`);
        return 1;
      }
      throw error;
    }
  };
}

/** Runs `command` with the process's arguments and terminal when `moduleUrl` is the script node was started with. */
export async function runAsMain(
  moduleUrl: string,
  command: (argv: readonly string[], io: CliIo) => Promise<number>,
): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  process.exitCode = await command(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}

/** LEADS_DB, checked: a file that exists. */
export function databaseFile(config: ServerConfig): string {
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

/** Opens the store, hands it to `use`, and closes it however `use` ends. */
export async function withStore<T>(io: CliIo, use: (store: LeadStore) => Promise<T>): Promise<T> {
  const store = await openStore(io);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

// A throwaway PostgreSQL cluster for tests: Debian's server binaries, a temporary folder, a free loopback port, and
// gone afterwards. initdb refuses to run as root, so when the tests run as root the cluster is made and run by the
// `postgres` user (runuser); otherwise by the user running the tests.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

/** Debian's server binaries, newest version first (`postgresql` installs them; `.ci/run` does when missing). */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'pg_ctl')));
}

export interface TestPostgres {
  /** `postgres://app@127.0.0.1:<port>/app` */
  url: string;
  port: number;
  /** Stops the server at once (as a crash would), keeping its data. */
  kill(): void;
  /** Starts it again on the same port and data. */
  start(): void;
  /** Stops it and removes every file. */
  remove(): void;
  /** The server's main process, while it runs (its children are its connections), for measuring its CPU. */
  pid(): number | undefined;
}

/** Creates and starts a cluster with a database `app` owned by the user `app` (trust authentication, loopback only). */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql (.ci/run does)');
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, tool),
      asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args,
      {
        stdio: 'pipe',
      },
    );
  // Its own folder, not a test's (tests/helpers/temp-dir.ts): it lives as long as the cluster, which may serve a whole
  // file's tests. Removed by remove(), or here when the cluster cannot be made or started.
  const dir = mkdtempSync(join(tmpdir(), 'test-pg-'));
  const data = join(dir, 'data');
  const stop = (mode: 'fast' | 'immediate') => {
    try {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    } catch {
      // Not running.
    }
  };
  const remove = () => {
    stop('immediate');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return await startIn(dir, run, stop, remove);
  } catch (error) {
    remove();
    throw error;
  }
}

async function startIn(
  dir: string,
  run: (tool: string, args: string[]) => Buffer,
  stop: (mode: 'fast' | 'immediate') => void,
  remove: () => void,
): Promise<TestPostgres> {
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'app', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      // fsync stays on: the tests prove durability, and a test cluster that skipped it would prove nothing.
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
      'start',
    ]);
  start();
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'app', 'app']);
  return {
    url: `postgres://app@127.0.0.1:${port}/app`,
    port,
    kill: () => stop('immediate'),
    start,
    pid() {
      try {
        return Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]) || undefined;
      } catch {
        return undefined;
      }
    },
    remove,
  };
}

/**
 * A pool for a test's own reads and set-up. The tests stop and kill PostgreSQL under it: an idle client then gets the
 * server's "terminating connection" message, which a pool without an 'error' listener throws as an uncaught exception.
 */
export function testPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}

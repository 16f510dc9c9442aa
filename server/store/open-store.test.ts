// The server's store on PostgreSQL opens no more connections than DATABASE_POOL_SIZE for its queries (and one that
// listens for new leads), however many ask at once: the database's max_connections is shared by every instance.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPostgres, testPool, type TestPostgres } from '../../tests/helpers/postgres.ts';
import { openStore } from './open-store.ts';

let cluster: TestPostgres;
beforeAll(async () => {
  cluster = await startTestPostgres();
});
afterAll(() => cluster.remove());

it('opens at most DATABASE_POOL_SIZE connections for its queries, plus the one that listens', async () => {
  const store = await openStore({
    leadsDb: 'unused.db',
    databaseUrl: cluster.url,
    databasePoolSize: 2,
    auditKey: undefined,
    leadsEncryptionKey: [randomBytes(32)],
    leadsKeyFile: undefined,
  });
  const watcher = testPool(cluster.url, 1);
  try {
    // Twenty at once: a pool opens a connection for each that finds the others busy, up to its size, and keeps them
    // open a while once idle.
    await Promise.all(Array.from({ length: 20 }, () => store.alertBacklog()));
    const { rows } = await watcher.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    expect(rows[0]?.n).toBe(3);
    expect(await store.isHealthy()).toBe(true);
  } finally {
    await store.close();
    await watcher.end();
  }
});

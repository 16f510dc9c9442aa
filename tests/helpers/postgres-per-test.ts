// A throwaway PostgreSQL cluster for a test file (started before its tests, removed after them) and a fresh database
// for each test that asks for one: the set-up the PostgreSQL server tests and the store contract share. Apart from
// postgres.ts because it registers vitest hooks, and the lead benchmark imports postgres.ts.
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startTestPostgres, type TestPostgres, testPool } from './postgres.ts';

export interface TestDatabase {
  name: string;
  url: string;
  /** One connection of the test's own, to read what the database holds; it outlives restarts of the cluster. */
  reader: pg.Pool;
}

/**
 * Registers the cluster's hooks in the calling test file (or describe block). `defer` registers a clean-up run after
 * the test: there each database's reader is ended and the database dropped.
 */
export function postgresPerTest(defer: (cleanup: () => Promise<void>) => void) {
  let cluster: TestPostgres | undefined;
  let admin: pg.Pool | undefined;
  let databases = 0;
  beforeAll(async () => {
    cluster = await startTestPostgres();
    admin = testPool(cluster.url, 2);
  });
  afterAll(async () => {
    await admin?.end();
    cluster?.remove();
  });
  const started = () => {
    if (!cluster || !admin) throw new Error('the test PostgreSQL did not start');
    return { cluster, admin };
  };
  return {
    /** The cluster, to stop and start it under a running server. */
    get cluster(): TestPostgres {
      return started().cluster;
    },
    /** A fresh database, its name made of `prefix`, this process and a count (so that test files never share one). */
    async database(prefix: string): Promise<TestDatabase> {
      const { cluster, admin } = started();
      databases += 1;
      const name = `${prefix}_${process.pid}_${databases}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const url = cluster.url.replace(/\/app$/, `/${name}`);
      const reader = testPool(url, 1);
      defer(async () => {
        await reader.end();
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      });
      return { name, url, reader };
    },
  };
}

// The key ring of a PostgreSQL lead database, for its store and for rotate-key: the key meta read, the ring chosen as
// for SQLite (chooseKeyring, shared/keyring.ts), and the meta the ring needs written before its first seal.
import type pg from 'pg';
import type { UnlockOptions } from '../contract/keys.ts';
import { chooseKeyring, CURRENT_KEY_ID, KEY_ID } from '../shared/keyring.ts';
import { readMeta, writeMeta } from './pg-schema.ts';

/** Say "the PostgreSQL database" in messages: a connection string may hold a password. */
export const LABEL = 'the PostgreSQL lead database (DATABASE_URL)';

/**
 * The key ring for the database behind `pool`; `currentId` answers which key seals now, read by the caller in the
 * background (the ring is read synchronously). Returns with it the id that seals from now on, as just written.
 */
export async function unlockPostgres(
  pool: pg.Pool,
  url: string,
  options: UnlockOptions,
  currentId: () => string | undefined,
) {
  const meta = { original: await readMeta(pool, KEY_ID), current: await readMeta(pool, CURRENT_KEY_ID) };
  const { keyring, keySource, writes } = chooseKeyring(
    meta,
    // No key file is made beside a database that is not a file: the key comes from the environment or LEADS_KEY_FILE.
    { dbPath: url, label: LABEL },
    { ...options, createKeyFile: false },
    currentId,
  );
  for (const [name, value] of writes) await writeMeta(pool, name, value);
  // Read after the writes: a ring given a new first key seals with it from the first lead, not from the next check.
  // Without the row, the database's first key still seals, and it is the ring's first (chooseKeyring wrote none).
  const current = (await readMeta(pool, CURRENT_KEY_ID)) ?? keyring.all()[0]?.id;
  return { keyring, keySource, current };
}

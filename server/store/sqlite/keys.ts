// The SQLite lead database's key ring: its meta rows read and written at once, on its own connection (the steps,
// shared with PostgreSQL's pg-keys.ts, are shared/keyring.ts's chooseKeyring).
import type Database from 'better-sqlite3';
import type { KeySource, UnlockOptions } from '../contract/keys.ts';
import { chooseKeyring, CURRENT_KEY_ID, KEY_ID, type Keyring } from '../shared/keyring.ts';
import { readMeta, writeMeta } from './schema.ts';

/** The key ring for the SQLite database `db` at `path` (see chooseKeyring). */
export function unlockDatabase(
  db: Database.Database,
  path: string,
  options: UnlockOptions,
): { keyring: Keyring; keySource: KeySource } {
  const meta = { original: readMeta(db, KEY_ID), current: readMeta(db, CURRENT_KEY_ID) };
  const { keyring, keySource, writes } = chooseKeyring(meta, { dbPath: path, label: path }, options, () =>
    readMeta(db, CURRENT_KEY_ID),
  );
  for (const [name, value] of writes) writeMeta(db, name, value);
  return { keyring, keySource };
}

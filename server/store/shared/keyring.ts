// A lead database's key ring: the keys it is unlocked with, the one that seals now (which a running server follows
// within a second of a rotation), and the refusal of a ring that lacks the key its values were last sealed with. The
// same for both stores; each reads and writes its meta rows in its own words (sqlite/keys.ts, postgres/pg-keys.ts).
import type { KeySource, UnlockOptions } from '../contract/keys.ts';
import { keyId } from './cipher.ts';
import { KeyError, readKeyFile, resolveLeadKey } from './key-file.ts';
import { indexKeyOf } from './search-terms.ts';

/** The id of the database's first key: v1 values (written before values named their key) open with it. */
export const KEY_ID = 'key_id';
/** The id of the key that seals now; `rotate-key` changes it, and a running server follows within a second. */
export const CURRENT_KEY_ID = 'current_key_id';
/** How often a running server asks the database which key seals now. */
export const CURRENT_CHECK_MS = 1000;

export interface RingKey {
  id: string;
  key: Buffer;
  /** The key search terms are hashed with (search-terms.ts). */
  indexKey: Buffer;
}

export const ringKey = (key: Buffer): RingKey => ({ id: keyId(key), key, indexKey: indexKeyOf(key) });

export interface Keyring {
  /** The key that seals. */
  current(): RingKey;
  /** The key with this id; undefined when the ring lacks it (after reading the key file again, if there is one). */
  find(id: string): RingKey | undefined;
  /** Every key, the current one first. */
  all(): RingKey[];
  /** The key v1 values open with. */
  legacy(): RingKey | undefined;
}

export interface KeyringSources {
  /** The database's first key id (meta key_id), for v1 values. */
  originalId?: string;
  /** The keys again, from the key file: a rotation adds one while the server runs. */
  reload?: () => readonly Buffer[];
  /** Which key seals now (meta current_key_id), asked at most once a second. */
  currentId?: () => string | undefined;
}

export function createKeyring(keys: readonly Buffer[], sources: KeyringSources = {}): Keyring {
  const byId = new Map<string, RingKey>();
  const add = (key: Buffer) => {
    const entry = ringKey(key);
    if (!byId.has(entry.id)) byId.set(entry.id, entry);
  };
  keys.forEach(add);
  let current = ringKey(keys[0] ?? Buffer.alloc(0));
  let checkedAt = 0;
  let reloadedAt = 0;
  function find(id: string): RingKey | undefined {
    const known = byId.get(id);
    if (known || !sources.reload || Date.now() - reloadedAt < CURRENT_CHECK_MS) return known;
    reloadedAt = Date.now();
    try {
      sources.reload().forEach(add);
    } catch {
      // The file as it was stays in use; a value it cannot open says so.
    }
    return byId.get(id);
  }
  return {
    current() {
      if (sources.currentId && Date.now() - checkedAt >= CURRENT_CHECK_MS) {
        checkedAt = Date.now();
        let id: string | undefined;
        try {
          id = sources.currentId();
        } catch {
          // A database that cannot be read now (closed, failing) is the writer's to report; this key seals meanwhile.
        }
        if (id !== undefined && id !== current.id) current = find(id) ?? current;
      }
      return current;
    },
    find,
    all: () => [current, ...[...byId.values()].filter((entry) => entry.id !== current.id)],
    legacy: () => (sources.originalId === undefined ? current : find(sources.originalId)),
  };
}

/** What a database's meta says of its keys, read by its store (SQLite at once, PostgreSQL through a query). */
export interface KeyMeta {
  /** meta key_id: the database's first key. */
  original: string | undefined;
  /** meta current_key_id: the key it was last told seals. */
  current: string | undefined;
}

/**
 * The key ring for a database whose meta says `meta`, refusing one without the key its values were last sealed with;
 * `writes` are the meta rows the store must write before its first seal. The ring's first key seals from now on; a
 * running server follows a rotation (`currentId`, the key file read again). `where` names the database in messages.
 */
export function chooseKeyring(
  meta: KeyMeta,
  where: { dbPath: string; label: string },
  options: UnlockOptions,
  currentId: () => string | undefined,
): { keyring: Keyring; keySource: KeySource; writes: [name: string, value: string][] } {
  const { original } = meta;
  const expected = meta.current ?? original;
  const { keys, source } = resolveLeadKey({
    dbPath: where.dbPath,
    configured: options.key,
    keyFile: options.keyFile,
    // A new key for a database that already holds sealed values would leave them unreadable for good.
    mayCreate: (options.createKeyFile ?? true) && original === undefined,
  });
  const ids = keys.map(keyId);
  if (expected !== undefined && !ids.includes(expected))
    throw new KeyError(
      `The lead encryption key does not match ${where.label}: its values were last sealed with key id ${expected}, ` +
        `the key ring given holds key id ${ids.join(', ')}. Supply the key it was sealed with (LEADS_ENCRYPTION_KEY, ` +
        'or its key file: LEADS_KEY_FILE, or the file beside it).',
    );
  const writes: [string, string][] = [];
  if (original === undefined) writes.push([KEY_ID, ids[0] ?? '']);
  if (expected !== ids[0]) writes.push([CURRENT_KEY_ID, ids[0] ?? '']);
  const file = source.kind === 'file' || source.kind === 'created' ? source.file : undefined;
  const keyring = createKeyring(keys, {
    originalId: original ?? ids[0],
    reload: file === undefined ? undefined : () => readKeyFile(file).keys,
    currentId,
  });
  return { keyring, keySource: source, writes };
}

// Where a store's encryption keys come from, and how a store is asked to unlock: the same for both stores.

export type KeySource =
  | { kind: 'environment' }
  | { kind: 'file'; file: string; /** Readable by others than its owner. */ loose: boolean }
  | { kind: 'created'; file: string }
  /** A ':memory:' database: its key lives and dies with it. */
  | { kind: 'memory' };

export interface UnlockOptions {
  /** LEADS_ENCRYPTION_KEY (one key or a ring); without it the key file. */
  key?: Buffer | readonly Buffer[];
  /** LEADS_KEY_FILE; undefined for the file beside the database. */
  keyFile?: string;
  /** Create the key file when there is none and the database holds nothing sealed yet. */
  createKeyFile?: boolean;
}

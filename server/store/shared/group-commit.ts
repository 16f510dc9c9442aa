// Group commit: writes that arrive while a commit is under way wait for it to end, then go to the disk together in the
// next one, so one wait for the disk makes many of them durable. Each caller's promise settles only after the commit
// that holds its write returned: never before it is on disk.

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: Error };

export interface BatchWriter<T, R> {
  /**
   * Queues `item`; resolves with its result once committed, rejects when its write or the commit failed, at once with
   * QueueFullError when `maxQueued` writes already wait, and with DeadlineError when its deadline passed while it
   * waited (it is then never committed).
   */
  write(item: T): Promise<R>;
  /** Resolves when everything queued so far is committed. */
  idle(): Promise<void>;
}

/** Too many writes wait already: the store is not keeping up (or not answering), so this one is not queued. */
export class QueueFullError extends Error {
  constructor(limit: number) {
    super(`the lead store already has ${limit} writes waiting`);
    this.name = 'QueueFullError';
  }
}

/** The write's deadline passed before it could be committed: it was dropped, never written. */
export class DeadlineError extends Error {
  constructor() {
    super('the lead store did not reach this write before its deadline');
    this.name = 'DeadlineError';
  }
}

/**
 * Writes waiting for a commit beyond which the next is refused at once. A healthy store commits a few milliseconds
 * after a write arrives, so only a stuck one (a stalled disk) comes near; a visitor of a stuck store is answered at
 * once instead of holding memory and a connection until the deadline.
 */
export const MAX_QUEUED_WRITES = 1024;

/**
 * A write is not begun this close to its deadline: the commit after it takes a moment too, and a lead its visitor was
 * already told could not be saved should, whenever the store can help it, not be saved.
 */
export const COMMIT_MARGIN_MS = 500;

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: Error) => void;
}

export interface BatchWriterOptions<T> {
  /** Most writes in one commit. */
  maxBatch?: number;
  /** Most writes waiting for a commit; more are refused at once (QueueFullError). */
  maxQueued?: number;
  /** The epoch millisecond after which `item` must not be committed any more; undefined for none. */
  deadlineOf?: (item: T) => number | undefined;
}

/**
 * `commit` writes a batch in one transaction and returns (or resolves with) one outcome per item, in order; when it
 * throws or rejects, the whole batch failed and each of its items is rejected with that error.
 *
 * One commit at a time. The first write after a quiet spell waits no timer (it is committed on the next turn of the
 * event loop, together with whatever arrived in the same turn); under load, the batch size follows the disk: the
 * slower a commit, the more writes gather behind it. A write whose deadline passed while it waited is dropped when
 * the next batch is formed, so a store that was stuck never commits what its caller already gave up on.
 */
export function createBatchWriter<T, R>(
  commit: (items: T[]) => Outcome<R>[] | Promise<Outcome<R>[]>,
  { maxBatch = 256, maxQueued = Number.POSITIVE_INFINITY, deadlineOf }: BatchWriterOptions<T> = {},
): BatchWriter<T, R> {
  let queue: Waiting<T, R>[] = [];
  let draining: Promise<void> | undefined;

  async function commitBatch(batch: Waiting<T, R>[]): Promise<void> {
    if (batch.length === 0) return;
    let outcomes: Outcome<R>[];
    try {
      outcomes = await commit(batch.map((waiting) => waiting.item));
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const waiting of batch) waiting.reject(failure);
      return;
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome?.error ?? new Error('the commit returned no outcome for this write'));
    });
  }

  /** Drops the writes whose deadline has passed, rejecting them. */
  function dropExpired(): void {
    if (!deadlineOf) return;
    const now = Date.now();
    queue = queue.filter((waiting) => {
      const deadline = deadlineOf(waiting.item);
      if (deadline === undefined || deadline > now) return true;
      waiting.reject(new DeadlineError());
      return false;
    });
  }

  async function drain(): Promise<void> {
    // A turn of the event loop first, so the writes parsed in this one share the commit; between commits too, so a
    // long queue never holds the loop (and the visitors waiting on it) for several commits in a row.
    do {
      await new Promise((resolve) => setImmediate(resolve));
      dropExpired();
      await commitBatch(queue.splice(0, maxBatch));
    } while (queue.length > 0);
    draining = undefined;
  }

  return {
    write(item) {
      if (queue.length >= maxQueued) return Promise.reject(new QueueFullError(maxQueued));
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        draining ??= drain();
      });
    },
    async idle() {
      while (draining) await draining;
    },
  };
}

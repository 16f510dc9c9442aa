// Group commit: writes that arrive while a commit is under way wait for it to end, then go to the disk together in the
// next one, so one wait for the disk makes many of them durable. Each caller's promise settles only after the commit
// that holds its write returned: never before it is on disk.

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: Error };

export interface BatchWriter<T, R> {
  /** Queues `item`; resolves with its result once committed, rejects when its write or the commit failed. */
  write(item: T): Promise<R>;
  /** Resolves when everything queued so far is committed. */
  idle(): Promise<void>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: Error) => void;
}

/**
 * `commit` writes a batch in one transaction and returns (or resolves with) one outcome per item, in order; when it
 * throws or rejects, the whole batch failed and each of its items is rejected with that error.
 *
 * One commit at a time. The first write after a quiet spell waits no timer (it is committed on the next turn of the
 * event loop, together with whatever arrived in the same turn); under load, the batch size follows the disk: the
 * slower a commit, the more writes gather behind it.
 */
export function createBatchWriter<T, R>(
  commit: (items: T[]) => Outcome<R>[] | Promise<Outcome<R>[]>,
  { maxBatch = 256 }: { maxBatch?: number } = {},
): BatchWriter<T, R> {
  const queue: Waiting<T, R>[] = [];
  let draining: Promise<void> | undefined;

  async function commitBatch(batch: Waiting<T, R>[]): Promise<void> {
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

  async function drain(): Promise<void> {
    // A turn of the event loop first, so the writes parsed in this one share the commit; between commits too, so a
    // long queue never holds the loop (and the visitors waiting on it) for several commits in a row.
    do {
      await new Promise((resolve) => setImmediate(resolve));
      await commitBatch(queue.splice(0, maxBatch));
    } while (queue.length > 0);
    draining = undefined;
  }

  return {
    write(item) {
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

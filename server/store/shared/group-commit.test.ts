import { describe, expect, it } from 'vitest';
import { createBatchWriter, DeadlineError, QueueFullError, type Outcome } from './group-commit.ts';

/** A writer whose first commit waits for release(); records every batch. */
function heldWriter(options: Parameters<typeof createBatchWriter<number, number>>[1] = {}) {
  const batches: number[][] = [];
  let release = () => {};
  const writer = createBatchWriter(async (items: number[]): Promise<Outcome<number>[]> => {
    batches.push(items);
    if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    return items.map((value) => ({ ok: true, value }));
  }, options);
  return { writer, batches, release: () => release() };
}

describe('batch writer (group commit)', () => {
  it('commits the writes of one turn together and answers each with its own outcome', async () => {
    const batches: number[][] = [];
    const writer = createBatchWriter((items: number[]): Outcome<number>[] => {
      batches.push(items);
      return items.map((item) =>
        item === 3 ? { ok: false, error: new Error('three is refused') } : { ok: true, value: item * 10 },
      );
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => writer.write(n)));
    expect(batches).toEqual([[1, 2, 3, 4]]);
    expect(
      results.map((result) => (result.status === 'fulfilled' ? result.value : result.reason.message)),
    ).toEqual([10, 20, 'three is refused', 40]);
  });

  it('never answers before the commit, and rejects every write of a batch whose commit failed', async () => {
    let committed = false;
    const writer = createBatchWriter((items: string[]): Outcome<string>[] => {
      if (items.includes('boom')) throw new Error('disk full');
      committed = true;
      return items.map((value) => ({ ok: true, value }));
    });
    const answered = writer.write('a').then(() => committed);
    expect(committed).toBe(false);
    await expect(answered).resolves.toBe(true);
    const failing = [writer.write('b'), writer.write('boom')];
    for (const write of failing) await expect(write).rejects.toThrow('disk full');
  });

  it('commits one batch at a time: writes arriving meanwhile wait for it, then go together, at most maxBatch', async () => {
    const batches: number[][] = [];
    let release = () => {};
    const writer = createBatchWriter(
      async (items: number[]): Promise<Outcome<number>[]> => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return items.map((value) => ({ ok: true, value }));
      },
      { maxBatch: 4 },
    );
    const first = writer.write(0);
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 9 }, (_, n) => writer.write(n + 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(batches).toEqual([[0]]);
    release();
    await expect(Promise.all([first, ...later])).resolves.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(batches).toEqual([[0], [1, 2, 3, 4], [5, 6, 7, 8], [9]]);
    await writer.idle();
  });

  it('refuses a write at once while maxQueued writes wait, and takes writes again once they are committed', async () => {
    const { writer, batches, release } = heldWriter({ maxQueued: 2 });
    const first = writer.write(0);
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = [writer.write(1), writer.write(2)];
    await expect(writer.write(3)).rejects.toBeInstanceOf(QueueFullError);
    release();
    await expect(Promise.all([first, ...waiting])).resolves.toEqual([0, 1, 2]);
    await expect(writer.write(4)).resolves.toBe(4);
    expect(batches).toEqual([[0], [1, 2], [4]]);
  });

  it('drops a write whose deadline passed while it waited: rejected, and never given to a commit', async () => {
    const { writer, batches, release } = heldWriter({
      deadlineOf: (item) => (item >= 10 ? item : undefined),
    });
    const first = writer.write(0);
    await new Promise((resolve) => setImmediate(resolve));
    const expired = writer.write(10); // epoch millisecond 10: long past
    const alive = writer.write(Date.now() + 60_000);
    const noDeadline = writer.write(1);
    release();
    await expect(expired).rejects.toBeInstanceOf(DeadlineError);
    await expect(Promise.all([first, alive, noDeadline])).resolves.toHaveLength(3);
    expect(batches.flat()).not.toContain(10);
  });
});

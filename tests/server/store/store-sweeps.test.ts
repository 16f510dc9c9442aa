// The sweeps a server runs every few seconds on SQLite (unclaimed leads past their promise, due schedules) write
// through the lead writer thread: a write lock held elsewhere (another process, or the writer itself waiting for a
// stalled disk) never stops the event loop that serves visitors.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLeadStore } from '../../../server/store/sqlite/lead-store.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { holdLock } from './store-faults.ts';

const tempDir = useTempDir('store-sweeps-');

describe('the periodic sweeps on SQLite', () => {
  it('wait for a held write lock off the main thread: timers fire meanwhile, and they finish once it is released', async () => {
    const file = join(tempDir(), 'sweeps.db');
    const store = openLeadStore(file);
    try {
      const lock = await holdLock(file);
      const settled: string[] = [];
      const now = Date.now();
      const sweeps = Promise.all([
        store.inbox.takeEscalations(now, 60_000, 20).finally(() => settled.push('escalations')),
        store.inbox.escalationFailed('no-such-lead').finally(() => settled.push('escalation failed')),
        store.changes.claimDueSchedule(now, 60_000).finally(() => settled.push('schedule')),
      ]);
      // On this thread's connection each would have waited here, synchronously, for SQLite's busy timeout, and then
      // failed: the timer could not fire before they settled.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(settled).toEqual([]);
      await lock.release();
      expect(await sweeps).toEqual([[], undefined, undefined]);
    } finally {
      await store.close();
    }
  });
});

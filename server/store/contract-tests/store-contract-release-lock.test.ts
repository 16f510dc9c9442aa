// The release store's contract, continued (store-contract-releases.test.ts): one publish at a time, whatever becomes of
// a publisher; the instances' reports; the live-change listeners. On SQLite and a real PostgreSQL.
import { hostname } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { release, useLockHolders, waitFor } from './release-fixtures.ts';

const lockHolder = useLockHolders();

describe.each(storeKinds())('the $name release store', (kind) => {
  it('runs one publish at a time: a second caller is told it waits, and runs when the first is done', async () => {
    const { store, again } = await kind.open();
    const other = await again();
    const order: string[] = [];
    let finishFirst: () => void = () => undefined;
    const first = store.releases.withPublishLock(async () => {
      order.push('first start');
      await new Promise<void>((resolve) => (finishFirst = resolve));
      order.push('first end');
      return 1;
    });
    await waitFor(() => order.length > 0, 'the first publisher to start');
    const onWait = vi.fn();
    // Another instance, and the same instance again: both wait.
    const second = other.releases.withPublishLock(async () => {
      order.push('second');
      return 2;
    }, onWait);
    const sameInstance = vi.fn();
    const third = store.releases.withPublishLock(async () => {
      order.push('third');
      return 3;
    }, sameInstance);
    await waitFor(
      () => onWait.mock.calls.length > 0 && sameInstance.mock.calls.length > 0,
      'the others to wait',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(order).toEqual(['first start']);
    finishFirst();
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 3]);
    expect(order.slice(0, 2)).toEqual(['first start', 'first end']);
    expect(order.slice(2).sort()).toEqual(['second', 'third']);
    expect(onWait).toHaveBeenCalledTimes(1);
    expect(sameInstance).toHaveBeenCalledTimes(1);
    // Given back: the next one takes it at once.
    const free = vi.fn();
    expect(await store.releases.withPublishLock(async () => 'again', free)).toBe('again');
    expect(free).not.toHaveBeenCalled();
  });

  it('gives back the lock of a publisher killed with SIGKILL', async () => {
    const { store, location } = await kind.open();
    const holder = await lockHolder(kind.name, location);
    const onWait = vi.fn();
    let ran = false;
    const waiting = store.releases.withPublishLock(async () => {
      ran = true;
      return 'after';
    }, onWait);
    await waitFor(() => onWait.mock.calls.length > 0, 'the publisher to wait');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ran).toBe(false);
    holder.kill('SIGKILL');
    expect(await waiting).toBe('after');
    expect(onWait).toHaveBeenCalledTimes(1);
  });

  it('keeps each instance’s report, and forgets one that stops', async () => {
    const { store, again } = await kind.open();
    const releases = store.releases;
    await releases.create(release());
    await releases.create(release({ message: 'Second' }));
    const before = new Date(Date.now() - 1000).toISOString();
    await releases.reportServing('instance-a', 1);
    await (await again()).releases.reportServing('instance-b', 1);
    await releases.reportServing('instance-a', 2);
    const reports = await releases.instances(before);
    expect(reports.map(({ instance, releaseId }) => ({ instance, releaseId }))).toEqual([
      { instance: 'instance-a', releaseId: 2 },
      { instance: 'instance-b', releaseId: 1 },
    ]);
    expect(reports.every((report) => report.at >= before)).toBe(true);
    expect(await releases.instances(new Date(Date.now() + 60_000).toISOString())).toEqual([]);
    await releases.forgetInstance('instance-a');
    expect((await releases.instances(before)).map((report) => report.instance)).toEqual(['instance-b']);
  });

  if (kind.name === 'sqlite')
    it('takes over a lock row of its own reused pid at once, and one elsewhere once no longer renewed', async () => {
      const { store, sql } = await kind.open();
      const lockRow = (pid: number, host: string, at: Date) =>
        sql('INSERT OR REPLACE INTO publish_lock (id, pid, host, token, at) VALUES (1, $1, $2, $3, $4)', [
          pid,
          host,
          'someone-else',
          at.toISOString(),
        ]);
      // A publisher killed in a container, whose pid is now ours: not us, so not waited for.
      await lockRow(process.pid, hostname(), new Date());
      const onWait = vi.fn();
      expect(await store.releases.withPublishLock(async () => 'mine', onWait)).toBe('mine');
      expect(onWait).not.toHaveBeenCalled();
      expect(await sql('SELECT * FROM publish_lock')).toEqual([]);

      // A holder on another host, renewing: waited for; once its row is left unrenewed, taken over.
      await lockRow(1, 'other-host', new Date());
      const waited = vi.fn();
      const waiting = store.releases.withPublishLock(async () => 'taken over', waited);
      await waitFor(() => waited.mock.calls.length > 0, 'the publisher to wait');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await sql('SELECT host FROM publish_lock')).toEqual([{ host: 'other-host' }]);
      await sql('UPDATE publish_lock SET at = $1', [new Date(Date.now() - 31_000).toISOString()]);
      expect(await waiting).toBe('taken over');
    });

  if (kind.name === 'sqlite')
    it('never calls a live-change listener (the engine polls live()), and stops cleanly', async () => {
      const { store } = await kind.open();
      const listener = vi.fn();
      const stop = await store.releases.onLiveChange(listener);
      await store.releases.create(release());
      await store.releases.setLive(1, 0, { kind: 'publish', actor: 'cli:ann' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(listener).not.toHaveBeenCalled();
      await stop();
    });

  if (kind.name === 'postgres') {
    it('tells another instance of a change of the live release, and not after it stopped listening', async () => {
      const { store, again } = await kind.open();
      const other = await again();
      const listener = vi.fn();
      const stop = await other.releases.onLiveChange(listener);
      await store.releases.create(release());
      await store.releases.setLive(1, 0, { kind: 'publish', actor: 'cli:ann' });
      await waitFor(() => listener.mock.calls.length === 1, 'the other instance to hear it', 5000);
      // A refused change sends nothing.
      expect(await store.releases.setLive(1, 0, { kind: 'publish', actor: 'cli:ann' })).toBeUndefined();
      await stop();
      await store.releases.setLive(1, 1, { kind: 'rollback', actor: 'cli:ann' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('listens again after its connection is cut, and hears the next change', async () => {
      const { store, again, sql } = await kind.open();
      const other = await again();
      let calls = 0;
      await other.releases.onLiveChange(() => (calls += 1));
      await store.releases.create(release());
      const listenerPids = async () =>
        (
          await sql(
            `SELECT pid FROM pg_stat_activity WHERE application_name = 'release-listener' AND datname = current_database()`,
          )
        ).map((row) => Number(row.pid));
      const [cut] = await listenerPids();
      expect(cut).toBeDefined();
      await sql('SELECT pg_terminate_backend($1)', [cut]);
      // Back on a new connection: it says so once (a change may have gone unheard meanwhile).
      await waitFor(() => calls === 1, 'the listener to reconnect');
      const pids = await listenerPids();
      expect(pids).toHaveLength(1);
      expect(pids).not.toContain(cut);
      await store.releases.setLive(1, 0, { kind: 'publish', actor: 'cli:ann' });
      await waitFor(() => calls === 2, 'the change after the reconnect', 5000);
    });
  }
});

// The release store's contract (contract/release-store.ts), each test run against SQLite and a real PostgreSQL
// (tests/helpers/store-kinds.ts): what the store answers, and what its database holds.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeKinds } from '../../../tests/helpers/store-kinds.ts';
import type { NewRelease } from '../contract/release-store.ts';

const HOLDER = fileURLToPath(new URL('./publish-lock-holder.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every byte value, so that a store that treated bytes as text would be caught. */
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, n) => n));

const release = (overrides: Partial<NewRelease> = {}): NewRelease => ({
  files: [
    { path: 'index.html', bytes: Buffer.from('<h1>Welcome</h1>') },
    { path: 'index.html.br', bytes: BINARY },
    { path: 'assets/entry-1a2b.js', bytes: Buffer.from('console.log(1)') },
    { path: 'robots.txt', bytes: Buffer.alloc(0) },
  ],
  documents: [
    { path: 'site/site.json', text: '{"brand":"Harbor Café — “recovery”"}\n' },
    { path: 'pages/index.json', text: '{"title":"Home"}\n' },
  ],
  codeVersion: '1.0.0+abc1234.deadbeef',
  author: 'cli:ann',
  message: 'First release',
  ...overrides,
});

const waitFor = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A separate process that takes the publish lock of the database at `location` and holds it until killed. */
async function lockHolder(kind: string, location: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, kind, location], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`the lock holder exited: ${output}`);
      return output.includes('held');
    },
    'the lock holder to take the lock',
    20_000,
  );
  return child;
}

describe.each(storeKinds())('the $name release store', (kind) => {
  it('stores a release and gives back every file and document byte for byte', async () => {
    const { store } = await kind.open();
    const releases = store.releases;
    const input = release();
    const stored = await releases.create(input);
    expect(stored).toMatchObject({
      id: 1,
      author: 'cli:ann',
      message: 'First release',
      codeVersion: '1.0.0+abc1234.deadbeef',
    });
    expect(new Date(stored.at).toISOString()).toBe(stored.at);
    expect(stored.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await releases.get(1)).toEqual(stored);
    expect(await releases.list()).toEqual([stored]);

    const files = await releases.files(1);
    expect([...files.keys()].sort()).toEqual(input.files.map((file) => file.path).sort());
    for (const { path, bytes } of input.files) {
      expect(files.get(path)?.equals(bytes)).toBe(true);
      expect((await releases.file(1, path))?.equals(bytes)).toBe(true);
    }
    expect(await releases.file(1, 'missing.html')).toBeUndefined();
    const hashes = await releases.fileHashes(1);
    for (const { path, bytes } of input.files)
      expect(hashes.get(path)).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(hashes.size).toBe(input.files.length);
    const documents = await releases.documents(1);
    expect(documents.sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      [...input.documents].sort((a, b) => a.path.localeCompare(b.path)),
    );
    expect(await releases.documents(1, { under: 'site' })).toEqual([input.documents[0]]);
    expect(await releases.documents(1, { under: 'pages' })).toEqual([input.documents[1]]);
    expect(await releases.documents(1, { under: 'sit' })).toEqual([]);

    expect(await releases.get(2)).toBeUndefined();
    await expect(releases.files(2)).rejects.toThrow(/no release 2/);
    await expect(releases.documents(2)).rejects.toThrow(/no release 2/);
    await expect(releases.fileHashes(2)).rejects.toThrow(/no release 2/);
    expect(await releases.file(2, 'index.html')).toBeUndefined();
  });

  it('numbers releases in order, hashes equal content alike, and stores a shared file once', async () => {
    const { store, raw, again } = await kind.open();
    const first = await store.releases.create(release());
    // Another instance stores the next: the same content built again, one page changed.
    const other = await again();
    const changedPage = Buffer.from('<h1>Welcome back</h1>');
    const second = await other.releases.create(
      release({
        files: [
          ...release().files.filter((file) => file.path !== 'index.html'),
          { path: 'index.html', bytes: changedPage },
        ],
        message: 'Second',
      }),
    );
    const third = await store.releases.create(
      release({ documents: [{ path: 'pages/index.json', text: '{"title":"Home!"}\n' }], message: 'Third' }),
    );
    expect([first.id, second.id, third.id]).toEqual([1, 2, 3]);
    expect(second.contentHash).toBe(first.contentHash);
    expect(third.contentHash).not.toBe(first.contentHash);
    expect((await store.releases.list()).map((each) => each.message)).toEqual([
      'First release',
      'Second',
      'Third',
    ]);

    // Four files and two documents, then one page more, then one document more: 6 + 1 + 1 blobs, whatever is shared.
    const [count] = await raw('SELECT count(*) AS n FROM release_blobs');
    expect(Number(count?.n)).toBe(8);
    expect((await store.releases.file(2, 'index.html'))?.equals(changedPage)).toBe(true);
    expect((await store.releases.file(1, 'index.html'))?.toString()).toBe('<h1>Welcome</h1>');
  });

  it('refuses a release naming a path twice, storing nothing', async () => {
    const { store, raw } = await kind.open();
    const twice = release({
      files: [
        { path: 'index.html', bytes: Buffer.from('a') },
        { path: 'index.html', bytes: Buffer.from('b') },
      ],
    });
    await expect(store.releases.create(twice)).rejects.toThrow(/index\.html twice/);
    expect(await store.releases.list()).toEqual([]);
    expect(await raw('SELECT * FROM release_blobs')).toEqual([]);
  });

  it('stores a release whole or not at all: a failure after its bytes leaves no release, and the next one works', async () => {
    const { store, sql, raw } = await kind.open();
    // The database fails on the file list's last row, after every byte was written (a full disk, a kill).
    const failing =
      kind.name === 'sqlite'
        ? [
            `CREATE TRIGGER fail_files BEFORE INSERT ON release_files WHEN NEW.path = 'robots.txt'
             BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
          ]
        : [
            `CREATE FUNCTION fail_files() RETURNS trigger LANGUAGE plpgsql AS
             $$ BEGIN IF NEW.path = 'robots.txt' THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`,
            'CREATE TRIGGER fail_files BEFORE INSERT ON release_files FOR EACH ROW EXECUTE FUNCTION fail_files()',
          ];
    for (const statement of failing) await sql(statement);
    await expect(store.releases.create(release())).rejects.toThrow(/disk full/);
    expect(await store.releases.list()).toEqual([]);
    expect(await raw('SELECT * FROM release_files')).toEqual([]);
    expect(await raw('SELECT * FROM release_documents')).toEqual([]);
    // Its bytes stay, named by no release, and serve the next one.
    expect(await raw('SELECT hash FROM release_blobs')).toHaveLength(6);
    await sql(
      kind.name === 'sqlite' ? 'DROP TRIGGER fail_files' : 'DROP TRIGGER fail_files ON release_files',
    );
    const stored = await store.releases.create(release());
    expect(stored.id).toBe(1);
    expect((await store.releases.file(1, 'index.html.br'))?.equals(BINARY)).toBe(true);
  });

  it('moves the live pointer by compare-and-set only, and records every move', async () => {
    const { store, again } = await kind.open();
    const releases = store.releases;
    await releases.create(release());
    await releases.create(release({ message: 'Second' }));
    const publish = { kind: 'publish' as const, actor: 'cli:ann' };
    expect(await releases.live()).toBeUndefined();
    // Stale (nothing is live: generation 0), and unknown releases are refused.
    expect(await releases.setLive(1, 1, publish)).toBeUndefined();
    expect(await releases.setLive(99, 0, publish)).toBeUndefined();
    expect(await releases.live()).toBeUndefined();

    expect(await releases.setLive(1, 0, publish)).toEqual({ releaseId: 1, generation: 1 });
    expect(await releases.setLive(2, 0, publish)).toBeUndefined();
    expect(await releases.live()).toEqual({ releaseId: 1, generation: 1 });
    expect(await releases.setLive(2, 1, publish)).toEqual({ releaseId: 2, generation: 2 });

    // Two instances at once from the same generation: one wins, the other is told it moved.
    const other = await again();
    const results = await Promise.all([
      releases.setLive(1, 2, { kind: 'rollback', actor: 'cli:ann' }),
      other.releases.setLive(1, 2, { kind: 'rollback', actor: 'cli:bob' }),
    ]);
    expect(results.filter((result) => result !== undefined)).toEqual([{ releaseId: 1, generation: 3 }]);
    expect(await other.releases.live()).toEqual({ releaseId: 1, generation: 3 });

    const events = await releases.events();
    expect(events.map(({ seq: _seq, at: _at, actor: _actor, ...rest }) => rest)).toEqual([
      { kind: 'publish', releaseId: 1, previousId: null },
      { kind: 'publish', releaseId: 2, previousId: 1 },
      { kind: 'rollback', releaseId: 1, previousId: 2 },
    ]);
    expect(events.map((event) => event.seq)).toEqual(
      [...events.map((event) => event.seq)].sort((a, b) => a - b),
    );
    expect(events.every((event) => new Date(event.at).toISOString() === event.at)).toBe(true);
  });

  it('keeps every release and event after a rollback, and refuses to change or delete them in the database', async () => {
    const { store, sql, raw } = await kind.open();
    const releases = store.releases;
    await releases.create(release());
    await releases.create(release({ message: 'Second' }));
    await releases.setLive(1, 0, { kind: 'publish', actor: 'cli:ann' });
    await releases.setLive(2, 1, { kind: 'publish', actor: 'cli:ann' });
    await releases.setLive(1, 2, { kind: 'rollback', actor: 'cli:bob' });
    expect((await releases.list()).map((each) => each.id)).toEqual([1, 2]);
    expect(await releases.files(2)).toHaveProperty('size', 4);
    expect(await raw('SELECT release_id, kind, actor FROM release_events ORDER BY seq')).toEqual([
      { release_id: 1, kind: 'publish', actor: 'cli:ann' },
      { release_id: 2, kind: 'publish', actor: 'cli:ann' },
      { release_id: 1, kind: 'rollback', actor: 'cli:bob' },
    ]);
    await expect(sql('DELETE FROM release_events')).rejects.toThrow(/append-only|kept/);
    await expect(sql("UPDATE release_events SET actor = 'x'")).rejects.toThrow(/append-only|kept/);
    await expect(sql("UPDATE releases SET message = 'x' WHERE id = 2")).rejects.toThrow(/kept/);
    await expect(sql("DELETE FROM release_files WHERE path = 'index.html'")).rejects.toThrow(/kept/);
    await expect(sql('UPDATE release_blobs SET bytes = $1', [Buffer.from('x')])).rejects.toThrow(
      /never changes|kept/,
    );
  });

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

// The release store's contract (contract/release-store.ts), each test run against SQLite and a real PostgreSQL
// (tests/helpers/store-kinds.ts): what the store answers, and what its database holds. The lock, the instances'
// reports and the live-change listeners: store-contract-release-lock.test.ts.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { BINARY, release } from './release-fixtures.ts';

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

  it('keeps the clinical reviews a release was rendered with, none when it was given none', async () => {
    const { store } = await kind.open();
    const releases = store.releases;
    const reviews = {
      '/treatment/fentanyl-addiction': {
        name: 'Maya Chen',
        credential: 'MD, Addiction Medicine',
        date: '2026-11-28',
      },
    };
    await releases.create(release());
    await releases.create(release({ reviews }));
    expect(await releases.reviews(1)).toEqual({});
    expect(await releases.reviews(2)).toEqual(reviews);
    await expect(releases.reviews(3)).rejects.toThrow(/no release 3/);
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
});

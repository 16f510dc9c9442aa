// The change store, both stores: a save is compare-and-set on the document's version and every save is kept; a state
// moves only from the states named; approvals, comments and preview links are kept as given; a scheduled publish is
// claimed once (on PostgreSQL, by one of two instances), and again only after its lease ran out.
import { describe, expect, it } from 'vitest';
import { storeKinds } from '../../../tests/helpers/store-kinds.ts';

const MINUTE = 60_000;

describe.each(storeKinds())('the $name change store', (kind) => {
  it('saves by compare-and-set, keeps every save as a revision, and refuses a stale one with the copy as it is', async () => {
    const { store } = await kind.open();
    const { changes } = store;
    const now = Date.now();
    const set = await changes.create({
      id: 'c1',
      title: 'Detox',
      author: 'ed@example.com',
      baseRelease: 3,
      now,
    });
    expect(set).toMatchObject({ id: 'c1', state: 'draft', baseRelease: 3, requires: [], schedule: null });
    const path = 'pages/services/medical-detox.json';
    const first = {
      path,
      baseText: '{"a":1}',
      text: '{"a":2}',
      expectedVersion: null,
      by: 'ed@example.com',
      now,
    };
    expect(await changes.save('c1', first)).toEqual({ saved: true, version: 1 });
    // A second first save (another tab, from the live copy): refused, with who saved and when.
    expect(await changes.save('c1', { ...first, text: '{"a":3}', by: 'jo@example.com' })).toEqual({
      saved: false,
      current: {
        path,
        baseText: '{"a":1}',
        text: '{"a":2}',
        version: 1,
        updatedBy: 'ed@example.com',
        updatedAt: now,
      },
    });
    expect(
      await changes.save('c1', {
        ...first,
        baseText: 'ignored',
        text: null,
        expectedVersion: 1,
        now: now + 1,
      }),
    ).toEqual({ saved: true, version: 2 });
    expect(await changes.documents('c1')).toEqual([
      { path, baseText: '{"a":1}', text: null, version: 2, updatedBy: 'ed@example.com', updatedAt: now + 1 },
    ]);
    expect((await changes.revisions('c1')).map((r) => [r.version, r.by, r.text])).toEqual([
      [1, 'ed@example.com', '{"a":2}'],
      [2, 'ed@example.com', null],
    ]);
  });

  it('saves several documents at once, all or none: one moved version refuses them all, naming it', async () => {
    const { store } = await kind.open();
    const { changes } = store;
    const now = Date.now();
    await changes.create({ id: 'c5', title: 'Move', author: 'ed@example.com', baseRelease: 1, now });
    const save = (path: string, text: string | null, expectedVersion: number | null) => ({
      path,
      baseText: '{"live":true}',
      text,
      expectedVersion,
      by: 'ed@example.com',
      now,
    });
    expect(await changes.save('c5', save('site/redirects.json', '{"r":1}', null))).toEqual({
      saved: true,
      version: 1,
    });
    // The redirects moved to version 1 since it was read: nothing of the move is saved.
    const refused = await changes.saveAll('c5', [
      save('pages/new.json', '{"p":1}', null),
      save('pages/old.json', null, null),
      save('site/redirects.json', '{"r":2}', null),
    ]);
    expect(refused).toMatchObject({ saved: false, path: 'site/redirects.json', current: { version: 1 } });
    expect((await changes.documents('c5')).map((d) => d.path)).toEqual(['site/redirects.json']);
    expect(
      await changes.saveAll('c5', [
        save('pages/new.json', '{"p":1}', null),
        save('pages/old.json', null, null),
        save('site/redirects.json', '{"r":2}', 1),
      ]),
    ).toEqual({ saved: true, versions: [1, 1, 2] });
    expect((await changes.revisions('c5')).map((r) => [r.path, r.version, r.text])).toEqual([
      ['pages/new.json', 1, '{"p":1}'],
      ['pages/old.json', 1, null],
      ['site/redirects.json', 1, '{"r":1}'],
      ['site/redirects.json', 2, '{"r":2}'],
    ]);
    await expect(
      changes.saveAll('c5', [save('pages/a.json', '{}', null), save('pages/a.json', '{}', null)]),
    ).rejects.toThrow('each document at most once');
  });

  it('moves a state only from the states named, and keeps approvals and comments in order', async () => {
    const { store } = await kind.open();
    const { changes } = store;
    const now = Date.now();
    await changes.create({ id: 'c2', title: 'Phones', author: 'ed@example.com', baseRelease: 1, now });
    expect(await changes.setState('c2', ['in_review'], 'published', { now })).toBe(false);
    expect(
      await changes.setState('c2', ['draft'], 'in_review', { requires: ['clinical', 'other'], now }),
    ).toBe(true);
    expect(await changes.setState('c2', ['in_review'], 'published', { publishedRelease: 4, now })).toBe(true);
    expect(await changes.get('c2')).toMatchObject({
      state: 'published',
      requires: ['clinical', 'other'],
      publishedRelease: 4,
    });
    expect(await changes.setState('nope', ['draft'], 'in_review', { now })).toBe(false);
    const approval = {
      by: 'maya@example.com',
      at: now,
      contentHash: 'ab'.repeat(32),
      covers: ['clinical' as const, 'other' as const],
      name: 'Maya Chen',
      credential: 'MD',
    };
    await changes.approve('c2', approval);
    await changes.approve('c2', {
      ...approval,
      by: 'ad@example.com',
      covers: ['contact'],
      name: null,
      credential: null,
    });
    expect((await changes.approvals('c2')).map((a) => a.by)).toEqual(['maya@example.com', 'ad@example.com']);
    expect((await changes.approvals('c2'))[0]).toEqual(approval);
    await changes.comment('c2', {
      by: 'maya@example.com',
      at: now,
      path: 'p.json',
      pointer: '/title',
      text: 'Cite it',
    });
    expect(await changes.comments('c2')).toEqual([
      { by: 'maya@example.com', at: now, path: 'p.json', pointer: '/title', text: 'Cite it' },
    ]);
  });

  it('claims a due schedule once, on one instance, and again only after its lease ran out; records a failure', async () => {
    const { store, again } = await kind.open();
    const now = Date.now();
    await store.changes.create({ id: 'c3', title: 'Later', author: 'ed@example.com', baseRelease: 1, now });
    await store.changes.schedule('c3', now + MINUTE, 'pub@example.com', now);
    expect(await store.changes.claimDueSchedule(now, MINUTE)).toBeUndefined();
    const second = kind.name === 'postgres' ? await again() : store;
    const claims = await Promise.all([
      store.changes.claimDueSchedule(now + MINUTE, MINUTE),
      second.changes.claimDueSchedule(now + MINUTE, MINUTE),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(claims.find(Boolean)?.schedule).toMatchObject({ state: 'running', by: 'pub@example.com' });
    // Its instance died: once the lease is over, another takes it.
    expect(await store.changes.claimDueSchedule(now + MINUTE + 1000, MINUTE)).toBeUndefined();
    expect(await second.changes.claimDueSchedule(now + 2 * MINUTE + 1, MINUTE)).toMatchObject({ id: 'c3' });
    await store.changes.finishSchedule('c3', { error: 'the page /x links to a page that does not exist' });
    expect((await store.changes.failedSchedules()).map((set) => [set.id, set.schedule?.error])).toEqual([
      ['c3', 'the page /x links to a page that does not exist'],
    ]);
    expect(await store.changes.claimDueSchedule(now + 10 * MINUTE, MINUTE)).toBeUndefined();
  });

  it('cancels a pending or failed schedule only; a new time replaces a pending one; a running one is neither reset nor cancelled', async () => {
    const { store } = await kind.open();
    const now = Date.now();
    await store.changes.create({ id: 'c5', title: 'Cancel', author: 'ed@example.com', baseRelease: 1, now });
    expect(await store.changes.cancelSchedule('c5', now)).toEqual({ cancelled: false, state: null });
    expect(await store.changes.schedule('c5', now + MINUTE, 'pub@example.com', now)).toBe(true);
    expect(await store.changes.schedule('c5', now + 5 * MINUTE, 'pub2@example.com', now + 1)).toBe(true);
    expect((await store.changes.get('c5'))?.schedule).toEqual({
      at: now + 5 * MINUTE,
      by: 'pub2@example.com',
      state: 'pending',
      error: null,
    });
    expect(await store.changes.cancelSchedule('c5', now + 2)).toEqual({ cancelled: true });
    expect(await store.changes.get('c5')).toMatchObject({ schedule: null, updatedAt: now + 2 });
    // Cancelled: no tick runs it.
    expect(await store.changes.claimDueSchedule(now + 10 * MINUTE, MINUTE)).toBeUndefined();

    await store.changes.schedule('c5', now + MINUTE, 'pub@example.com', now + 3);
    expect(await store.changes.claimDueSchedule(now + MINUTE, MINUTE)).toMatchObject({ id: 'c5' });
    expect(await store.changes.cancelSchedule('c5', now + MINUTE)).toEqual({
      cancelled: false,
      state: 'running',
    });
    expect(await store.changes.schedule('c5', now + 9 * MINUTE, 'pub@example.com', now + MINUTE)).toBe(false);
    expect((await store.changes.get('c5'))?.schedule).toMatchObject({ at: now + MINUTE, state: 'running' });
    await store.changes.finishSchedule('c5', { error: null });
    expect(await store.changes.cancelSchedule('c5', now + MINUTE)).toEqual({
      cancelled: false,
      state: 'done',
    });
    expect((await store.changes.get('c5'))?.schedule).toMatchObject({ state: 'done' });

    // A failed one is dismissed: nothing is left waiting, and nothing runs.
    await store.changes.create({ id: 'c7', title: 'Failed', author: 'ed@example.com', baseRelease: 1, now });
    await store.changes.schedule('c7', now + MINUTE, 'pub@example.com', now);
    expect(await store.changes.claimDueSchedule(now + MINUTE, MINUTE)).toMatchObject({ id: 'c7' });
    await store.changes.finishSchedule('c7', { error: 'a link is broken' });
    expect(await store.changes.cancelSchedule('c7', now + 2 * MINUTE)).toEqual({ cancelled: true });
    expect(await store.changes.get('c7')).toMatchObject({ schedule: null });
    expect(await store.changes.claimDueSchedule(now + 10 * MINUTE, MINUTE)).toBeUndefined();
  });

  it('lists who else edits a document now, across instances; prunes heartbeats older than the window', async () => {
    const { store, again, raw } = await kind.open();
    const now = Date.now();
    await store.changes.create({
      id: 'c6',
      title: 'Presence',
      author: 'ed@example.com',
      baseRelease: 1,
      now,
    });
    // On PostgreSQL the second editor's instance is another connection pool, as another server's would be.
    const other = kind.name === 'postgres' ? await again() : store;
    const page = { changeId: 'c6', path: 'pages/index.json' };
    const beat = (on: typeof store, email: string, name: string, at: number, path = page.path) =>
      on.changes.presence({ ...page, path, email, name, at }, 30_000);
    expect(await beat(store, 'ed@example.com', 'Ed Park', now)).toEqual([]);
    expect(await beat(other, 'maya@example.com', 'Maya Chen', now + 1000)).toEqual([
      { email: 'ed@example.com', name: 'Ed Park' },
    ]);
    expect(await beat(other, 'kim@example.com', 'kim@example.com', now + 2000)).toEqual([
      { email: 'maya@example.com', name: 'Maya Chen' },
      { email: 'ed@example.com', name: 'Ed Park' },
    ]);
    // Another document of the set is apart; a heartbeat replaces the member's last one, never lists them to themselves.
    expect(await beat(store, 'maya@example.com', 'Maya Chen', now + 3000, 'site/site.json')).toEqual([]);
    expect(await beat(store, 'ed@example.com', 'Ed Park', now + 4000)).toEqual([
      { email: 'kim@example.com', name: 'kim@example.com' },
      { email: 'maya@example.com', name: 'Maya Chen' },
    ]);
    // 30 s after Maya's and Kim's last heartbeats on the page (but within Ed's), only Ed is left, and their old rows are gone.
    expect(await beat(other, 'kim@example.com', 'kim@example.com', now + 33_500)).toEqual([
      { email: 'ed@example.com', name: 'Ed Park' },
    ]);
    const rows = await raw('SELECT email, path FROM change_presence ORDER BY email, path');
    expect(rows.map((row) => `${String(row.email)} ${String(row.path)}`)).toEqual([
      'ed@example.com pages/index.json',
      'kim@example.com pages/index.json',
    ]);
  });

  it('keeps preview links by their hash, and revokes every open one of a set', async () => {
    const { store } = await kind.open();
    const now = Date.now();
    await store.changes.create({ id: 'c4', title: 'Preview', author: 'ed@example.com', baseRelease: 1, now });
    await store.changes.addPreviewLink('c4', 'h1', now + MINUTE, now);
    await store.changes.addPreviewLink('c4', 'h2', now + MINUTE, now);
    expect(await store.changes.previewLink('h1')).toEqual({
      changeId: 'c4',
      createdAt: now,
      expiresAt: now + MINUTE,
      revokedAt: null,
    });
    expect(await store.changes.revokePreviewLinks('c4', now + 1)).toBe(2);
    expect(await store.changes.previewLink('h2')).toMatchObject({ revokedAt: now + 1 });
    expect(await store.changes.revokePreviewLinks('c4', now + 2)).toBe(0);
    expect(await store.changes.previewLink('nope')).toBeUndefined();
  });
});

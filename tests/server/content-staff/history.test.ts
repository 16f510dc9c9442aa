// A page's history and the site's rollback through the content API (issue #28, item 7): after a change set is
// published, the page's history lists that release with its publisher, the set's author and its reviewer; the earlier
// version opens as visitors saw it (the stored HTML, noindex, no scripts); restoring it makes a new change set holding
// that text (a draft, reviewed like any other, nothing live changes); a publisher rolls the site back, recorded.
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryAnswer } from '../../../contracts/content-api.ts';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE, PAGE_URL, type Page, approvedChange, contentTest } from './content-client.ts';

const t = contentTest();

const HISTORY = '/content/history';

describe('history and rollback', () => {
  let editor: StaffClient;
  let reviewer: StaffClient;
  let publisher: StaffClient;
  let id: string;

  beforeAll(async () => {
    editor = await t.member('ed@example.org', ['editor']);
    reviewer = await t.member('maya@example.org', ['reviewer'], {
      name: 'Maya Chen',
      credential: 'MD',
    });
    publisher = await t.member('pub@example.org', ['publisher']);
    id = await approvedChange(editor, reviewer, 'Detox duration', '10-14 days');
    await publisher.json(await publisher.post(`${API}/${id}/publish`));
  }, 120_000);

  it('lists every release in which the page changed, with publisher, author and reviewers', async () => {
    const pages = await editor.json<HistoryAnswer>(await editor.get(HISTORY));
    expect(pages.pages).toContain(PAGE);
    const { versions } = await editor.json<HistoryAnswer>(await editor.get(`${HISTORY}?file=${PAGE}`));
    expect(versions).toHaveLength(2);
    expect(versions[0]).toMatchObject({
      release: 2,
      publishedBy: 'pub@example.org',
      exists: true,
      live: true,
      change: { id, title: 'Detox duration', author: 'ed@example.org' },
      reviewers: [{ by: 'maya@example.org', name: 'Maya Chen', credential: 'MD' }],
    });
    expect(versions[1]).toMatchObject({ release: 1, live: false, change: null, reviewers: [] });
  });

  it('opens an earlier version as visitors saw it: its stored HTML, noindex, no scripts, audited', async () => {
    const response = await editor.get(`${HISTORY}/1/view?file=${PAGE}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const html = await response.text();
    expect(html).toContain('7-14 days');
    expect(html).not.toContain('10-14 days');
    expect(html).toContain('Release 1 as visitors saw it');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).not.toMatch(/<script\b/i);
    const acts = (await t.server.store.audit.page({ limit: 50 })).rows.map(
      (row) => `${row.actor} ${row.action}`,
    );
    expect(acts).toContain('ed@example.org release-view');
  });

  it('restores a version as a new change set, a draft: nothing live changes', async () => {
    expect((await publisher.post(`${HISTORY}/1/restore`, { file: PAGE })).status).toBe(403);
    const restored = await editor.json<{ id: string }>(
      await editor.post(`${HISTORY}/1/restore`, { file: PAGE }),
      201,
    );
    const view = await editor.json<{ state: string; title: string; requires: string[] }>(
      await editor.get(`${API}/${restored.id}`),
    );
    expect(view).toMatchObject({
      state: 'draft',
      title: `Restore ${PAGE} to release 1`,
      requires: ['clinical'],
    });
    const copy = await editor.json<{ document: Page }>(
      await editor.get(`${API}/${restored.id}/documents?file=${PAGE}`),
    );
    expect(JSON.stringify(copy.document)).toContain('7-14 days');
    expect(await (await fetch(`${t.server.url}${PAGE_URL}`)).text()).toContain('10-14 days');
    // The live version restores nothing.
    expect((await editor.post(`${HISTORY}/2/restore`, { file: PAGE })).status).toBe(409);
  });

  it('rolls the site back for a publisher only, recorded', async () => {
    expect((await editor.post('/content/releases/1/rollback')).status).toBe(403);
    await publisher.json(await publisher.post('/content/releases/1/rollback'));
    await expect
      .poll(async () => (await fetch(`${t.server.url}${PAGE_URL}`)).text(), { timeout: 10_000 })
      .toContain('7-14 days');
    const acts = (await t.server.store.audit.page({ limit: 80 })).rows.map(
      (row) => `${row.actor} ${row.action}`,
    );
    expect(acts).toContain('pub@example.org rollback');
  });
});

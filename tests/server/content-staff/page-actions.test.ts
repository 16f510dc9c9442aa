// The page actions of the editor online, through the content API into a change set (issue #28, "Missing actions"):
// a page deleted with a redirect is two revisions of the set (the page deleted, the redirects document), shown to
// review in words, published by the release engine: the old address then answers the redirect and the page is gone.
// A set whose deletion leaves links elsewhere leading nowhere is refused at publish, saying which, and the live site
// stays as it was. A page moved and one added to a menu land in the set too, never on the live site.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChangeView, DocumentDiff } from '../../../contracts/content-api.ts';
import { waitFor } from '../../helpers/fixtures.ts';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, contentTest } from './content-client.ts';

const GONE = 'pages/treatment/benzodiazepine-withdrawal.json';
const GONE_URL = '/treatment/benzodiazepine-withdrawal';
const TARGET = '/treatment/benzodiazepine-addiction';
/** Linked from the home page and the header menu: deleting it without a redirect breaks those links. */
const LINKED = 'pages/treatment/klonopin-addiction.json';
const LINKED_URL = '/treatment/klonopin-addiction';
const REDIRECTS = 'site/redirects.json';

const t = contentTest();
const member = t.member;
const noRedirect = { redirect: 'manual' } as const;

describe('page actions in a change set', () => {
  let editor: StaffClient;
  let reviewer: StaffClient;
  let admin: StaffClient;
  let publisher: StaffClient;

  beforeAll(async () => {
    editor = await member('ed@example.org', ['editor']);
    reviewer = await member('maya@example.org', ['reviewer'], { name: 'Maya Chen', credential: 'MD' });
    admin = await member('ada@example.org', ['admin']);
    publisher = await member('pub@example.org', ['publisher']);
  }, 30_000);

  const versionOf = async (id: string, file: string) =>
    (
      await editor.json<{ version: string }>(
        await editor.get(`${API}/${id}/documents?file=${encodeURIComponent(file)}`),
      )
    ).version;
  const act = (id: string, body: Record<string, unknown>) => editor.post(`${API}/${id}/page-actions`, body);
  /** Submitted, approved by the clinical reviewer and the admin (a page holds clinical and contact claims). */
  const approve = async (id: string) => {
    await editor.json(await editor.post(`${API}/${id}/submit`));
    for (const client of [reviewer, admin]) {
      await client.reauthenticate();
      await client.json(await client.post(`${API}/${id}/approve`));
    }
    await publisher.reauthenticate();
  };

  it('deletes a page with a redirect into the set, as two revisions, never the live site', async () => {
    const { id } = await editor.json<{ id: string }>(await editor.post(API, { title: 'Retire a page' }), 201);
    const base = await versionOf(id, GONE);
    // A stale version is refused, as a save is.
    const stale = await act(id, { action: 'delete', file: GONE, baseVersion: 'live.0', redirectTo: TARGET });
    expect(stale.status).toBe(409);
    expect(
      await editor.json(
        await act(id, { action: 'delete', file: GONE, baseVersion: base, redirectTo: TARGET }),
      ),
    ).toEqual({
      deleted: GONE_URL,
      redirectTo: TARGET,
    });
    const view = await editor.json<ChangeView>(await editor.get(`${API}/${id}`));
    expect(view.documents.map(({ path, deleted, summary }) => ({ path, deleted, summary }))).toEqual([
      { path: GONE, deleted: true, summary: `Deleted, redirected to ${TARGET}` },
      { path: REDIRECTS, deleted: false, summary: null },
    ]);
    // The redirect is a field of the redirects document, for review; the deleted page is one line, no fields.
    const diff = await editor.json<{ documents: DocumentDiff[] }>(await editor.get(`${API}/${id}/diff`));
    const page = diff.documents.find((d) => d.path === GONE);
    expect(page).toMatchObject({ summary: `Deleted, redirected to ${TARGET}`, changes: [] });
    const rule = diff.documents.find((d) => d.path === REDIRECTS)?.changes;
    expect(rule?.map((c) => c.after).join('\n')).toContain(TARGET);
    // The live site still serves it.
    expect((await fetch(`${t.server.url}${GONE_URL}`, noRedirect)).status).toBe(200);

    await approve(id);
    const published = await publisher.post(`${API}/${id}/publish`);
    expect(published.status).toBe(200);
    await waitFor(async () => (await fetch(`${t.server.url}${GONE_URL}`, noRedirect)).status === 301, 10_000);
    const answer = await fetch(`${t.server.url}${GONE_URL}`, noRedirect);
    expect(answer.headers.get('location')).toBe(TARGET);
    // The page itself is gone from the release: its data file is not served.
    const data = await fetch(`${t.server.url}/_data/pages${GONE_URL}.json`, noRedirect);
    expect(data.status).toBe(404);
  }, 120_000);

  it('refuses to submit a deletion that leaves links leading nowhere, saying which; the live site is unchanged', async () => {
    const { id } = await editor.json<{ id: string }>(await editor.post(API, { title: 'Drop a page' }), 201);
    const base = await versionOf(id, LINKED);
    expect((await act(id, { action: 'delete', file: LINKED, baseVersion: base })).status).toBe(200);
    const view = await editor.json<ChangeView>(await editor.get(`${API}/${id}`));
    expect(view.documents[0]?.summary).toBe(`Deleted; ${LINKED_URL} is not redirected, and leads nowhere`);
    // It could not publish, so it never reaches a reviewer: the whole site with it fails the build's checks.
    const refused = await editor.post(`${API}/${id}/submit`);
    expect(refused.status).toBe(409);
    const why = ((await refused.json()) as { error: string }).error;
    expect(why).toMatch(/^it would not publish: \d+ problems on the site with it: /);
    expect(why).toContain(LINKED_URL);
    expect(why).toMatch(/pages\/index\.json|site\/site\.json/);
    expect((await fetch(`${t.server.url}${LINKED_URL}`, noRedirect)).status).toBe(200);
    expect((await editor.json<ChangeView>(await editor.get(`${API}/${id}`))).state).toBe('draft');
  }, 120_000);

  it('moves a page and adds it to a menu, into the set', async () => {
    const { id } = await editor.json<{ id: string }>(await editor.post(API, { title: 'Move and list' }), 201);
    const moved = await editor.json<{ file: string; version: string }>(
      await act(id, {
        action: 'move',
        file: LINKED,
        path: '/treatment/klonopin',
        baseVersion: await versionOf(id, LINKED),
        redirect: true,
      }),
    );
    expect(moved).toMatchObject({ file: 'pages/treatment/klonopin.json', version: 'c1' });
    const menus = await editor.json<{ menus: { pointer: string; title: string; paths: string[] }[] }>(
      await editor.get(`${API}/${id}/menus`),
    );
    const footer = menus.menus.find((m) => m.title.startsWith('Footer'));
    expect(footer).toBeDefined();
    expect(
      await editor.json(
        await act(id, {
          action: 'menu',
          pointer: footer?.pointer,
          path: '/treatment/klonopin',
          label: 'Klonopin',
        }),
      ),
    ).toEqual({ menu: footer?.title });
    const view = await editor.json<ChangeView>(await editor.get(`${API}/${id}`));
    expect(Object.fromEntries(view.documents.map((d) => [d.path, d.summary]))).toEqual({
      [LINKED]: `Moved to /treatment/klonopin; ${LINKED_URL} redirects to /treatment/klonopin`,
      'pages/treatment/klonopin.json': `Moved here from ${LINKED_URL}, unchanged`,
      [REDIRECTS]: null,
      'site/site.json': null,
    });
    // The same menu item twice is refused, with why.
    const twice = await act(id, {
      action: 'menu',
      pointer: footer?.pointer,
      path: '/treatment/klonopin',
      label: 'K',
    });
    expect(twice.status).toBe(409);
    expect((await fetch(`${t.server.url}/treatment/klonopin`, noRedirect)).status).toBe(404);
  }, 60_000);
});

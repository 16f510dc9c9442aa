// Preview links: made by staff (at most 7 days), opened without an account, they show the change set's current content
// rendered by the real renderer, with noindex and the banner "Preview: not published", every view audited; after
// expiry, or once revoked, the link shows only that it no longer works.
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, contentTest, setDuration } from './content-client.ts';

const HOUR = 3600_000;
const t = contentTest();
let editor: StaffClient;
let id: string;

beforeAll(async () => {
  editor = await t.member('ed@example.org', ['editor']);
  ({ id } = await editor.json<{ id: string }>(await editor.post(API, { title: 'Preview me' }), 201));
  await setDuration(editor, id, '8-13 days');
}, 60_000);

const link = async (hours: number) =>
  (await editor.json<{ url: string }>(await editor.post(`${API}/${id}/preview-links`, { hours }), 201)).url;

describe('preview links', () => {
  it('are made for at most 7 days, by editorial staff only', async () => {
    expect((await editor.post(`${API}/${id}/preview-links`, { hours: 7 * 24 + 1 })).status).toBe(400);
    const desk = await t.member('desk@example.org', ['admissions']);
    expect((await desk.post(`${API}/${id}/preview-links`, { hours: 1 })).status).toBe(403);
  });

  it("show the set's current content, noindex, with the banner, to anyone with the link; each view audited", async () => {
    const url = await link(24);
    expect(url).toMatch(new RegExp(`^${t.server.url}/staff/preview/[\\w-]{43}$`));
    const opened = await fetch(url);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await opened.text();
    expect(html).toContain('Preview: not published');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('8-13 days');
    expect(html).toContain('Fentanyl Addiction Treatment in California');
    expect(html).not.toMatch(/<script/i);
    // The current revision: a later edit shows in the same link.
    await setDuration(editor, id, '8-12 days');
    expect(await (await fetch(url)).text()).toContain('8-12 days');
    const views = (await t.server.store.audit.page({ limit: 100 })).rows.filter(
      (row) => row.action === 'preview-view',
    );
    expect(views).toHaveLength(2);
    expect(views[0]).toMatchObject({ detail: `${id} /treatment/fentanyl-addiction` });
    expect(views[0]?.actor).toMatch(/^preview:[0-9a-f]{12}$/);
  }, 120_000);

  it('stop working after they expire, and when revoked', async () => {
    const url = await link(1);
    t.clock += HOUR + 1000;
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This preview link no longer works');
    // An hour idle signed the editor out too.
    expect((await editor.signIn()).status).toBe(200);
    const fresh = await link(2);
    expect(await editor.json(await editor.request('DELETE', `${API}/${id}/preview-links`))).toEqual({
      revoked: 2,
    });
    expect((await fetch(fresh)).status).toBe(410);
    expect((await fetch(`${t.server.url}/staff/preview/${'x'.repeat(43)}`)).status).toBe(404);
  });
});

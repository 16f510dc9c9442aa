// Review through the content API (issue #28, item 4): a change set's field-by-field diff in the content model's words
// (not JSON pointers), with each field's claim kind and its value before and after; the page rendered before and after
// (framable by the staff app alone, which shows them in place); and "request changes", which sends a set in review
// back to its editors with the reviewer's reason as a comment, audited, and is refused to an editor.
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE, contentTest, setDuration } from './content-client.ts';

const t = contentTest();

describe('reviewing a change set', () => {
  let editor: StaffClient;
  let reviewer: StaffClient;
  let id: string;

  beforeAll(async () => {
    editor = await t.member('ed@example.org', ['editor']);
    reviewer = await t.member('maya@example.org', ['reviewer'], {
      name: 'Maya Chen',
      credential: 'MD',
    });
    ({ id } = await editor.json<{ id: string }>(await editor.post(API, { title: 'Detox duration' }), 201));
    await setDuration(editor, id, '10-14 days');
  }, 30_000);

  it('gives the diff field by field, in words, with the claim kind and both values', async () => {
    const diff = await reviewer.json<{
      documents: { path: string; changes: Record<string, unknown>[] }[];
    }>(await reviewer.get(`${API}/${id}/diff`));
    expect(diff.documents).toHaveLength(1);
    expect(diff.documents[0]?.path).toBe(PAGE);
    expect(diff.documents[0]?.changes).toEqual([
      {
        pointer: '/blocks/4/items/0/duration',
        field: 'Timeline (block 5) › Items, item 1 › Duration',
        change: 'changed',
        kinds: ['clinical'],
        before: '7-14 days',
        after: '10-14 days',
      },
    ]);
  });

  it('renders the page before (as live) and after (with the set), noindex and without scripts', async () => {
    const before = await reviewer.get(`${API}/${id}/render?file=${PAGE}&side=before`);
    expect(before.status).toBe(200);
    expect(before.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const beforeHtml = await before.text();
    expect(beforeHtml).toContain('Before: /treatment/fentanyl-addiction as visitors see it now');
    expect(beforeHtml).toContain('7-14 days');
    expect(beforeHtml).not.toContain('10-14 days');
    const after = await (await reviewer.get(`${API}/${id}/render?file=${PAGE}&side=after`)).text();
    expect(after).toContain('After: /treatment/fentanyl-addiction with this change set (not published)');
    expect(after).toContain('10-14 days');
    for (const html of [beforeHtml, after])
      expect(html).not.toMatch(/<script\b(?![^>]*application\/ld\+json)/i);
    // Framed in place by the change set page, of this origin alone: the staff app may frame its own pages, no other
    // site may frame these, and every other staff page stays unframable.
    expect(before.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(before.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const shell = await fetch(`${t.server.url}/staff/changes/${id}`);
    expect(shell.headers.get('content-security-policy')).toMatch(/;frame-src 'self'$/);
    expect(shell.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(shell.headers.get('x-frame-options')).toBe('DENY');
    const other = await reviewer.get(`${API}/${id}`);
    expect(other.headers.get('x-frame-options')).toBe('DENY');
  }, 60_000);

  it('sends a set in review back to its editors with the reason, audited; refused to an editor', async () => {
    await editor.json(await editor.post(`${API}/${id}/submit`));
    expect((await editor.post(`${API}/${id}/request-changes`, { text: 'Cite the source.' })).status).toBe(
      403,
    );
    expect((await reviewer.post(`${API}/${id}/request-changes`, { text: '' })).status).toBe(400);
    expect(
      await reviewer.json(await reviewer.post(`${API}/${id}/request-changes`, { text: 'Cite the source.' })),
    ).toEqual({ state: 'draft' });
    const view = await editor.json<{ state: string; comments: { by: string; text: string }[] }>(
      await editor.get(`${API}/${id}`),
    );
    expect(view.state).toBe('draft');
    expect(view.comments).toMatchObject([{ by: 'maya@example.org', text: 'Cite the source.' }]);
    // Only a set in review is sent back.
    expect((await reviewer.post(`${API}/${id}/request-changes`, { text: 'Again' })).status).toBe(409);
    const acts = (await t.server.store.audit.page({ limit: 50 })).rows.map(
      (row) => `${row.actor} ${row.action}`,
    );
    expect(acts).toContain('maya@example.org change-request-changes');
    // Submitted again, it is in review again.
    expect(await editor.json(await editor.post(`${API}/${id}/submit`))).toMatchObject({ state: 'in_review' });
  });
});

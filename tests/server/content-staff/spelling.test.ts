// Spelling in the staff area's editor and at publish, through the content API: a misspelled word saved in a change set
// shows in the editor's checks at its field, in the local studio's words (British spelling; not in the dictionary,
// with a suggestion), and in the set's list the editor shows before submit; the set's publish is refused (409) with
// each word and where, the live page unchanged; corrected and approved again, it publishes.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublishRefused, SetSpelling } from '../../../contracts/content-api.ts';
import { waitFor } from '../../helpers/fixtures.ts';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE, PAGE_URL, contentTest, put, type Page } from './content-client.ts';

const t = contentTest();

/** The fentanyl page with the hero's heading set to `heading`. */
const withHeading = (page: Page, heading: string): Page => {
  const copy = structuredClone(page);
  (copy.blocks[0] as { heading: string }).heading = heading;
  return copy;
};
const MISSPELLED = 'Fentanyl Addiction Treatment at our California Centre, Recieved Without Judgment';
const CORRECTED = 'Fentanyl Addiction Treatment at our California Center, Received Without Judgment';

describe('spelling in the online editor and at publish', () => {
  let editor: StaffClient;
  let reviewer: StaffClient;
  let publisher: StaffClient;
  let id: string;

  const copy = async () =>
    editor.json<{ document: Page; version: string }>(await editor.get(`${API}/${id}/documents?file=${PAGE}`));

  beforeAll(async () => {
    editor = await t.member('ed@example.org', ['editor']);
    reviewer = await t.member('maya@example.org', ['reviewer'], { name: 'Maya Chen', credential: 'MD' });
    publisher = await t.member('pub@example.org', ['publisher']);
    ({ id } = await editor.json<{ id: string }>(await editor.post(API, { title: 'Hero heading' }), 201));
  }, 30_000);

  it("shows a saved draft's misspellings in the editor's checks at the field, and lists them before submit", async () => {
    const { document, version } = await copy();
    const draft = withHeading(document, MISSPELLED);
    // Saved: spelling fails `npm run check`, not the validator, so it never loses a draft.
    await editor.json(await put(editor, id, draft, version));
    const { errors } = await editor.json<{
      errors: { check?: string; pointer: string; message: string; fix?: unknown }[];
    }>(await editor.post(`${API}/${id}/checks`, { file: PAGE, document: draft }));
    const spelling = errors.filter((error) => error.check === 'spelling');
    expect(spelling).toEqual([
      {
        code: 'misspelling',
        check: 'spelling',
        pointer: '/blocks/0/heading',
        word: 'Centre',
        message: '“Centre” is British spelling; the site is written in American English: “center”',
        suggestion: MISSPELLED.replace('Centre', 'center'),
        fix: { kind: 'replace', pointer: '/blocks/0/heading', value: MISSPELLED.replace('Centre', 'center') },
      },
      expect.objectContaining({
        pointer: '/blocks/0/heading',
        word: 'Recieved',
        message: expect.stringMatching(/^“Recieved” is not in the dictionary; did you mean “\w+”\?/),
      }),
    ]);
    const listed = await editor.json<SetSpelling>(await editor.get(`${API}/${id}/spelling`));
    expect(listed.misspellings.map(({ path, pointer, word }) => ({ path, pointer, word }))).toEqual([
      { path: PAGE, pointer: '/blocks/0/heading', word: 'Centre' },
      { path: PAGE, pointer: '/blocks/0/heading', word: 'Recieved' },
    ]);
  }, 60_000);

  it('refuses to publish the set (409) with each word and where; the live page is unchanged', async () => {
    await editor.json(await editor.post(`${API}/${id}/submit`));
    await reviewer.reauthenticate();
    await reviewer.json(await reviewer.post(`${API}/${id}/approve`));
    await publisher.reauthenticate();
    const refused = await publisher.post(`${API}/${id}/publish`);
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as PublishRefused;
    expect(body.error).toContain(`“Centre” in ${PAGE} at /blocks/0/heading`);
    expect(body.error).toContain(`“Recieved” in ${PAGE} at /blocks/0/heading`);
    expect(body.misspellings?.map(({ word }) => word)).toEqual(['Centre', 'Recieved']);
    const page = await fetch(`${t.server.url}${PAGE_URL}`).then((r) => r.text());
    expect(page).toContain('Fentanyl Addiction Treatment in California');
    expect(page).not.toContain('Recieved');
    const failed = (await t.server.store.audit.page({ limit: 50 })).rows.find(
      (row) => row.action === 'change-publish-failed',
    );
    expect(failed?.detail).toContain('misspelled');
  }, 60_000);

  it('publishes once the words are corrected and approved again', async () => {
    const { document, version } = await copy();
    await editor.json(await put(editor, id, withHeading(document, CORRECTED), version));
    expect((await editor.json<SetSpelling>(await editor.get(`${API}/${id}/spelling`))).misspellings).toEqual(
      [],
    );
    await reviewer.json(await reviewer.post(`${API}/${id}/approve`));
    expect(await publisher.json(await publisher.post(`${API}/${id}/publish`))).toMatchObject({
      release: '2',
    });
    await waitFor(
      async () => (await fetch(`${t.server.url}${PAGE_URL}`).then((r) => r.text())).includes(CORRECTED),
      10_000,
    );
  }, 120_000);
});

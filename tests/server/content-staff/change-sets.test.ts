// The content API (issue #28's interface) against the real app serving the live release, as `npm start` does: a change
// set made, its document read and saved (200, a stale save 409 with who and when, an invalid one 422 with the
// validator's words), submitted (what it requires), approved (403 for whoever edited it, 403 without the credential a
// clinical change needs, 401 when the passkey check is older than 5 minutes, then 200), an edit that makes the approval
// stale, a publish refused (409, what is missing) then made (200): the public page serves the change without a restart.
// Two change sets on one field: the second is stopped with the field's pointer. Admissions staff never reach it.
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/fixtures.ts';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE, type Page, contentTest, put, withDuration } from './content-client.ts';

const MINUTE = 60_000;

const t = contentTest();

const member = t.member;

describe('change sets through the content API', () => {
  let editor: StaffClient;
  let reviewer: StaffClient;
  let uncredentialed: StaffClient;
  let publisher: StaffClient;
  let id: string;
  let live: { document: Page; version: string };

  beforeAll(async () => {
    // The editor also reviews, with a credential: only four eyes keep them from approving their own change.
    editor = await member('ed@example.org', ['editor', 'reviewer'], { name: 'Ed Park', credential: 'RN' });
    reviewer = await member('maya@example.org', ['reviewer'], {
      name: 'Maya Chen',
      credential: 'MD, Addiction Medicine',
    });
    uncredentialed = await member('rev@example.org', ['reviewer']);
    publisher = await member('pub@example.org', ['publisher']);
  }, 30_000);

  it('refuses admissions staff (403), and makes a change set for an editor (201)', async () => {
    const admissions = await member('desk@example.org', ['admissions']);
    expect((await admissions.post(API, { title: 'Nope' })).status).toBe(403);
    expect((await admissions.get(API)).status).toBe(403);
    expect((await publisher.post(API, { title: 'Not an editor' })).status).toBe(403);
    ({ id } = await editor.json<{ id: string }>(
      await editor.post(API, { title: 'Fentanyl detox duration' }),
      201,
    ));
    expect(id).toMatch(/^[\w-]{8,}$/);
  });

  it('reads the live document, saves a change (200), refuses a stale save (409) and an invalid one (422)', async () => {
    live = await editor.json(await editor.get(`${API}/${id}/documents?file=${PAGE}`));
    expect((live.document.blocks[4] as { items: { duration: string }[] }).items[0]?.duration).toBe(
      '7-14 days',
    );
    const saved = await editor.json<{ version: string }>(
      await put(editor, id, withDuration(live.document, '10-14 days'), live.version),
    );
    expect(saved.version).not.toBe(live.version);
    // Another tab still on the live copy: refused, saying who saved and when.
    const stale = await put(editor, id, withDuration(live.document, '5 days'), live.version);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ changedBy: 'ed@example.org', version: saved.version });
    // The validator's own words, at the field.
    const broken = structuredClone(live.document);
    (broken.blocks[0] as { heading: string }).heading = '';
    const invalid = await put(editor, id, broken, saved.version);
    expect(invalid.status).toBe(422);
    const { errors } = (await invalid.json()) as { errors: { pointer: string; message: string }[] };
    expect(errors).toContainEqual(expect.objectContaining({ pointer: '/blocks/0/heading' }));
    expect(errors.every((error) => typeof error.message === 'string' && error.message.length > 0)).toBe(true);
    expect(await editor.json(await editor.get(`${API}/${id}/documents?file=${PAGE}`))).toEqual({
      document: withDuration(live.document, '10-14 days'),
      version: saved.version,
    });
  });

  it('submits for review: a detox duration requires a clinical review; publish refuses it unapproved (409)', async () => {
    expect(await editor.json(await editor.post(`${API}/${id}/submit`))).toEqual({
      state: 'in_review',
      requires: ['clinical'],
    });
    const refused = await publisher.post(`${API}/${id}/publish`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ missing: ['clinical'] });
  });

  it('refuses the approval of its editor and of a reviewer without a credential (403), asks a stale passkey (401)', async () => {
    const own = await editor.post(`${API}/${id}/approve`);
    expect(own.status).toBe(403);
    expect(((await own.json()) as { error: string }).error).toContain('four eyes');
    const plain = await uncredentialed.post(`${API}/${id}/approve`);
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { error: string }).error).toContain('clinical credential');
    t.clock += 6 * MINUTE;
    expect((await reviewer.post(`${API}/${id}/approve`)).status).toBe(401);
    expect((await reviewer.reauthenticate()).status).toBe(204);
    expect(await reviewer.json(await reviewer.post(`${API}/${id}/approve`))).toMatchObject({
      covers: ['clinical'],
      missing: [],
    });
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({
      state: 'in_review',
      requires: ['clinical'],
      approvals: [{ by: 'maya@example.org', stale: false }],
    });
  });

  it('makes the approval stale at the next edit, and publish refuses until it is given again', async () => {
    const copy = await editor.json<{ document: Page; version: string }>(
      await editor.get(`${API}/${id}/documents?file=${PAGE}`),
    );
    await editor.json(await put(editor, id, withDuration(copy.document, '10-21 days'), copy.version));
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({
      approvals: [{ by: 'maya@example.org', stale: true }],
      missing: ['clinical'],
    });
    expect((await publisher.reauthenticate()).status).toBe(204);
    const refused = await publisher.post(`${API}/${id}/publish`);
    expect([refused.status, await refused.json()]).toMatchObject([409, { missing: ['clinical'] }]);
    await reviewer.json(await reviewer.post(`${API}/${id}/approve`));
  });

  it('publishes (200): the public page serves the change and its review line without a restart, live on 1 of 1', async () => {
    const before = await fetch(`${t.server.url}/treatment/fentanyl-addiction`).then((r) => r.text());
    expect(before).not.toContain('10-21 days');
    expect(before).not.toContain('Medically reviewed by');
    const published = await publisher.json<{ release: string }>(await publisher.post(`${API}/${id}/publish`));
    expect(published.release).toBe('2');
    await waitFor(
      async () =>
        (await fetch(`${t.server.url}/treatment/fentanyl-addiction`).then((r) => r.text())).includes(
          '10-21 days',
        ),
      10_000,
    );
    // The review line and its structured data, from the approval alone.
    const html = await fetch(`${t.server.url}/treatment/fentanyl-addiction`).then((r) => r.text());
    expect(html).toMatch(
      /Medically reviewed by Maya Chen, MD, Addiction Medicine on <time dateTime="\d{4}-\d{2}-\d{2}">/,
    );
    expect(html).toMatch(
      /"reviewedBy":\{"@type":"Person","name":"Maya Chen".*"lastReviewed":"\d{4}-\d{2}-\d{2}"/,
    );
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({
      state: 'published',
      release: '2',
      live: { on: 1, of: 1 },
    });
    const acts = (await t.server.store.audit.page({ limit: 200 })).rows
      .filter((row) => row.action.startsWith('change-'))
      .map((row) => `${row.actor} ${row.action}`)
      .reverse();
    expect(acts).toEqual([
      'ed@example.org change-create',
      'ed@example.org change-edit',
      'ed@example.org change-submit',
      'maya@example.org change-approve',
      'ed@example.org change-edit',
      'maya@example.org change-approve',
      'pub@example.org change-publish',
    ]);
  }, 60_000);

  it('needs an admin for a contact change, lists change sets, and keeps comments', async () => {
    const admin = await member('ad@example.org', ['admin']);
    const made = await editor.json<{ id: string }>(await editor.post(API, { title: 'Call label' }), 201);
    const copy = await editor.json<{ document: Page; version: string }>(
      await editor.get(`${API}/${made.id}/documents?file=${PAGE}`),
    );
    const page = structuredClone(copy.document);
    (page.blocks[0] as { callLabel: string }).callLabel = 'Call us now: {phone}';
    await editor.json(await put(editor, made.id, page, copy.version));
    expect(await editor.json(await editor.post(`${API}/${made.id}/submit`))).toMatchObject({
      requires: ['contact'],
    });
    expect((await reviewer.reauthenticate()).status).toBe(204);
    const refused = await reviewer.post(`${API}/${made.id}/approve`);
    expect([refused.status, await refused.json()]).toEqual([
      403,
      { error: 'this change needs an admin to approve it' },
    ]);
    expect(await admin.json(await admin.post(`${API}/${made.id}/approve`))).toMatchObject({
      covers: ['contact'],
      missing: [],
    });
    expect(
      (
        await reviewer.post(`${API}/${made.id}/comments`, {
          text: 'Fine by me',
          file: PAGE,
          pointer: '/blocks/0/callLabel',
        })
      ).status,
    ).toBe(201);
    expect(await editor.json(await editor.get(`${API}/${made.id}`))).toMatchObject({
      comments: [{ by: 'maya@example.org', path: PAGE, pointer: '/blocks/0/callLabel', text: 'Fine by me' }],
      approvals: [{ by: 'ad@example.org', stale: false, covers: ['contact'] }],
      // Named as staff call it: the page's title.
      documents: [{ path: PAGE, title: 'Fentanyl Addiction Rehab in California | Coastline Recovery' }],
    });
    const { changes } = await editor.json<{ changes: { id: string; title: string; state: string }[] }>(
      await editor.get(API),
    );
    expect(changes).toContainEqual(
      expect.objectContaining({ id: made.id, title: 'Call label', state: 'in_review' }),
    );
  });

  it('stops the second of two change sets that changed the same field, naming it; the live site keeps the first', async () => {
    const start = async (title: string, duration: string) => {
      const made = await editor.json<{ id: string }>(await editor.post(API, { title }), 201);
      const copy = await editor.json<{ document: Page; version: string }>(
        await editor.get(`${API}/${made.id}/documents?file=${PAGE}`),
      );
      await editor.json(await put(editor, made.id, withDuration(copy.document, duration), copy.version));
      await editor.json(await editor.post(`${API}/${made.id}/submit`));
      await reviewer.json(await reviewer.post(`${API}/${made.id}/approve`));
      return made.id;
    };
    const first = await start('Three weeks', '14-21 days');
    const second = await start('Four weeks', '21-28 days');
    await publisher.json(await publisher.post(`${API}/${first}/publish`));
    const stopped = await publisher.post(`${API}/${second}/publish`);
    expect(stopped.status).toBe(409);
    expect(await stopped.json()).toMatchObject({
      conflicts: [{ path: PAGE, pointer: '/blocks/4/items/0/duration' }],
    });
    await waitFor(
      async () =>
        (await fetch(`${t.server.url}/treatment/fentanyl-addiction`).then((r) => r.text())).includes(
          '14-21 days',
        ),
      10_000,
    );
    expect(await editor.json(await editor.get(`${API}/${second}`))).toMatchObject({ state: 'in_review' });
  }, 90_000);
});

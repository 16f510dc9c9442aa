// The content API's two routes for the staff area's editor: the document list as the change set makes the site (the
// live release with the set's copies over it, titled as the studio titles them), and the presence heartbeat (who else
// saved a heartbeat on this document of this set in the last 30 s, never oneself; another document or set is apart).
import { beforeAll, describe, expect, it } from 'vitest';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE, contentTest, setDuration } from './content-client.ts';

type Files = { files: { file: string; kind: string; path?: string; title: string }[] };
type Editing = { editing: { email: string; name: string }[] };

const t = contentTest();

describe("the staff area editor's routes", () => {
  let ed: StaffClient;
  let maya: StaffClient;
  let desk: StaffClient;
  let id: string;

  beforeAll(async () => {
    ed = await t.member('ed@example.org', ['editor'], { name: 'Ed Park' });
    maya = await t.member('maya@example.org', ['editor', 'reviewer'], { name: 'Maya Chen' });
    desk = await t.member('desk@example.org', ['admissions']);
    ({ id } = await ed.json<{ id: string }>(await ed.post(API, { title: 'Editor routes' }), 201));
  }, 30_000);

  it("lists the set's documents, pages first with their titles, and a page the set creates", async () => {
    const before = await ed.json<Files>(await ed.get(`${API}/${id}/files`));
    const fentanyl = before.files.find((f) => f.file === PAGE);
    expect(fentanyl).toMatchObject({ kind: 'page', path: '/treatment/fentanyl-addiction' });
    expect(fentanyl?.title).toMatch(/fentanyl/i);
    expect(before.files.find((f) => f.file === 'site/site.json')?.title).toBe(
      'Site: header, footer and phone lines',
    );
    const kinds = before.files.map((f) => f.kind);
    expect(kinds.lastIndexOf('page')).toBeLessThan(kinds.findIndex((k) => k !== 'page'));
    // A saved copy in the set is what the list titles.
    await setDuration(ed, id, '10-14 days');
    const copy = await ed.json<{ document: Record<string, unknown>; version: string }>(
      await ed.get(`${API}/${id}/documents?file=${PAGE}`),
    );
    const renamed = { ...copy.document, title: 'Fentanyl addiction treatment, renamed in the set' };
    await ed.json(
      await ed.request('PUT', `${API}/${id}/documents?file=${PAGE}`, {
        document: renamed,
        baseVersion: copy.version,
      }),
    );
    const after = await ed.json<Files>(await ed.get(`${API}/${id}/files`));
    expect(after.files.find((f) => f.file === PAGE)?.title).toBe(
      'Fentanyl addiction treatment, renamed in the set',
    );
  });

  it('answers who else edits this document now, for 30 s, never oneself', async () => {
    const beat = async (client: StaffClient, file = PAGE, set = id) =>
      client.json<Editing>(await client.post(`${API}/${set}/presence?file=${encodeURIComponent(file)}`));
    expect((await beat(ed)).editing).toEqual([]);
    expect((await beat(maya)).editing).toEqual([{ email: 'ed@example.org', name: 'Ed Park' }]);
    expect((await beat(ed)).editing).toEqual([{ email: 'maya@example.org', name: 'Maya Chen' }]);
    // Another document of the set is apart.
    expect((await beat(maya, 'pages/index.json')).editing).toEqual([]);
    // Gone after 30 s without a heartbeat.
    t.clock += 31_000;
    expect((await beat(ed)).editing).toEqual([]);
  });

  it("validates a draft against the site as the set makes it, and indexes the set's pages and anchors", async () => {
    const copy = await ed.json<{ document: { blocks: { heading?: string }[] } }>(
      await ed.get(`${API}/${id}/documents?file=${PAGE}`),
    );
    const broken = structuredClone(copy.document);
    broken.blocks[0]!.heading = '';
    const found = await ed.json<{ errors: { code: string; pointer: string; message: string }[] }>(
      await ed.post(`${API}/${id}/validate`, { file: PAGE, document: broken }),
    );
    expect(found.errors.map((e) => e.pointer)).toContain('/blocks/0/heading');
    const clean = await ed.json<{ errors: unknown[] }>(
      await ed.post(`${API}/${id}/validate`, { file: PAGE, document: copy.document }),
    );
    expect(clean.errors).toEqual([]);
    // Beyond the validator, the search-result warnings `npm run validate` prints (a title too long for a result).
    const long = { ...copy.document, title: 'Fentanyl addiction treatment '.repeat(6).trim() };
    const gate = await ed.json<{ errors: unknown[]; warnings: { pointer: string }[] }>(
      await ed.post(`${API}/${id}/checks`, { file: PAGE, document: long }),
    );
    expect(gate.warnings.map((w) => w.pointer)).toContain('/title');
    const index = await ed.json<{ pages: { path: string }[] }>(await ed.get(`${API}/${id}/index`));
    expect(index.pages.map((p) => p.path)).toContain('/treatment/fentanyl-addiction');
  });

  it('gives the site data the editor renders with: the live site, or as the set makes it', async () => {
    const SITE = 'site/site.json';
    const SITE_DATA = API.replace(/\/changes$/, '/site-data');
    type Data = { site: { brand: { name: string } }; forms: Record<string, unknown> };
    const live = await ed.json<Data>(await ed.get(SITE_DATA));
    expect(Object.keys(live.forms)).toContain('consultation');
    const copy = await ed.json<{ document: Data['site']; version: string }>(
      await ed.get(`${API}/${id}/documents?file=${SITE}`),
    );
    const renamed = { ...copy.document, brand: { ...copy.document.brand, name: 'Harbor Light Recovery' } };
    await ed.json(
      await ed.request('PUT', `${API}/${id}/documents?file=${SITE}`, {
        document: renamed,
        baseVersion: copy.version,
      }),
    );
    expect((await ed.json<Data>(await ed.get(`${SITE_DATA}?change=${id}`))).site.brand.name).toBe(
      'Harbor Light Recovery',
    );
    expect((await ed.json<Data>(await ed.get(SITE_DATA))).site.brand.name).toBe(live.site.brand.name);
    expect((await desk.get(SITE_DATA)).status).toBe(403);
  });

  it('refuses a bad file (400), an unknown set (404) and admissions staff (403)', async () => {
    expect((await ed.post(`${API}/${id}/presence?file=../etc/passwd`)).status).toBe(400);
    expect((await ed.get(`${API}/no-such-set/files`)).status).toBe(404);
    expect((await desk.get(`${API}/${id}/files`)).status).toBe(403);
    expect((await desk.post(`${API}/${id}/presence?file=${PAGE}`)).status).toBe(403);
  });
});

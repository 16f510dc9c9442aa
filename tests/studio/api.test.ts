// The studio's JSON API on real files in a copy of the repository: what it lists, checks and writes, and what it refuses.
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type StudioUnderTest } from '../helpers/studio-process.ts';
import { exactRequest } from '../helpers/http.ts';
import { runValidateCli } from '../../scripts/validate.ts';
import { runCli } from '../helpers/run-cli.ts';

let studio: StudioUnderTest;
beforeAll(async () => {
  studio = await startStudio();
});
afterAll(async () => {
  await studio?.stop();
});

type FileBody = { text: string; version: string };
const open = async (name: string) =>
  (await (await studio.api(`/studio-api/file?name=${name}`)).json()) as FileBody;
const put = (name: string, document: unknown, baseVersion: unknown, headers: Record<string, string> = {}) =>
  studio.api(`/studio-api/file?name=${encodeURIComponent(name)}`, {
    method: 'PUT',
    body: JSON.stringify({ document, baseVersion }),
    headers,
  });

/** The status of a GET with the Host header the test says (fetch always sends the URL's). */
const rawGet = async (path: string, host: string) =>
  (await exactRequest(`http://127.0.0.1:${studio.port}`, { path, headers: { host } })).status;

/** `npm run validate -- <file>` in the studio's copy of the repository. */
const validate = (file: string) => runCli(runValidateCli, [file], { cwd: studio.dir, env: process.env });

describe('studio API', () => {
  it('lists every page with its address and title, and the site documents', async () => {
    const files = (await (await studio.api('/studio-api/files')).json()) as {
      file: string;
      path?: string;
      title: string;
      kind: string;
    }[];
    expect(files).toContainEqual(
      expect.objectContaining({
        file: 'pages/services/medical-detox.json',
        kind: 'page',
        path: '/services/medical-detox',
      }),
    );
    expect(files.map((f) => f.file)).toEqual(
      expect.arrayContaining(['site/site.json', 'site/redirects.json']),
    );
    const home = files.find((f) => f.file === 'pages/index.json');
    expect(home?.title).toBe((JSON.parse(studio.read('pages/index.json')) as { title: string }).title);
  });

  it('saves every page unedited without changing a byte', async () => {
    const files = (await (await studio.api('/studio-api/files')).json()) as { file: string }[];
    for (const { file } of files) {
      const before = studio.read(file);
      const { version } = await open(file);
      const response = await put(file, JSON.parse(before), version);
      expect(response.status, file).toBe(200);
      expect(studio.read(file), file).toBe(before);
    }
  });

  it('writes one line for one changed heading, and answers the new version', async () => {
    const name = 'pages/services/medical-detox.json';
    const { text, version } = await open(name);
    const document = JSON.parse(text) as { blocks: { type: string; heading: string }[] };
    const hero = document.blocks.find((b) => b.type === 'hero');
    if (!hero) throw new Error('no hero');
    hero.heading = 'Medical detox, safely, around the clock';
    const response = await put(name, document, version);
    expect(response.status).toBe(200);
    const after = studio.read(name);
    expect(((await response.json()) as { version: string }).version).toBe((await open(name)).version);
    const changed = text.split('\n').filter((line, i) => line !== after.split('\n')[i]);
    expect(after.split('\n').length).toBe(text.split('\n').length);
    expect(changed).toHaveLength(1);
    expect(
      execFileSync('npx', ['prettier', '--check', name], { cwd: studio.dir, encoding: 'utf8' }),
    ).toContain('All matched files use Prettier code style');
  });

  it('refuses a save when the file changed on disk since it was opened (409), and writes nothing', async () => {
    const name = 'pages/privacy-policy.json';
    const { text, version } = await open(name);
    const outside = text.replace('"title": "', '"title": "Updated: ');
    studio.write(name, outside);
    const response = await put(name, JSON.parse(text), version);
    expect(response.status).toBe(409);
    expect(studio.read(name)).toBe(outside);
  });

  it('refuses an invalid document with the validator’s messages (422), and writes nothing', async () => {
    const name = 'pages/terms-of-service.json';
    const { text, version } = await open(name);
    const document = JSON.parse(text) as { blocks: Record<string, unknown>[] };
    const index = document.blocks.findIndex((b) => b.type === 'hero');
    (document.blocks[index] as Record<string, unknown>).heading = '';
    const response = await put(name, document, version);
    expect(response.status).toBe(422);
    const { errors } = (await response.json()) as {
      errors: { code: string; pointer: string; message: string }[];
    };
    expect(errors).toContainEqual({
      code: 'too-short',
      pointer: `/blocks/${index}/heading`,
      message: 'must not be empty',
    });
    expect(studio.read(name)).toBe(text);
  });

  it('checks a document as npm run validate does, with suggestions for links and anchors', async () => {
    const name = 'pages/privacy-policy.json';
    const document = JSON.parse(studio.read(name)) as { blocks: Record<string, unknown>[] };
    document.blocks.push(
      { type: 'cta-band', heading: 'Call', text: 'Read [about detox](/services/medical-detx).', actions: [] },
      { type: 'cta-band', heading: 'Call', text: 'See [contact](/#contct).', actions: [] },
    );
    const response = await studio.api('/studio-api/validate', {
      method: 'POST',
      body: JSON.stringify({ file: name, document }),
    });
    const { errors } = (await response.json()) as {
      errors: { code: string; pointer: string; message: string; suggestion?: string; fix?: unknown }[];
    };
    const n = document.blocks.length;
    const link = errors.find((e) => e.pointer === `/blocks/${n - 2}/text`);
    expect(link?.message).toContain('link "/services/medical-detx" leads nowhere');
    expect(link?.code).toBe('broken-link');
    expect(link?.suggestion).toBe('/services/medical-detox');
    expect(link?.fix).toEqual({
      kind: 'replace-link',
      pointer: `/blocks/${n - 2}/text`,
      from: '/services/medical-detx',
      to: '/services/medical-detox',
    });
    const anchor = errors.find((e) => e.pointer === `/blocks/${n - 1}/text`);
    expect(anchor?.message).toContain('has no section with id "contct"');
    expect(anchor?.code).toBe('missing-anchor');
    expect(anchor?.suggestion).toBe('/#contact');
    // The same document on disk gives the same messages from the build's own command.
    studio.write(name, `${JSON.stringify(document, null, 2)}\n`);
    const { err: printed } = await validate(name);
    for (const e of errors) {
      expect(printed).toContain(e.pointer);
      expect(printed).toContain(e.message);
    }
  });

  it('runs every content check npm run check runs: spelling and repeated paragraphs as errors, validate’s warnings as warnings', async () => {
    const name = 'pages/treatment/xanax-addiction.json';
    const document = JSON.parse(studio.read(name)) as { title: string; blocks: Record<string, unknown>[] };
    const other = JSON.parse(studio.read('pages/services/medical-detox.json')) as unknown;
    // The longest text on another page, copied word for word.
    const texts: string[] = [];
    JSON.stringify(
      other,
      (_k, v: unknown) => (typeof v === 'string' && v.split(' ').length > 30 && texts.push(v), v),
    );
    const copied = texts.sort((a, b) => b.length - a.length)[0]!;
    document.title = 'Xanax';
    document.blocks.push({ type: 'cta-band', heading: 'The colour of recovery', text: copied, actions: [] });
    const response = await studio.api('/studio-api/checks', {
      method: 'POST',
      body: JSON.stringify({ file: name, document }),
    });
    const { errors, warnings } = (await response.json()) as {
      errors: { pointer: string; message: string; check?: string; fix?: unknown }[];
      warnings: { pointer: string; message: string }[];
    };
    const n = document.blocks.length - 1;
    expect(errors.find((e) => e.check === 'spelling')).toMatchObject({
      pointer: `/blocks/${n}/heading`,
      message: expect.stringContaining('“colour” is British spelling'),
      fix: { kind: 'replace', pointer: `/blocks/${n}/heading`, value: 'The color of recovery' },
    });
    expect(errors.find((e) => e.check === 'repeats')).toMatchObject({ pointer: `/blocks/${n}/text` });
    // The same warning, in the same words, as npm run validate prints for the file on disk.
    studio.write(name, `${JSON.stringify(document, null, 2)}\n`);
    // As its own process in the copy: its warnings read the pages of the checkout it runs from.
    const printed = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/validate.ts'], {
      cwd: studio.dir,
      encoding: 'utf8',
    }).stderr;
    const title = warnings.find((w) => w.pointer === '/title');
    expect(title?.message).toMatch(/^title is 5 characters; aim for/);
    expect(printed).toContain(`/title  warning: ${title?.message}`);
  });

  it('refuses a foreign Host (403) and a write from a foreign Origin or with none (403)', async () => {
    expect(await rawGet('/studio-api/files', `127.0.0.1:${studio.port}`)).toBe(200);
    expect(await rawGet('/studio-api/files', `localhost:${studio.port}`)).toBe(200);
    expect(await rawGet('/studio-api/files', `evil.example:${studio.port}`)).toBe(403);
    expect(await rawGet('/', `rebind.example.com:${studio.port}`)).toBe(403);
    const name = 'pages/index.json';
    const { text, version } = await open(name);
    const evil = await put(name, JSON.parse(text), version, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const none = await fetch(`${studio.url}/studio-api/file?name=${name}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ document: JSON.parse(text), baseVersion: version }),
    });
    expect(none.status).toBe(403);
  });

  it('never reads or writes outside pages/ and site/ (403)', async () => {
    for (const name of [
      'package.json',
      '../etc/passwd',
      'pages/../package.json',
      'server/app.ts',
      '/etc/passwd',
      'schemas/page.schema.json',
      'pages/notes.txt',
    ]) {
      expect((await studio.api(`/studio-api/file?name=${encodeURIComponent(name)}`)).status, name).toBe(403);
      expect((await put(name, {}, null)).status, name).toBe(403);
    }
  });

  it('creates a new page only where none exists, and it passes npm run validate', async () => {
    const home = JSON.parse(studio.read('pages/hipaa-compliance.json')) as Record<string, unknown>;
    const document = {
      ...home,
      $schema: '../../schemas/page.schema.json',
      title: 'A new page made in the studio',
    };
    expect((await put('pages/about/new-page.json', document, null)).status).toBe(200);
    expect((await put('pages/about/new-page.json', document, null)).status).toBe(409);
    expect(await validate('pages/about/new-page.json')).toMatchObject({ code: 0, err: '' });
  });

  it('moves a page byte for byte, and redirects its old address', async () => {
    const from = 'pages/treatment/vyvanse-addiction.json';
    const text = studio.read(from);
    const { version } = await open(from);
    const move = (baseVersion: string) =>
      studio.api('/studio-api/rename', {
        method: 'POST',
        body: JSON.stringify({ file: from, path: '/treatment/vyvanse', baseVersion, redirect: true }),
      });
    expect((await move('not-the-version')).status).toBe(409);
    const moved = await move(version);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ file: 'pages/treatment/vyvanse.json', version });
    expect(studio.read('pages/treatment/vyvanse.json')).toBe(text);
    expect(() => studio.read(from)).toThrow();
    const { redirects } = JSON.parse(studio.read('site/redirects.json')) as {
      redirects: { from: string[]; to: string }[];
    };
    expect(redirects.at(-1)).toEqual({ from: ['/treatment/vyvanse-addiction'], to: '/treatment/vyvanse' });
  });
});

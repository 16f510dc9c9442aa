// `npm run studio` serves the editor as a production build, made once per checkout and made again only when a file
// it was built from changes (here: the site document, which the preview's header and footer import). The build is kept
// in the checkout's own 0700 folder, and one changed or planted there is never served; no studio page can be framed
// by another site.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { copyProject } from '../../scripts/lib/project-copy.ts';
import { studioCacheDir } from '../../studio/cache-dir.ts';
import { studioClient } from '../../studio/server/client-build.ts';
import { startStudio, type StudioUnderTest } from '../helpers/studio-process.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

let studio: StudioUnderTest;
beforeAll(async () => {
  studio = await startStudio();
}, 180_000);
afterAll(async () => {
  await studio?.stop();
});

describe('the studio’s editor', { timeout: 180_000 }, () => {
  const tempDir = useTempDir('studio-build-');

  it('is served as a production build, not from a development server', async () => {
    for (const page of ['/', '/preview.html']) {
      const response = await fetch(`${studio.url}${page}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/[\w-]+\.js">/);
      expect(html).not.toContain('/@vite/client');
      const script = /src="(\/assets\/[\w-]+\.js)"/.exec(html)?.[1] ?? '';
      const asset = await fetch(`${studio.url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('is built again only when a file it was built from changed', async () => {
    const dir = tempDir();
    copyProject(dir);
    const first = await studioClient(dir);
    expect(first.built).toBe(true);
    expect(await studioClient(dir)).toEqual({ dir: first.dir, built: false });
    // A block's schema (the forms are made from it); the site's documents are read at run time, not built in.
    const schemaFile = join(dir, 'blocks/hero/schema.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { description: string };
    schema.description = `${schema.description} Changed.`;
    writeFileSync(schemaFile, JSON.stringify(schema, null, 2));
    const again = await studioClient(dir);
    expect(again.built).toBe(true);
    expect(again.dir).not.toBe(first.dir);
  });

  it('keeps its build in the checkout, in a folder only its user may open (0700), never in the shared /tmp', async () => {
    const cache = studioCacheDir(studio.dir);
    expect(cache).toBe(join(studio.dir, '.studio-cache'));
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    expect(statSync(cache).uid).toBe(process.getuid?.());
    // The whole copy's own: a build of another checkout lives in that checkout.
    expect(readFileSync(join(studio.dir, '.gitignore'), 'utf8')).toMatch(/^\.studio-cache\/$/m);
  });

  it('never serves a build that was changed, or planted in a folder others can write, and removes nothing outside', async () => {
    const dir = tempDir();
    copyProject(dir);
    const cache = studioCacheDir(dir);
    const first = await studioClient(dir);
    const planted = '<!doctype html><title>Someone else’s editor</title>';

    // A file of the build changed after it was made: the manifest's hashes no longer match.
    writeFileSync(join(first.dir, 'index.html'), planted);
    const rebuilt = await studioClient(dir);
    expect(rebuilt.built).toBe(true);
    expect(readFileSync(join(rebuilt.dir, 'index.html'), 'utf8')).not.toBe(planted);

    // The folder made writable by everyone, with a planted editor and a manifest that matches it.
    writeFileSync(join(rebuilt.dir, 'index.html'), planted);
    const manifestFile = join(cache, 'client.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { outputs: Record<string, string> };
    manifest.outputs['index.html'] = createHash('sha256').update(planted).digest('hex');
    writeFileSync(manifestFile, JSON.stringify(manifest));
    chmodSync(cache, 0o777);
    const safe = await studioClient(dir);
    expect(safe.built).toBe(true);
    expect(readFileSync(join(safe.dir, 'index.html'), 'utf8')).not.toBe(planted);
    expect(statSync(cache).mode & 0o777).toBe(0o700);

    // A manifest naming a folder outside the cache: not served, and not removed when the studio builds again.
    const victim = join(dir, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'notes.txt'), 'mine');
    writeFileSync(join(victim, 'index.html'), planted);
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, dir: '../victim', outputs: {} }));
    const third = await studioClient(dir);
    expect(third.built).toBe(true);
    expect(third.dir.startsWith(cache)).toBe(true);
    expect(existsSync(join(victim, 'notes.txt'))).toBe(true);
  });

  it('cannot be framed by another page; its preview only by the studio itself', async () => {
    for (const path of ['/', '/studio-api/files', '/assets/nothing.js']) {
      const response = await fetch(`${studio.url}${path}`);
      expect(response.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
    const preview = await fetch(`${studio.url}/preview.html?path=/`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    expect(preview.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});

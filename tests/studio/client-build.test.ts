// `npm run studio` serves the editor as a production build, made once per checkout and made again only when a file
// it was built from changes (here: the site document, which the preview's header and footer import).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    try {
      copyProject(dir);
      const first = await studioClient(dir);
      expect(first.built).toBe(true);
      expect(await studioClient(dir)).toEqual({ dir: first.dir, built: false });
      const siteFile = join(dir, 'site/site.json');
      const site = JSON.parse(readFileSync(siteFile, 'utf8')) as { brand: { name: string } };
      site.brand.name = 'A renamed brand';
      writeFileSync(siteFile, JSON.stringify(site, null, 2));
      const again = await studioClient(dir);
      expect(again.built).toBe(true);
      expect(again.dir).not.toBe(first.dir);
    } finally {
      // The build cache is kept apart from the copy (studio/cache-dir.ts): removed here, the copy by useTempDir.
      rmSync(studioCacheDir(dir), { recursive: true, force: true });
    }
  });
});

// `npm run studio -- --dev` serves the editor from Vite's dev server, which also answers `/@fs/<absolute path>`: it must
// serve the editor and what it imports, and nothing else of the machine (the lead database's key, an environment
// file, any file outside the studio's folders); and, like the built studio, never be framed by another page.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type StudioUnderTest } from '../helpers/studio-process.ts';

let studio: StudioUnderTest;
beforeAll(async () => {
  studio = await startStudio({ dev: true });
  // What a developer's checkout holds beside the code: the lead database's key file, an environment file.
  mkdirSync(join(studio.dir, 'data'), { recursive: true });
  writeFileSync(join(studio.dir, 'data/leads.db.key'), '0f'.repeat(32));
  writeFileSync(join(studio.dir, 'data/notes.txt'), 'not for the studio');
  writeFileSync(join(studio.dir, 'site/leads.key'), '0f'.repeat(32));
  writeFileSync(join(studio.dir, '.env'), 'LEADS_ENCRYPTION_KEY=secret');
}, 180_000);
afterAll(async () => {
  await studio?.stop();
});

const get = (path: string) => fetch(`${studio.url}${path}`);

describe('the studio on Vite’s dev server', { timeout: 120_000 }, () => {
  it('serves the editor, and the files it imports', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/@vite/client');
    expect(page.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect((await get(`/@fs${studio.dir}/site/site.json`)).status).toBe(200);
  });

  it('refuses (403) the lead key, the data folder, environment files and anything outside its folders', async () => {
    for (const path of [
      `/@fs${studio.dir}/data/leads.db.key`,
      `/@fs${studio.dir}/data/notes.txt`,
      `/@fs${studio.dir}/site/leads.key`,
      `/@fs${studio.dir}/.env`,
      `/@fs${studio.dir}/package.json`,
      `/@fs${studio.dir}/server/config.ts`,
      '/@fs/etc/passwd',
    ]) {
      const response = await get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(await response.text()).not.toContain('0f0f');
    }
  });
});

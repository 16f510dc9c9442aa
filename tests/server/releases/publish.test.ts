// Releases on one instance (the SQLite file): the real server process on the real build, and `npm run content` run
// as an operator would, on a content root of the test's own. A publish under constant requests, show and diff, a
// rollback and a restart after it, invalid content refused, and a publish killed (SIGKILL) while it builds.
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../content/paths.ts';
import { spawnScript } from '../../../scripts/lib/node-script.ts';
import { startServerProcess, type ServerProcess } from '../../../scripts/lib/server-process.ts';
import { runContentCli } from '../../../server/cli/content.ts';
import { runStaffCli } from '../../../server/cli/staff.ts';
import { copyContent, setHomeHeading } from '../../helpers/content-root.ts';
import { waitFor } from '../../helpers/fixtures.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { useTempDirForAll } from '../../helpers/temp-dir.ts';

const CLIENT_DIR = join(ROOT, 'dist', 'client');
const ORIGINAL_HEADING = 'Safe, Caring Addiction Treatment in California';

describe('releases on one instance', () => {
  const dir = useTempDirForAll('releases-');
  let server: ServerProcess;
  let root: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    root = copyContent(join(dir(), 'content'));
    env = { LEADS_DB: join(dir(), 'leads.db'), CLIENT_DIR };
    server = await startServerProcess({ env });
  });
  afterAll(() => server?.stop());

  const content = (...args: string[]) => runCli(runContentCli, args, { env, cwd: root, user: 'editor' });
  const page = async (path: string) => (await fetch(server.url + path)).text();
  const releases = async () =>
    JSON.parse((await content('releases', '--json')).out) as { id: number; live: boolean; author: string }[];

  it('takes the build in dist/ as release 1 at its first start, and names it in /healthz', async () => {
    expect(await releases()).toMatchObject([{ id: 1, live: true, author: 'server' }]);
    const health = (await (await fetch(`${server.url}/healthz`)).json()) as { release: unknown };
    expect(health.release).toEqual({ id: 1, live: 1, behindSeconds: 0 });
    expect(await page('/')).toContain(ORIGINAL_HEADING);
  });

  it('publishes under constant requests: each answer a whole page of the old or the new release, never a 5xx', async () => {
    setHomeHeading(root, 'Marker two: help is one call away');
    const answers: { path: string; status: number; body: string }[] = [];
    let stop = false;
    const paths = ['/', '/services/medical-detox', '/'];
    const load = paths.map(async (path) => {
      while (!stop) {
        const response = await fetch(server.url + path);
        answers.push({ path, status: response.status, body: await response.text() });
      }
    });
    const published = await content('publish', '--message', 'Marker two');
    await waitFor(() => answers.some((answer) => answer.body.includes('Marker two')), 5000);
    stop = true;
    await Promise.all(load);

    expect(published).toMatchObject({ code: 0, out: 'release=2 live=1/1\n' });
    expect(answers.length).toBeGreaterThan(20);
    for (const { path, status, body } of answers) {
      expect(status, path).toBe(200);
      expect(body.trimEnd().endsWith('</html>'), path).toBe(true);
      if (path === '/')
        expect(
          Number(body.includes('Marker two')) + Number(body.includes(ORIGINAL_HEADING)),
          body.slice(0, 200),
        ).toBe(1);
    }
    expect(await page('/')).toContain('Marker two');
    expect(await releases()).toMatchObject([
      { id: 1, live: false },
      { id: 2, live: true, author: 'cli:editor', message: 'Marker two' },
    ]);
    const audit = await runCli(runStaffCli, ['audit'], { env, cwd: root });
    expect(audit.out).toMatch(/cli:editor\s+publish\s.*release 1 -> 2/);
  });

  it('shows a page exactly as a release served it, and diffs two releases by their visible text', async () => {
    const shown = await content('show', '1', '/');
    expect(shown.code).toBe(0);
    expect(shown.out).toBe(readFileSync(join(CLIENT_DIR, 'index.html'), 'utf8'));
    const diff = await content('diff', '1', '2');
    expect(diff.code).toBe(0);
    expect(diff.out).toContain(`/\n  - ${ORIGINAL_HEADING}\n  + Marker two: help is one call away\n`);
    expect(diff.out).not.toContain('/services/medical-detox');
  });

  it('exports a release as files for nginx: the pages as served, and the include for them', async () => {
    const exported = await content('export', '2', join(dir(), 'export-2'));
    expect(exported.code).toBe(0);
    const siteDir = join(dir(), 'export-2', 'site');
    expect(readFileSync(join(siteDir, 'index.html'), 'utf8')).toBe((await content('show', '2', '/')).out);
    expect(existsSync(join(siteDir, 'index.html.br'))).toBe(true);
    const conf = readFileSync(join(dir(), 'export-2', 'nginx', 'site.conf'), 'utf8');
    expect(conf).toContain('location = /services/medical-detox {');
    expect(conf).toContain("script-src 'self' 'sha256-");
  });

  it('rolls back within 5 s, records it as an event, and a restart serves the release it had', async () => {
    const unknown = await content('rollback', '99');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('There is no release 99. Releases: 1, 2');

    const started = Date.now();
    const rolledBack = await content('rollback', '1');
    expect(rolledBack).toMatchObject({ code: 0, out: 'release=1 live=1/1\n' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await page('/')).toContain(ORIGINAL_HEADING);
    expect((await releases()).map((release) => release.live)).toEqual([true, false]);

    server = await server.restart();
    expect(await page('/')).toContain(ORIGINAL_HEADING);
    const audit = await runCli(runStaffCli, ['audit'], { env, cwd: root });
    expect(audit.out).toMatch(/cli:editor\s+rollback\s.*release 2 -> 1/);
  });

  it('refuses invalid content with file:line:col, and the live site does not change', async () => {
    const file = join(root, 'pages', 'privacy-policy.json');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('"title": "', '"title": 7, "x": "'));
    try {
      const refused = await content('publish');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/pages\/privacy-policy\.json:\d+:\d+/);
      expect(refused.err).toContain('nothing was published');
      expect(await releases()).toHaveLength(2);
    } finally {
      writeFileSync(file, before);
    }
  });

  it('a publish killed while it builds puts nothing live, and releases its lock for the next', async () => {
    setHomeHeading(root, 'Marker three: killed before it was stored');
    const child = spawnScript('server/cli/content.ts', ['publish'], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    const exited = new Promise((resolve) => child.once('close', resolve));
    await waitFor(() => err.includes('Building'), 20_000);
    child.kill('SIGKILL');
    await exited;
    expect(await releases()).toHaveLength(2);
    expect(await page('/')).toContain(ORIGINAL_HEADING);

    setHomeHeading(root, 'Marker four: the next publish works');
    const next = await content('publish');
    expect(next).toMatchObject({ code: 0, out: 'release=3 live=1/1\n' });
    expect(next.err).not.toContain('Another publish or rollback is running');
    expect(await page('/')).toContain('Marker four');
  });

  it('a start with new code rebuilds the live content with it, and says when dist/ holds other content', async () => {
    // The live release (release 3) holds content published from the command line, not the content of dist/.
    await server.stop();
    const warned = server.logs().some((line) => line.command === 'npm run content -- publish');
    expect(warned).toBe(false); // it started on dist's content, before any publish
    // New code: a copy of dist/ whose render bundle has one more file (the build hash covers every file of it).
    const code = join(dir(), 'new-code');
    cpSync(join(ROOT, 'dist'), code, { recursive: true });
    writeFileSync(join(code, 'server', 'new-version.js'), 'export const version = 2;\n');
    // The render bundle imports its packages from the node_modules above it, as dist/ does in a checkout.
    symlinkSync(join(ROOT, 'node_modules'), join(dir(), 'node_modules'), 'dir');
    // It builds the live content before it serves: a limit for hangs, never a measurement.
    server = await startServerProcess({
      env: { ...env, CLIENT_DIR: join(code, 'client') },
      startupTimeoutMs: 90_000,
    });

    const list = await releases();
    expect(list).toHaveLength(4);
    expect(list[3]).toMatchObject({ id: 4, live: true, author: 'server' });
    expect(await page('/')).toContain('Marker four');
    expect(server.logs().some((line) => line.command === 'npm run content -- publish')).toBe(true);
    const audit = await runCli(runStaffCli, ['audit'], { env, cwd: root });
    expect(audit.out).toMatch(/server\s+deploy\s.*release 3 -> 4/);
  }, 120_000);

  it('says plainly when the store cannot be reached, and changes nothing', async () => {
    const unreachable = await runCli(runContentCli, ['publish'], {
      env: {
        DATABASE_URL: 'postgres://app@127.0.0.1:1/app',
        LEADS_ENCRYPTION_KEY: 'ab'.repeat(32),
        CLIENT_DIR,
      },
      cwd: root,
      user: 'editor',
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/^The store failed: .*ECONNREFUSED.*the live site is as it was/s);
    expect(await releases()).toHaveLength(4);
  });
});

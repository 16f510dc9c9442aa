// Releases on several instances of one PostgreSQL database, as DEPLOY's "Several instances" runs them: a publish is
// live on both within 5 s, an instance started afterwards serves it, and an instance whose LISTEN connection was cut
// still catches up.
import { randomBytes } from 'node:crypto';
import { cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../content/paths.ts';
import { startServerProcess, type ServerProcess } from '../../../scripts/lib/server-process.ts';
import { runContentCli } from '../../../server/cli/content.ts';
import { copyContent, setHomeHeading } from '../../helpers/content-root.ts';
import { waitFor } from '../../helpers/fixtures.ts';
import { startTestPostgres, testPool, type TestPostgres } from '../../helpers/postgres.ts';
import { useTempDirForAll } from '../../helpers/temp-dir.ts';

const CLIENT_DIR = join(ROOT, 'dist', 'client');

describe('releases on two instances of one PostgreSQL', () => {
  const dir = useTempDirForAll('releases-pg-');
  let postgres: TestPostgres;
  let env: Record<string, string>;
  let root: string;
  const instances: ServerProcess[] = [];
  beforeAll(async () => {
    postgres = await startTestPostgres();
    root = copyContent(join(dir(), 'content'));
    env = { DATABASE_URL: postgres.url, LEADS_ENCRYPTION_KEY: randomBytes(32).toString('hex'), CLIENT_DIR };
    // One after the other: the first stores the build as release 1, the second finds it live.
    for (let n = 0; n < 2; n += 1) instances.push(await startServerProcess({ env }));
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    postgres?.remove();
  });

  /**
   * Publishes the home page with `heading`, as `npm run content -- publish` does; `confirmedMs` is from the moment the
   * release was stored to the moment every running instance had confirmed it (when the command ends).
   */
  async function publishHeading(heading: string) {
    setHomeHeading(root, heading);
    let out = '';
    let storedAt = 0;
    const code = await runContentCli(['publish'], {
      env,
      cwd: root,
      user: 'operator',
      out: (text) => (out += text),
      err: (text) => {
        if (text.startsWith('Stored release')) storedAt = Date.now();
      },
    });
    return { code, out, confirmedMs: Date.now() - storedAt };
  }
  const serves = async (instance: ServerProcess, text: string) =>
    (await (await fetch(`${instance.url}/`)).text()).includes(text);

  it('a publish is live on both within 5 s, with both confirmed', async () => {
    const published = await publishHeading('Marker on both instances');
    expect(published).toMatchObject({ code: 0, out: 'release=2 live=2/2\n' });
    expect(published.confirmedMs).toBeLessThan(5000);
    for (const instance of instances) expect(await serves(instance, 'Marker on both instances')).toBe(true);
    const health = (await (await fetch(`${instances[1]!.url}/healthz`)).json()) as { release: unknown };
    expect(health.release).toEqual({ id: 2, live: 2, behindSeconds: 0 });
  });

  it('an instance started afterwards serves the live release', async () => {
    const later = await startServerProcess({ env });
    instances.push(later);
    expect(await serves(later, 'Marker on both instances')).toBe(true);
  });

  it('an instance whose LISTEN connection was cut catches up within 5 s', async () => {
    const admin = testPool(postgres.url, 1);
    try {
      const cut = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'release-listener'",
      );
      expect(cut.rowCount).toBe(instances.length);
    } finally {
      await admin.end();
    }
    const published = await publishHeading('Marker after the cut');
    expect(published).toMatchObject({
      code: 0,
      out: `release=3 live=${instances.length}/${instances.length}\n`,
    });
    expect(published.confirmedMs).toBeLessThan(5000);
    for (const instance of instances) expect(await serves(instance, 'Marker after the cut')).toBe(true);
  });

  it('a rolling deploy of new code: the first new instance builds the release, the other waits and serves it', async () => {
    const code = join(dir(), 'new-code');
    cpSync(join(ROOT, 'dist'), code, { recursive: true });
    writeFileSync(join(code, 'server', 'new-version.js'), 'export const version = 2;\n');
    // The render bundle imports its packages from the node_modules above it, as dist/ does in a checkout.
    symlinkSync(join(ROOT, 'node_modules'), join(dir(), 'node_modules'), 'dir');
    const newCode = { env: { ...env, CLIENT_DIR: join(code, 'client') }, startupTimeoutMs: 90_000 };
    const started = await Promise.all([startServerProcess(newCode), startServerProcess(newCode)]);
    instances.push(...started);

    const admin = testPool(postgres.url, 1);
    try {
      const { rows } = await admin.query<{ id: number; author: string }>(
        'SELECT id, author FROM releases ORDER BY id',
      );
      expect(rows.map((row) => row.author)).toEqual(['server', 'cli:operator', 'cli:operator', 'server']);
    } finally {
      await admin.end();
    }
    // Every instance, the old ones too, serves the rebuilt release: the content published before the deploy.
    for (const instance of instances) await waitFor(() => serves(instance, 'Marker after the cut'), 5000);
    const waited = started.filter((instance) =>
      instance.logs().some((line) => String(line.msg).startsWith('another instance holds the publish lock')),
    );
    expect(waited).toHaveLength(1);
  }, 150_000);
});

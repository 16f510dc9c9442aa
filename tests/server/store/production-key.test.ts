// In production the lead encryption key is never made beside the database, where every backup of its folder would
// carry it: the server and the staff CLI refuse to start without LEADS_ENCRYPTION_KEY or LEADS_KEY_FILE, with a
// plain message; with LEADS_KEY_FILE both use that file.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runLeadsCli } from '../../../server/cli/leads.ts';
import { runServerProcessToExit, startServerProcess } from '../../../scripts/lib/server-process.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { createdId, postJson, validLead, writeClientDir } from '../../helpers/fixtures.ts';
import { useTempDirForAll } from '../../helpers/temp-dir.ts';

// One folder for the file: the second test starts on the database the first was refused.
const tempDir = useTempDirForAll('server-test-');
let dir: string;
let production: { NODE_ENV: string; LEADS_DB: string; CLIENT_DIR: string };
beforeAll(() => {
  dir = tempDir();
  production = {
    NODE_ENV: 'production',
    LEADS_DB: join(dir, 'data', 'leads.db'),
    CLIENT_DIR: writeClientDir(dir),
  };
});

const cli = (args: string[], env: Record<string, string>) => runCli(runLeadsCli, args, { env, cwd: dir });

describe('the lead key in production', () => {
  it('refuses to start without LEADS_ENCRYPTION_KEY or LEADS_KEY_FILE, saying why, and writes no key', async () => {
    const { code, output } = await runServerProcessToExit({ env: production });
    expect(code).toBe(1);
    expect(output).toContain('NODE_ENV is production and no lead encryption key is given');
    expect(output).toMatch(/LEADS_ENCRYPTION_KEY.*LEADS_KEY_FILE/s);
    expect(output).not.toMatch(/^\s+at /m);
    expect(existsSync(`${production.LEADS_DB}.key`)).toBe(false);

    const refused = await cli(['list'], production);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toContain('NODE_ENV is production and no lead encryption key is given');
  });

  it('starts with LEADS_KEY_FILE, keeps the key there and not beside the database, and the CLI reads it the same way', async () => {
    const env = { ...production, LEADS_KEY_FILE: join(dir, 'secrets', 'leads.key') };
    const server = await startServerProcess({ env });
    let id: string;
    try {
      id = await createdId(await postJson(`${server.url}/api/forms/insurance-verification`, validLead));
    } finally {
      await server.stop();
    }
    expect(statSync(env.LEADS_KEY_FILE).mode & 0o777).toBe(0o600);
    expect(existsSync(`${production.LEADS_DB}.key`)).toBe(false);

    const shown = await cli(['show', id], env);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain(validLead.memberId);
    // The same database without its key file: refused, as the server would be.
    expect((await cli(['show', id], production)).code).toBe(1);
  });
});

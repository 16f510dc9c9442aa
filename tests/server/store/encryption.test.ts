// Health details and messages at rest, through the real server process: sealed in the file, readable with the key
// (and only with it) through the staff CLI, and a clear refusal to start with a bad or wrong key.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runLeadsCli } from '../../../server/cli/leads.ts';
import { runServerProcessToExit, startServerProcess } from '../../../scripts/lib/server-process.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { createdId, postJson, validLead, writeClientDir } from '../../helpers/fixtures.ts';
import { useTempDirForAll } from '../../helpers/temp-dir.ts';

const MESSAGE = 'I relapsed after 90 days and I am scared';
const tempDir = useTempDirForAll('server-test-');
let dir: string;
let env: Record<string, string>;
const ids: string[] = [];
let firstOutput = '';
let firstLogs: Record<string, unknown>[] = [];

beforeAll(async () => {
  dir = tempDir();
  env = { LEADS_DB: join(dir, 'db', 'leads.db'), CLIENT_DIR: writeClientDir(dir), FORM_RATE_LIMIT: '1000' };
  const server = await startServerProcess({ env });
  try {
    ids.push(await createdId(await postJson(`${server.url}/api/forms/insurance-verification`, validLead)));
    ids.push(
      await createdId(
        await postJson(`${server.url}/api/forms/consultation`, {
          firstName: 'Sam',
          lastName: 'Lee',
          phone: '5550100199',
          email: 'sam@example.com',
          message: MESSAGE,
          source: '/',
        }),
      ),
    );
  } finally {
    await server.stop();
  }
  firstOutput = server.output();
  firstLogs = server.logs();
}, 60_000);

const cli = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli(runLeadsCli, args, { env: { ...env, ...extraEnv }, cwd: dir });

describe('encryption at rest', () => {
  it('creates a key file beside the database, readable only by its owner, and warns that it should come from a secret store', async () => {
    const keyFile = `${env.LEADS_DB}.key`;
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    const warning = firstLogs.find(
      (line) => line.level === 40 && typeof line.msg === 'string' && line.msg.includes('secret store'),
    );
    expect(warning).toMatchObject({ keyFile });
  });

  it('leaves no name, phone, e-mail, date of birth, member ID or message in the database files, nor those in the log', async () => {
    const files = ['', '-wal', '-shm'].map((suffix) => `${env.LEADS_DB}${suffix}`).filter(existsSync);
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
    for (const secret of [
      validLead.fullName,
      validLead.phone,
      '5550100199',
      'sam@example.com',
      validLead.dateOfBirth,
      validLead.memberId,
      MESSAGE,
      'relapsed',
    ])
      expect(bytes.includes(secret), secret).toBe(false);
    for (const secret of [validLead.dateOfBirth, validLead.memberId, 'relapsed'])
      expect(firstOutput).not.toContain(secret);
  });

  it('shows them decrypted to staff through the CLI', async () => {
    const [insurance, consultation] = ids;
    const shown = await cli(['show', insurance ?? '']);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain(validLead.dateOfBirth);
    expect(shown.out).toContain(validLead.memberId);
    expect((await cli(['show', consultation ?? ''])).out).toContain(MESSAGE);
    expect((await cli(['export', '--csv'])).out).toContain(validLead.memberId);
  });

  it('reuses the key file on the next start, and reads what it wrote before', async () => {
    const server = await startServerProcess({ env });
    try {
      ids.push(await createdId(await postJson(`${server.url}/api/forms/insurance-verification`, validLead)));
    } finally {
      await server.stop();
    }
    expect(server.output()).not.toContain('secret store');
    expect(server.output()).toContain('lead encryption key read from the key file');
    const listed = (await cli(['list', '--json'])).out.trimEnd().split('\n');
    expect(listed).toHaveLength(3);
    expect(listed.filter((line) => line.includes(validLead.memberId))).toHaveLength(2);
    expect((await cli(['show', ids[0] ?? ''])).out).toContain(validLead.memberId);
  }, 60_000);

  it('refuses to start with a key that is not 64 hex characters, or not the database key', async () => {
    const bad = await runServerProcessToExit({
      env: { ...env, LEADS_ENCRYPTION_KEY: 'correct horse battery staple' },
    });
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('LEADS_ENCRYPTION_KEY must be 64 hexadecimal characters');
    expect(bad.output).not.toContain('correct horse');
    const wrong = await runServerProcessToExit({
      env: { ...env, LEADS_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.output).toMatch(/The lead encryption key does not match .*leads\.db/);
    expect(wrong.output).not.toMatch(/\n\s+at /);
    expect(await cli(['list'], { LEADS_ENCRYPTION_KEY: randomBytes(32).toString('hex') })).toMatchObject({
      code: 1,
    });
  }, 60_000);
});

// A backup taken with `npm run leads -- backup` while the server takes a burst of submissions, restored on a fresh
// server with the same key: every lead acknowledged before the backup began is in it, and reads back decrypted.
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../../core/form-rules.ts';
import { runLeadsCli } from '../../../server/cli/leads.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { createdId, postJson, validLead } from '../../helpers/fixtures.ts';
import { cleanupsAfterEach, faultServerEnv, startFaultServer } from './store-faults.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

const BURST = 300;
const CONCURRENCY = 10;
// The backup starts once this many were acknowledged, with the rest of the burst still coming.
const BACKUP_AFTER = 100;

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

const cli = (args: string[], env: Record<string, string>, cwd: string) =>
  runCli(runLeadsCli, args, { env, cwd });

describe('backup and restore', () => {
  it('a backup taken during a burst holds every lead acknowledged before it began, and restores with the same key', async () => {
    const dir = tempDir();
    const env = faultServerEnv(join(dir, 'data', 'leads.db'), dir, {
      LEADS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    });
    const { server, api } = await startFaultServer(defer, env);

    const acknowledged = new Map<string, string>(); // lead id -> member id
    let before: Map<string, string> | undefined;
    let backup: ReturnType<typeof cli> | undefined;
    const backupFile = join(dir, 'backups', 'leads-backup.db');
    let next = 0;
    const lane = async () => {
      for (let n = next++; n < BURST; n = next++) {
        const memberId = `BACKUP-${n}-${randomUUID().slice(0, 8)}`;
        const response = await postJson(
          api,
          { ...validLead, fullName: `Backup Test ${n}`, memberId },
          { [IDEMPOTENCY_HEADER]: randomUUID() },
        );
        acknowledged.set(await createdId(response), memberId);
        if (acknowledged.size === BACKUP_AFTER) {
          before = new Map(acknowledged);
          backup = cli(['backup', backupFile], env, dir);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const taken = await backup;
    expect(taken?.code, taken?.err).toBe(0);
    const copied = Number(/^Backed up (\d+) leads to .*leads-backup\.db/.exec(taken?.out ?? '')?.[1]);
    expect(copied).toBeGreaterThanOrEqual(BACKUP_AFTER);
    expect(before?.size).toBe(BACKUP_AFTER);
    expect(acknowledged.size).toBe(BURST);
    // Encrypted as stored: the member ids are not in the file.
    const bytes = readFileSync(backupFile, 'latin1');
    for (const memberId of [...(before?.values() ?? [])].slice(0, 10)) expect(bytes).not.toContain(memberId);
    // A second backup never overwrites the first.
    expect((await cli(['backup', backupFile], env, dir)).code).toBe(1);
    await server.stop();

    // Restored as docs/DEPLOY.md says: the copy as the database of a fresh server with the same key.
    const restored = { ...env, LEADS_DB: join(dir, 'restored', 'leads.db') };
    mkdirSync(join(dir, 'restored'));
    copyFileSync(backupFile, restored.LEADS_DB);
    const { server: fresh, api: freshApi } = await startFaultServer(defer, restored);
    const newId = await createdId(await postJson(freshApi, validLead));

    const listed = await cli(['list', '--json'], restored, dir);
    expect(listed.code, listed.err).toBe(0);
    const leads = new Map(
      listed.out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; memberId: string })
        .map((lead) => [lead.id, lead.memberId]),
    );
    for (const [id, memberId] of before ?? []) expect(leads.get(id), id).toBe(memberId);
    for (const [id, memberId] of leads)
      if (id !== newId) expect(acknowledged.get(id), 'a lead nobody acknowledged').toBe(memberId);
    await fresh.stop();
    expectNoPersonalData(
      [...server.output().split('\n'), ...fresh.output().split('\n')],
      [
        ...Object.values(validLead),
        ...acknowledged.values(),
        ...Array.from({ length: BURST }, (_, n) => `Backup Test ${n}`),
      ],
    );
  }, 90_000);
});

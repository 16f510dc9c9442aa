// A stalled disk under the lead database (the file system frozen: every write waits, as on a disk that stopped
// answering): visitors are answered in time with the phone number while the site goes on being served; once the disk
// answers again, each submission is stored at most once, whole with its alert, and a visitor who sends it again with
// the same Idempotency-Key gets that one lead (stored now, or committed late after their 503).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReceiver, waitFor } from '../../helpers/fixtures.ts';
import {
  FAULT_LEAD_VALUES,
  cleanupsAfterEach,
  expectCallUs,
  faultServerEnv,
  mountForTest,
  run,
  startFaultServer,
  stored,
  submit,
} from './store-faults.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

const KEY = 'ef'.repeat(32);

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

describe('a stalled disk under the lead database', () => {
  it('answers 503 with the phone number in time, serves pages meanwhile, and stores each lead once afterwards', async (context) => {
    const disk = mountForTest(context, defer, 'ext4', 32);
    const dir = tempDir();
    const receiver = await startReceiver();
    defer(() => receiver.stop());
    const dbFile = join(disk.dir, 'leads.db');
    const env = faultServerEnv(dbFile, dir, { LEADS_ENCRYPTION_KEY: KEY, CHAT_WEBHOOK_URL: receiver.url });
    const { server, api } = await startFaultServer(defer, env);
    for (const n of [0, 1]) expect((await submit(api, n)).status).toBe(201);

    try {
      run('fsfreeze', '--freeze', disk.dir);
    } catch (error) {
      return context.skip(`cannot freeze ext4 (${(error as Error).message.split('\n')[0]})`);
    }
    const thaw = () => {
      try {
        run('fsfreeze', '--unfreeze', disk.dir);
      } catch {
        // already thawed
      }
    };
    defer(thaw);
    const keys = Array.from({ length: 5 }, () => randomUUID());
    const waiting = Promise.all([
      ...keys.map((key, index) => submit(api, 100 + index, { key })),
      submit(api, 200, { plain: true }),
    ]);
    // The event loop never waits for the disk: pages are served while the submissions wait.
    for (let page = 0; page < 3; page += 1) {
      const started = performance.now();
      expect((await fetch(`${server.url}/`, { signal: AbortSignal.timeout(2_000) })).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const answers = await waiting;
    answers.slice(0, -1).forEach((answer) => expectCallUs(answer));
    expectCallUs(answers.at(-1) as (typeof answers)[number], true);
    thaw();

    // Each visitor tries again with the same key: one lead each, whether it was committed late or only now.
    const again = await Promise.all(keys.map((key, index) => submit(api, 100 + index, { key })));
    expect(again.map((answer) => answer.status)).toEqual(keys.map(() => 201));
    const ids = again.map((answer) => (JSON.parse(answer.text) as { id: string }).id);
    const after = stored(dbFile, KEY);
    for (const n of [0, 1, 100, 101, 102, 103, 104]) expect(after.names).toContain(`Fault Test ${n}`);
    // The plain post has no key: it may have been committed late, or not at all; never twice, never in half.
    expect(after.leads).toBeGreaterThanOrEqual(7);
    expect(after.leads).toBeLessThanOrEqual(8);
    expect(after).toMatchObject({ halves: 0, integrity: 'ok' });
    // Admissions hear of every lead stored, the late ones included.
    const alerted = () =>
      new Set(receiver.calls.map((call) => /\(lead ([\w-]+)\)$/.exec(call.json.text)?.[1]));
    await waitFor(() => ids.every((id) => alerted().has(id)) && alerted().size === after.leads, 20_000);
    expectNoPersonalData(server.output().split('\n'), FAULT_LEAD_VALUES);
  }, 90_000);
});

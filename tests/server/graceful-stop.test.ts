// SIGTERM in the middle of a burst of submissions, as a deploy or a process manager stops the server: every request the
// server took is answered, every 2xx is stored with its alert, a request it did not take was never stored, and the
// process exits 0 within its grace period.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../core/form-rules.ts';
import { ANSWER_WITHIN_MS } from '../../server/forms/form-submission.ts';
import { postJson, startReceiver, validLead } from '../helpers/fixtures.ts';
import { cleanupsAfterEach, faultServerEnv, startFaultServer, stored } from './store/store-faults.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../helpers/personal-data.ts';

// More than the server answers in its grace period: a stop must not wait for the burst to end.
const BURST = 3000;
const CONCURRENCY = 40;
// Stopped once this many were acknowledged, with the rest of the burst still coming.
const STOP_AFTER = 100;

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

interface Attempt {
  name: string;
  key: string;
  status?: number;
  id?: string;
  /** performance.now() when the answer came. */
  answeredAt?: number;
}

describe('SIGTERM during a burst', () => {
  it('answers every request it took, stores every 2xx, and exits 0 within the grace period', async () => {
    const dir = tempDir();
    const receiver = await startReceiver();
    defer(() => receiver.stop());
    const dbFile = join(dir, 'leads.db');
    const env = faultServerEnv(dbFile, dir, { CHAT_WEBHOOK_URL: receiver.url });
    const { server, api } = await startFaultServer(defer, env);

    const attempts: Attempt[] = Array.from({ length: BURST }, (_, n) => ({
      name: `Stop Test ${n}`,
      key: randomUUID(),
    }));
    let created = 0;
    let signalledAt = Number.POSITIVE_INFINITY;
    let exitedAt = Number.POSITIVE_INFINITY;
    let stopping: Promise<void> | undefined;
    let next = 0;
    // Keep-alive connections that go on sending, as a proxy's do: a stop must not wait for them to go quiet.
    const lane = async () => {
      for (let attempt = attempts[next++]; attempt; attempt = attempts[next++]) {
        try {
          const response = await postJson(
            api,
            { ...validLead, fullName: attempt.name },
            { [IDEMPOTENCY_HEADER]: attempt.key },
          );
          attempt.status = response.status;
          attempt.answeredAt = performance.now();
          if (response.status === 201) attempt.id = ((await response.json()) as { id: string }).id;
          else await response.body?.cancel();
        } catch {
          // Refused or closed before the server took it: nothing was promised.
          continue;
        }
        if (attempt.status === 201 && (created += 1) === STOP_AFTER) {
          signalledAt = performance.now();
          // Timed to the process's exit, not to the end of the burst: the lanes go on knocking on a closed port after.
          stopping = server.stop('SIGTERM').then(() => {
            exitedAt = performance.now();
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    await stopping;
    const stoppedIn = exitedAt - signalledAt;

    expect(server.child.exitCode).toBe(0);
    expect(stoppedIn).toBeLessThan(ANSWER_WITHIN_MS);
    const answered = attempts.filter((attempt) => attempt.status !== undefined);
    expect(answered.every((attempt) => attempt.status === 201)).toBe(true);
    // Requests in flight at the signal were answered after it; the burst went on after the server was gone.
    expect(answered.some((attempt) => (attempt.answeredAt ?? 0) > signalledAt)).toBe(true);
    expect(answered.length).toBeLessThan(BURST);

    const after = stored(dbFile);
    expect(after).toMatchObject({ leads: answered.length, halves: 0, integrity: 'ok' });
    for (const attempt of attempts)
      expect(after.names.has(attempt.name), attempt.name).toBe(attempt.status === 201);
    expectNoPersonalData(server.output().split('\n'), [
      ...Object.values(validLead),
      ...attempts.map((attempt) => attempt.name),
    ]);
  }, 60_000);
});

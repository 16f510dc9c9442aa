// The promise behind every 2xx: the lead is on disk. The real server is killed with SIGKILL in the middle of a burst of
// submissions and started again on the same database: every lead it acknowledged is there, and its chat alert arrives.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../../core/form-rules.ts';
import { startServerProcess, type ServerProcess } from '../../../scripts/lib/server-process.ts';
import { postJson, startReceiver, validLead, waitFor, writeClientDir } from '../../helpers/fixtures.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

const BURST = 400;
const CONCURRENCY = 40;
// Killed once this many were acknowledged, with the rest of the burst still in flight.
const KILL_AFTER = 120;

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Attempt {
  key: string;
  body: typeof validLead;
  id?: string;
}

/** Sends every attempt, CONCURRENCY at a time, until all were tried; calls `onCreated` after each 201. */
async function burst(api: string, attempts: Attempt[], onCreated: (count: number) => void): Promise<void> {
  let next = 0;
  let created = 0;
  const lane = async () => {
    while (next < attempts.length) {
      const attempt = attempts[next++];
      if (!attempt) return;
      try {
        const response = await postJson(api, attempt.body, { [IDEMPOTENCY_HEADER]: attempt.key });
        if (response.status === 201) {
          attempt.id = ((await response.json()) as { id: string }).id;
          onCreated((created += 1));
        }
      } catch {
        // The server died under this request: it was never acknowledged, so nothing was promised.
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

describe('a crash in the middle of a burst', () => {
  it('loses no acknowledged lead, delivers every alert after the restart, and stores each key once', async () => {
    const dir = tempDir();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.stop());
    const env = {
      LEADS_DB: join(dir, 'leads.db'),
      CLIENT_DIR: writeClientDir(dir),
      CHAT_WEBHOOK_URL: receiver.url,
      CHAT_RETRY_BASE_MS: '20',
      // Short, so an alert claimed by the killed process is free again soon (its lease is twice this, plus a second).
      CHAT_TIMEOUT_MS: '500',
      FORM_RATE_LIMIT: '100000',
      LOG_LEVEL: 'trace',
    };
    const servers: ServerProcess[] = [];
    cleanups.push(() => Promise.all(servers.map((server) => server.stop('SIGKILL'))).then(() => undefined));

    const first = await startServerProcess({ env });
    servers.push(first);
    const attempts: Attempt[] = Array.from({ length: BURST }, (_, n) => ({
      key: randomUUID(),
      body: { ...validLead, fullName: `Crash Test ${n}`, memberId: `CRASH-${n}` },
    }));
    let killing: Promise<void> | undefined;
    await burst(`${first.url}/api/forms/insurance-verification`, attempts, (created) => {
      if (created === KILL_AFTER) killing = first.stop('SIGKILL');
    });
    await killing;
    expect(first.child.signalCode).toBe('SIGKILL');
    const acknowledged = attempts.filter((attempt) => attempt.id !== undefined);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    // The kill really came mid-burst: some requests were never answered.
    expect(acknowledged.length).toBeLessThan(BURST);

    const second = await first.restart();
    servers.push(second);
    const db = new Database(env.LEADS_DB, { readonly: true });
    cleanups.push(() => {
      db.close();
    });
    const stored = new Set(db.prepare('SELECT id FROM leads').pluck().all() as string[]);
    for (const attempt of acknowledged)
      expect(stored.has(attempt.id ?? ''), attempt.body.fullName).toBe(true);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

    // Every acknowledged lead's alert reaches the receiver, found by its lead id (a duplicate is allowed).
    const alerted = () =>
      new Set(receiver.calls.flatMap((call) => /\(lead ([\w-]+)\)$/.exec(call.json.text)?.[1] ?? []));
    await waitFor(() => acknowledged.every((attempt) => alerted().has(attempt.id ?? '')), 30_000);

    // The visitors whose request died retry with the same key: each gets one lead, never a second.
    const unanswered = attempts.filter((attempt) => attempt.id === undefined);
    await burst(`${second.url}/api/forms/insurance-verification`, unanswered, () => undefined);
    expect(unanswered.every((attempt) => attempt.id !== undefined)).toBe(true);
    const leads = db.prepare('SELECT COUNT(*) FROM leads').pluck().get() as number;
    expect(leads).toBe(BURST);
    const keys = db.prepare('SELECT COUNT(DISTINCT lead_id) FROM idempotency_keys').pluck().get() as number;
    expect(keys).toBe(BURST);
    await waitFor(
      () =>
        (db.prepare("SELECT COUNT(*) FROM alerts WHERE status = 'delivered'").pluck().get() as number) ===
        BURST,
      30_000,
    );
    expectNoPersonalData(
      servers.flatMap((server) => server.output().split('\n')),
      [...Object.values(validLead), ...attempts.flatMap((attempt) => Object.values(attempt.body))],
    );
  }, 120_000);
});

// The promise behind every stored lead: its chat alert reaches admissions, however long chat is down. The real server
// process sends to a real local webhook that is down (503) for many times the span after which alerts used to be given
// up, with leads arriving during the outage; then chat comes back. And an alert that cannot be delivered for
// CHAT_ALERT_MAX_AGE_H is marked dead, said so in the log and in /healthz, and sent again after `retry-dead`.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../../content/paths.ts';
import { runLeadsCli } from '../../../server/cli/leads.ts';
import {
  startServerProcess,
  type ServerEnv,
  type ServerProcess,
} from '../../../scripts/lib/server-process.ts';
import {
  createdId,
  postJson,
  startReceiver,
  validLead,
  waitFor,
  writeClientDir,
} from '../../helpers/fixtures.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

/** The server's first start stores its build as release 1 and serves it. */
const LIVE_RELEASE = { id: 1, live: 1, behindSeconds: 0 };

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface AlertRow {
  lead_id: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

/** A webhook that answers 503 while `down`, recording what it answered to each call. */
async function chat() {
  const state = { down: true, answers: [] as number[] };
  const receiver = await startReceiver(() => {
    const status = state.down ? 503 : 200;
    state.answers.push(status);
    return { status, body: state.down ? 'down' : 'ok' };
  });
  cleanups.push(() => receiver.stop());
  const failed = () => state.answers.filter((status) => status === 503).length;
  /** The texts of the messages the webhook took. */
  const taken = () => receiver.calls.filter((_, n) => state.answers[n] === 200).map((call) => call.json.text);
  return { state, receiver, failed, taken };
}

/** The real server on a throwaway database whose alerts go to `webhook`, and a reader of its alerts. */
async function serve(webhook: string, env: ServerEnv) {
  const dir = tempDir();
  const dbFile = join(dir, 'leads.db');
  const server: ServerProcess = await startServerProcess({
    env: {
      LEADS_DB: dbFile,
      CLIENT_DIR: writeClientDir(dir),
      CHAT_WEBHOOK_URL: webhook,
      FORM_RATE_LIMIT: '100000',
      LOG_LEVEL: 'trace',
      ...env,
    },
  });
  cleanups.push(() => server.stop());
  const alerts = (): AlertRow[] => {
    const db = new Database(dbFile, { readonly: true });
    try {
      return db.prepare('SELECT lead_id, status, attempts, last_error FROM alerts').all() as AlertRow[];
    } finally {
      db.close();
    }
  };
  const submit = async (n: number) =>
    createdId(
      await postJson(`${server.url}/api/forms/insurance-verification`, {
        ...validLead,
        fullName: `Outage Test ${n}`,
      }),
    );
  const health = async () => {
    const response = await fetch(`${server.url}/healthz`);
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return { server, dbFile, alerts, submit, health };
}

/** Every personal value a test lead carries, none of which may reach a log, at any level. */
const personal = [...Object.values(validLead), ...Array.from({ length: 20 }, (_, n) => `Outage Test ${n}`)];

describe('a chat outage', () => {
  // The tries the outage lasts, all alerts together; and the tries after which an alert used to be marked dead.
  const OUTAGE_TRIES = 40;
  const OLD_LIMIT = 8;
  const LEADS = 5;

  it('delays alerts but loses none: every lead stored during it reaches chat once chat is back', async () => {
    const webhook = await chat();
    const site = await serve(webhook.receiver.url, { CHAT_RETRY_BASE_MS: '20', CHAT_RETRY_MAX_MS: '200' });

    const ids: string[] = [];
    for (let n = 0; n < LEADS; n += 1) {
      await waitFor(() => webhook.failed() >= (n * OUTAGE_TRIES) / LEADS, 60_000);
      ids.push(await site.submit(n));
    }
    // The first lead's alert has failed more often than the old limit allowed, and is still waiting.
    await waitFor(() => webhook.failed() >= OUTAGE_TRIES, 60_000);
    await waitFor(
      () => (site.alerts().find((row) => row.lead_id === ids[0])?.attempts ?? 0) > OLD_LIMIT,
      60_000,
    );
    const during = site.alerts();
    expect(during).toHaveLength(LEADS);
    for (const row of during) expect(row).toMatchObject({ status: 'pending', last_error: 'HTTP 503: down' });
    expect(await site.health()).toEqual({
      status: 200,
      body: {
        status: 'ok',
        alerts: { pending: LEADS, dead: 0, oldestPendingSeconds: expect.any(Number) },
        release: LIVE_RELEASE,
      },
    });
    expect(webhook.taken()).toEqual([]);

    webhook.state.down = false;
    await waitFor(() => site.alerts().every((row) => row.status === 'delivered'), 30_000);
    // Each lead reached chat, found by the lead id every message carries (a duplicate would be recognisable by it).
    const leadsTaken = webhook.taken().map((text) => /\(lead ([\w-]+)\)$/.exec(text)?.[1]);
    expect(new Set(leadsTaken)).toEqual(new Set(ids));
    expect(await site.health()).toEqual({
      status: 200,
      body: { status: 'ok', alerts: { pending: 0, dead: 0, oldestPendingSeconds: 0 }, release: LIVE_RELEASE },
    });
    const logs = site.server.logs();
    expect(logs.filter((line) => line.level === 50)).toEqual([]);
    expect(logs.filter((line) => line.msg === 'chat alert failed').length).toBeGreaterThanOrEqual(
      OUTAGE_TRIES,
    );
    const text = site.server.output();
    expectNoPersonalData(text.split('\n'), personal);
  }, 120_000);

  it('marks an alert dead only after CHAT_ALERT_MAX_AGE_H, reports it, and retry-dead sends it again', async () => {
    const webhook = await chat();
    // 0.001 hours is 3.6 seconds.
    const site = await serve(webhook.receiver.url, {
      CHAT_RETRY_BASE_MS: '20',
      CHAT_RETRY_MAX_MS: '200',
      CHAT_ALERT_MAX_AGE_H: '0.001',
    });
    const id = await site.submit(1);
    const dead = await waitFor(() => site.alerts().find((row) => row.status === 'dead'), 30_000);
    expect(dead).toMatchObject({ lead_id: id, last_error: 'HTTP 503: down' });
    // Retried all along, far beyond the count after which it used to be given up.
    expect(dead.attempts).toBeGreaterThan(OLD_LIMIT);

    const error = await waitFor(() =>
      site.server.logs().find((line) => line.level === 50 && line.leadId === id),
    );
    expect(error).toMatchObject({ msg: expect.stringMatching(/^chat alert dead/), error: 'HTTP 503: down' });
    // Given up no earlier than its age allows: the error is logged at least 3.6 s after the lead was stored.
    const storedAt = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(Date.parse(String(error.time))).toBeGreaterThanOrEqual(storedAt + 3600);
    expectNoPersonalData(site.server.output().split('\n'), personal);
    expect(await site.health()).toEqual({
      status: 200,
      body: {
        status: 'degraded',
        alerts: { pending: 0, dead: 1, oldestPendingSeconds: 0 },
        release: LIVE_RELEASE,
      },
    });

    const out: string[] = [];
    const code = await runLeadsCli(['retry-dead'], {
      env: { LEADS_DB: site.dbFile },
      cwd: ROOT,
      out: (text) => out.push(text),
      err: (text) => out.push(text),
    });
    expect(code).toBe(0);
    expect(out.join('')).toMatch(/^1 dead chat alert put back to pending/);
    // Back to pending with a fresh CHAT_ALERT_MAX_AGE_H: chat is still down, and it keeps being retried.
    expect(site.alerts()).toEqual([expect.objectContaining({ lead_id: id, status: 'pending' })]);
    expect((await site.health()).body).toMatchObject({ status: 'ok', alerts: { pending: 1, dead: 0 } });

    webhook.state.down = false;
    await waitFor(() => site.alerts()[0]?.status === 'delivered', 30_000);
    expect(webhook.taken()).toEqual([expect.stringContaining(`(lead ${id})`)]);
    expect((await site.health()).body).toEqual({
      status: 'ok',
      alerts: { pending: 0, dead: 0, oldestPendingSeconds: 0 },
      release: LIVE_RELEASE,
    });
  }, 120_000);
});

// The server on PostgreSQL (DATABASE_URL), end to end: a lead stored and alerted; FORM_RATE_LIMIT held across two
// instances on one database; the database killed mid-burst, visitors told in time with the phone number (never a hang
// nor a 500), and the same server recovering once it is back: new leads stored, the alerts left pending delivered.
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createSealer } from '../../../server/store/shared/sealing.ts';
import type { LeadRow } from '../../../server/store/contract/rows.ts';
import { postgresPerTest } from '../../helpers/postgres-per-test.ts';
import { startReceiver, waitFor } from '../../helpers/fixtures.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';
import {
  ANSWER_BOUND_MS,
  FAULT_LEAD_VALUES,
  cleanupsAfterEach,
  expectCallUs,
  submit,
  type Answer,
} from './store-faults.ts';

const defer = cleanupsAfterEach();

describe('the server on PostgreSQL', () => {
  const postgres = postgresPerTest(defer);

  async function server(url: string, key: Buffer, options: Parameters<typeof startInProcessServer>[0] = {}) {
    const started = await startInProcessServer({ databaseUrl: url, key, retryMaxMs: 200, ...options });
    defer(() => started.stop());
    return started;
  }

  /** The names of the leads PostgreSQL holds, opened with the key: the database itself holds none in clear. */
  async function storedNames(reader: pg.Pool, key: Buffer): Promise<string[]> {
    const { rows } = await reader.query<LeadRow>('SELECT id, form_id, data, sealed FROM leads');
    for (const row of rows) expect(`${row.data}${row.sealed}`).not.toMatch(/Fault Test|FAULT-|4477/);
    const sealer = createSealer(key);
    return rows.map((row) => sealer.openAll(row).fullName ?? '');
  }

  it('stores a lead in PostgreSQL and delivers its alert', async () => {
    const receiver = await startReceiver();
    defer(() => receiver.stop());
    const { url, reader } = await postgres.database('server');
    const key = randomBytes(32);
    const running = await server(url, key, { webhookUrl: receiver.url });
    const answer = await submit(running.api, 1, { key: randomUUID() });
    expect(answer.status, answer.text).toBe(201);
    const { id } = JSON.parse(answer.text) as { id: string };
    expect(await storedNames(reader, key)).toEqual(['Fault Test 1']);
    await waitFor(() => receiver.calls.some((call) => call.json.text.endsWith(`(lead ${id})`)));
    // Marked delivered once the webhook's answer is back, a moment after the receiver has the message.
    await waitFor(
      async () => (await reader.query('SELECT status FROM alerts')).rows[0]?.status === 'delivered',
    );
    expect((await reader.query('SELECT status FROM alerts')).rows).toEqual([{ status: 'delivered' }]);
  });

  it('holds FORM_RATE_LIMIT across two instances on one database', async () => {
    const { url } = await postgres.database('server');
    const key = randomBytes(32);
    const [one, two] = [await server(url, key, { rateLimit: 3 }), await server(url, key, { rateLimit: 3 })];
    const apis = [one.api, two.api, one.api, two.api];
    const statuses: number[] = [];
    for (const [n, api] of apis.entries()) statuses.push((await submit(api, n)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('answers 503 with the phone number while PostgreSQL is down, and recovers without a restart', async () => {
    // Admissions' chat refuses until the database is back, so alerts are still pending when it comes back.
    let chatUp = false;
    const accepted: number[] = [];
    const receiver = await startReceiver((call) => {
      if (!chatUp) return { status: 503, body: 'unavailable' };
      accepted.push(call);
      return { status: 200, body: 'ok' };
    });
    defer(() => receiver.stop());
    const { url, reader } = await postgres.database('server');
    const key = randomBytes(32);
    const running: InProcessServer = await server(url, key, { webhookUrl: receiver.url });
    expect((await submit(running.api, 0, { key: randomUUID() })).status).toBe(201);

    const keys = Array.from({ length: 16 }, () => randomUUID());
    const burst = keys.map((idempotencyKey, n) => submit(running.api, 100 + n, { key: idempotencyKey }));
    await Promise.race(burst);
    postgres.cluster.kill();
    let down = true;
    defer(() => void (down && postgres.cluster.start()));
    const during = await Promise.all([
      ...burst,
      submit(running.api, 200, { key: randomUUID() }),
      submit(running.api, 201, { plain: true }),
    ]);
    const inTime = (answer: Answer) => {
      expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
      if (answer.status !== 201) expectCallUs(answer, answer.type.startsWith('text/html'));
    };
    during.forEach(inTime);
    // Nothing sent once the database was gone can have been stored. How much of the burst was committed before the
    // kill is the batch writer's to decide (all of it in one batch, or none): each answer is a 201 or the bounded 503,
    // and the resends below get one lead per key either way.
    expect(during.slice(-2).map((answer) => answer.status)).toEqual([503, 503]);

    postgres.cluster.start();
    down = false;
    // start() waits for pg_ctl synchronously, holding this process's event loop (the server's and fetch's) for seconds:
    // the server's keep-alive timers then close idle sockets that fetch has not yet seen closed, and it would send the
    // next request on one (ECONNRESET, one run in two on a loaded machine). A turn of I/O lets it see them closed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await submit(running.api, 300, { key: randomUUID() });
    expect(next.status, next.text).toBe(201);
    // Each visitor of the burst who sends again with the same key gets one lead, stored now or before the outage.
    const again = await Promise.all(
      keys.map((idempotencyKey, n) => submit(running.api, 100 + n, { key: idempotencyKey })),
    );
    expect(again.map((answer) => answer.status)).toEqual(keys.map(() => 201));
    for (const [n, first] of during.slice(0, keys.length).entries())
      if (first.status === 201) expect(JSON.parse(again[n]?.text ?? '')).toEqual(JSON.parse(first.text));
    const names = await storedNames(reader, key);
    expect(names.sort()).toEqual(
      ['Fault Test 0', 'Fault Test 300', ...keys.map((_, n) => `Fault Test ${100 + n}`)].sort(),
    );

    // Admissions' chat is back: every stored lead's alert arrives, the ones left pending by the outage included.
    chatUp = true;
    const { rows } = await reader.query<{ id: string }>('SELECT id FROM leads');
    const alerted = () =>
      new Set(
        accepted.map((call) => /\(lead ([\w-]+)\)$/.exec(receiver.calls[call - 1]?.json.text ?? '')?.[1]),
      );
    await waitFor(() => rows.every((row) => alerted().has(row.id)), 20_000);
    expectNoPersonalData(running.logs, FAULT_LEAD_VALUES);
  }, 90_000);
});

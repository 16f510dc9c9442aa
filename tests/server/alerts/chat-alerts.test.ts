import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson, startReceiver, validLead, waitFor } from '../../helpers/fixtures.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverWith(options: Parameters<typeof startInProcessServer>[0]): Promise<InProcessServer> {
  const server = await startInProcessServer(options);
  cleanups.push(() => server.stop());
  return server;
}
async function receiverWith(script: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(script);
  cleanups.push(() => receiver.stop());
  return receiver;
}

async function submit(server: InProcessServer): Promise<string> {
  const response = await postJson(`${server.url}/api/forms/insurance-verification`, validLead);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('chat alerts', () => {
  it('without CHAT_WEBHOOK_URL still stores the lead, keeps its alert pending and warns at start and per lead', async () => {
    const server = await serverWith({ webhookUrl: undefined });
    const id = await submit(server);
    expect((await server.store.getLead(id))?.data.fullName).toBe(validLead.fullName);
    expect(await server.store.getAlert(id)).toMatchObject({ status: 'pending', attempts: 0 });
    const warnings = server.logs.filter((line) => line.level === 40);
    expect(warnings).toContainEqual(
      expect.objectContaining({ msg: expect.stringMatching(/^CHAT_WEBHOOK_URL is not set/) }),
    );
    expect(warnings).toContainEqual(expect.objectContaining({ leadId: id }));
  });

  it('sends no visitor value by default, and with CHAT_ALERT_DETAIL=contact the name and a tap-to-call number only', async () => {
    const receiver = await receiverWith(() => ({ status: 200 }));
    const plain = await serverWith({ webhookUrl: receiver.url });
    const first = await submit(plain);
    const contact = await serverWith({ webhookUrl: receiver.url, alertDetail: 'contact' });
    const second = await submit(contact);
    const messageOf = (id: string) =>
      waitFor(() => receiver.calls.find((call) => call.raw.includes(id))?.raw);
    const withNothing = await messageOf(first);
    for (const value of [...Object.values(validLead), '(555) 010-4477', 'Blue Cross'])
      expect(withNothing).not.toContain(value);
    expect(withNothing).toContain(`/staff/leads/${first}`);
    const withContact = await messageOf(second);
    expect(withContact).toContain(validLead.fullName);
    expect(withContact).toContain('<tel:+15550104477|(555) 010-4477>');
    const others = Object.entries(validLead).filter(([name]) => name !== 'fullName' && name !== 'phone');
    for (const [, value] of [...others, ['', 'Blue Cross']]) expect(withContact).not.toContain(value);
  });

  it('retries after failures until the receiver takes the alert', async () => {
    const receiver = await receiverWith((call) =>
      call <= 2 ? { status: 500, body: 'boom' } : { status: 200 },
    );
    const server = await serverWith({ webhookUrl: receiver.url, retryBaseMs: 5 });
    const id = await submit(server);
    const alert = await waitFor(async () => {
      const state = await server.store.getAlert(id);
      return state?.status === 'delivered' && state;
    });
    expect(alert.attempts).toBe(3);
    expect(receiver.calls).toHaveLength(3);
    // The same message each time, so a duplicate after a crash is recognisable by its lead id.
    for (const call of receiver.calls) expect(call.json.text).toContain(id);
    expect(server.logs.filter((line) => line.msg === 'chat alert failed')).toHaveLength(2);
  });

  it('honours Retry-After on 429 instead of its own much shorter backoff, and does not count the try', async () => {
    const calledAt: number[] = [];
    const receiver = await receiverWith(() => {
      calledAt.push(Date.now());
      return { status: 429, headers: { 'Retry-After': '120' } };
    });
    const server = await serverWith({ webhookUrl: receiver.url, retryBaseMs: 1 });
    const id = await submit(server);
    const alert = await waitFor(async () => {
      const state = await server.store.getAlert(id);
      return state?.lastError ? state : undefined;
    });
    // A rate-limited try says nothing about the alert: it is not one of its attempts.
    expect(alert).toMatchObject({ status: 'pending', attempts: 0, lastError: 'HTTP 429' });
    expect(alert.nextAttemptAt - (calledAt[0] ?? 0)).toBeGreaterThanOrEqual(119_000);
    expect(receiver.calls).toHaveLength(1);
  });

  it('delivers once the Retry-After pause is over', async () => {
    const receiver = await receiverWith((call) =>
      call === 1 ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 200 },
    );
    const server = await serverWith({ webhookUrl: receiver.url, retryBaseMs: 1 });
    const id = await submit(server);
    await waitFor(async () => (await server.store.getAlert(id))?.status === 'delivered');
    expect(receiver.calls).toHaveLength(2);
  });

  it('gives a call that hangs up to its timeout, then retries', async () => {
    const receiver = await receiverWith((call) =>
      call === 1 ? { status: 200, hang: true } : { status: 200 },
    );
    const server = await serverWith({ webhookUrl: receiver.url, retryBaseMs: 5, timeoutMs: 200 });
    const id = await submit(server);
    await waitFor(async () => (await server.store.getAlert(id))?.status === 'delivered');
    expect(server.logs).toContainEqual(
      expect.objectContaining({ leadId: id, error: 'timed out after 200 ms' }),
    );
  });

  it('sends a backlog in rounds of up to 16 calls at once, each alert once; after a failure, one call probes', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'leads.db');
    const BACKLOG = 40;
    const first = await startInProcessServer({ webhookUrl: undefined, dbFile });
    const ids = await Promise.all(Array.from({ length: BACKLOG }, () => submit(first)));
    await first.stop();

    // The first round meets a chat service that is down, and so do the next two calls; then it takes everything.
    // Each call is held 400 ms, so the calls of one round are all in flight together, even on a busy machine.
    const FAILING = 18;
    const HOLD_MS = 400;
    let inFlight = 0;
    const inFlightAtArrival: number[] = [];
    const receiver = await receiverWith((call) => {
      inFlight += 1;
      inFlightAtArrival.push(inFlight);
      // Registered before the receiver's own timer of the same length, so it runs first: a call the worker makes
      // after an answer never counts the answered one.
      setTimeout(() => (inFlight -= 1), HOLD_MS);
      return call <= FAILING
        ? { status: 503, body: 'down', delayMs: HOLD_MS }
        : { status: 200, delayMs: HOLD_MS };
    });
    const second = await serverWith({ webhookUrl: receiver.url, dbFile, retryBaseMs: 5, retryMaxMs: 20 });
    await waitFor(async () => {
      const states = await Promise.all(ids.map((id) => second.store.getAlert(id)));
      return states.every((state) => state?.status === 'delivered');
    }, 20_000);

    // The first round: 16 calls at once, not one and not all 40.
    expect(Math.max(...inFlightAtArrival.slice(0, 16))).toBe(16);
    // After it failed, one call at a time asks whether chat is back: the two that failed, and the one that took.
    expect(inFlightAtArrival.slice(16, FAILING + 1)).toEqual([1, 1, 1]);
    // Then rounds again, never more than 16 calls at once.
    expect(Math.max(...inFlightAtArrival.slice(FAILING + 1))).toBeGreaterThan(1);
    expect(Math.max(...inFlightAtArrival)).toBe(16);
    // Each lead reached chat once.
    const taken = receiver.calls
      .filter((call) => call.status === 200)
      .map((call) => /\(lead ([\w-]+)\)$/.exec(call.json.text)?.[1]);
    expect(taken.sort()).toEqual([...ids].sort());
  });

  it('delivers alerts left pending by an earlier run, and stop() waits for the call in flight', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'leads.db');

    const first = await startInProcessServer({ webhookUrl: undefined, dbFile });
    const id = await submit(first);
    await first.stop();

    const receiver = await receiverWith(() => ({ status: 200, delayMs: 200 }));
    const second = await startInProcessServer({ webhookUrl: receiver.url, dbFile });
    await waitFor(() => receiver.calls.length === 1);
    await second.stop();

    const db = new Database(dbFile, { readonly: true });
    const row = db.prepare('SELECT status, attempts FROM alerts WHERE lead_id = ?').get(id);
    db.close();
    expect(row).toEqual({ status: 'delivered', attempts: 1 });
    expect(receiver.calls[0]?.json.text).toContain(id);
  });
});

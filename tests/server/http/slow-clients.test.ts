// Clients that hold a socket without finishing their request (slow headers, a slow body, silence), as a slow-loris
// attack does: each socket is closed by its configured time while other visitors are served meanwhile; and the
// connection cap closes a connection over it at once.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../../scripts/lib/server-process.ts';
import { SERVER_LIMITS } from '../../../server/http/http-server.ts';
import { postJson, validLead, writeClientDir } from '../../helpers/fixtures.ts';
import { useTempDirForAll } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

// A timeout is checked every SERVER_LIMITS.checkEveryMs; a second more for a busy test machine.
const LATE_BY_AT_MOST_MS = SERVER_LIMITS.checkEveryMs + 1_000;

// Asked for before the server's hooks, so removed after it stops (vitest runs "after" hooks in reverse).
const tempDir = useTempDirForAll('server-test-');
let server: ServerProcess;
let port: number;
beforeAll(async () => {
  const dir = tempDir();
  server = await startServerProcess({
    env: {
      LEADS_DB: ':memory:',
      CLIENT_DIR: writeClientDir(dir),
      FORM_RATE_LIMIT: '100000',
      LOG_LEVEL: 'trace',
    },
  });
  port = Number(new URL(server.url).port);
});
afterAll(() => server.stop());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

interface Trickled {
  /** Milliseconds from the first byte to the socket's close. */
  closedAfterMs: number;
  received: string;
}

/** Sends `first`, then `more` every second until the server closes the socket. */
async function trickle(first: string, more: string): Promise<Trickled> {
  const socket = await open();
  let received = '';
  socket.setEncoding('utf8').on('data', (text: string) => (received += text));
  socket.on('error', () => undefined); // a reset is a close too
  const started = performance.now();
  socket.write(first);
  const timer = setInterval(() => socket.writable && socket.write(more), 1_000);
  await new Promise((resolve) => socket.once('close', resolve));
  clearInterval(timer);
  return { closedAfterMs: performance.now() - started, received };
}

/** Visitors served while the slow clients hang on: a page and a submission every half second. */
async function visitorsUntil(done: Promise<unknown>): Promise<number[]> {
  const statuses: number[] = [];
  let over = false;
  void done.finally(() => (over = true));
  while (!over) {
    const page = await fetch(`${server.url}/`);
    await page.body?.cancel();
    const lead = await postJson(`${server.url}/api/forms/insurance-verification`, validLead);
    await lead.body?.cancel();
    statuses.push(page.status, lead.status);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return statuses;
}

describe('slow clients', () => {
  it('lose their socket by the configured time, while other visitors are served', async () => {
    const slow = Promise.all([
      // Headers that never end.
      trickle('POST /api/forms/insurance-verification HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n'),
      // A body that crawls: 4000 bytes announced, ten a second.
      trickle(
        `POST /api/forms/insurance-verification HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\n` +
          `Origin: ${server.url}\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"fullName":"`,
        'aaaaaaaaaa',
      ),
      // Connected, and silent.
      trickle('', ''),
    ]);
    const statuses = await visitorsUntil(slow);
    const [headers, body, silent] = await slow;

    for (const socket of [headers, silent]) {
      expect(socket.closedAfterMs).toBeLessThan(SERVER_LIMITS.headersTimeoutMs + LATE_BY_AT_MOST_MS);
      expect(socket.closedAfterMs).toBeGreaterThan(SERVER_LIMITS.headersTimeoutMs - 1_000);
    }
    expect(headers.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(body.closedAfterMs).toBeLessThan(SERVER_LIMITS.requestTimeoutMs + LATE_BY_AT_MOST_MS);
    expect(body.closedAfterMs).toBeGreaterThan(SERVER_LIMITS.requestTimeoutMs - 1_000);
    expect(body.received).toMatch(/^HTTP\/1\.1 408 /);

    expect(statuses.length).toBeGreaterThan(10);
    expect(new Set(statuses)).toEqual(new Set([200, 201]));
  }, 40_000);

  it('close an idle keep-alive connection after the keep-alive timeout', async () => {
    const idle = await trickle('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '');
    expect(idle.received).toMatch(/^HTTP\/1\.1 200 /);
    // Node waits a second past the timeout it announces, so a client never reuses a connection as it closes.
    expect(idle.closedAfterMs).toBeLessThan(SERVER_LIMITS.keepAliveTimeoutMs + LATE_BY_AT_MOST_MS);
  });

  it('over the connection cap: the next connection is closed at once, and served again once there is room', async () => {
    const held: Socket[] = [];
    try {
      while (held.length < SERVER_LIMITS.maxConnections) held.push(await open());
      const over = await open();
      await new Promise((resolve) => over.once('close', resolve));
      for (const socket of held.splice(0, 10)) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  }, 30_000);
});

describe('while clients are slow', () => {
  it('logs, at every level, none of the values of the lead it took', () => {
    expectNoPersonalData(server.output().split('\n'), Object.values(validLead));
  });
});

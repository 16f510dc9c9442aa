// A real local HTTP server on 127.0.0.1 standing in for Slack's incoming webhook: it records every call as it comes and
// answers each from a script (a status, after a delay, or never, so that the sender's timeout must cut the call). The one
// receiver of the server and browser tests and of the lead benchmark, so it imports no test framework.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { addressOf } from '../../server/http/http-server.ts';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer: the sender's timeout must cut the call. */
  hang?: boolean;
  /** Answer after this many milliseconds. */
  delayMs?: number;
}

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  json: { text: string; blocks: unknown[] };
  /** The status it is answered with (also for one that hangs or waits: the script's answer). */
  status: number;
}

export interface Receiver {
  url: string;
  /** Every call, in the order they came, recorded before it is answered; none when started with `record: false`. */
  calls: Received[];
  /** The messages it took (answered 200), as the sender sent them. */
  readonly messages: Received['json'][];
  /** How many calls came, recorded or not. */
  received: () => number;
  stop: () => Promise<void>;
}

/** Takes every message, as Slack does: 200 `ok`. */
const TAKE_ALL = (): Reply => ({ status: 200, body: 'ok' });

/**
 * `script` answers the nth call (counted from 1). `record: false` only counts the calls: a benchmark's many thousands of
 * alerts are not kept in memory.
 */
export async function startReceiver(
  script: (call: number) => Reply = TAKE_ALL,
  { record = true }: { record?: boolean } = {},
): Promise<Receiver> {
  const calls: Received[] = [];
  let received = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      if (record) chunks.push(chunk);
    });
    req.on('end', () => {
      received += 1;
      const reply = script(received);
      if (record) {
        const raw = Buffer.concat(chunks).toString('utf8');
        calls.push({
          headers: req.headers,
          raw,
          json: JSON.parse(raw) as Received['json'],
          status: reply.status,
        });
      }
      if (reply.hang) return;
      setTimeout(() => res.writeHead(reply.status, reply.headers).end(reply.body ?? ''), reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${addressOf(server)}/services/T000/B000/XXXX`,
    calls,
    get messages() {
      return calls.filter((call) => call.status === 200).map((call) => call.json);
    },
    received: () => received,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

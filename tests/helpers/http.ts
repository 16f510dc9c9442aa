// The tests' one way to send HTTP that fetch would change: `exactRequest` sends a target, a Host and conditional or
// encoding headers exactly as written and returns the body undecoded (node:http); `rawExchange` writes bytes by hand on
// a socket, for framing node:http itself would correct or refuse to send (an absolute-form target, `/\host`, raw `..`).
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

export interface ExactAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it came, never decoded (a brotli body stays brotli). */
  body: Buffer;
}

export interface ExactRequest {
  /** The request target as written: fetch would normalise `..` away. Default: the URL's own path. */
  path?: string;
  method?: string;
  /** Sent as given: a `host` here replaces the URL's; fetch would add `Cache-Control` to a conditional GET. */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A limit against a hung server, never a measurement: the request is dropped, and the promise rejects. */
  timeoutMs?: number;
}

/** One request to `url`'s host and port on a connection of its own, as written; resolves with the whole answer. */
export function exactRequest(url: string, options: ExactRequest = {}): Promise<ExactAnswer> {
  const { hostname, port, pathname, search } = new URL(url);
  const { path = pathname + search, method = 'GET', headers = {}, body, timeoutMs = 10_000 } = options;
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer from ${url} in ${timeoutMs} ms`)));
    req.end(body);
  });
}

export interface RawAnswer {
  /** The status of the answer, or 0 when the server closed without one. */
  status: number;
  /** Header names in lower case; the last value of a repeated one. */
  headers: Record<string, string>;
  /** What came after the head, as latin1 (no decoding of any transfer coding). */
  body: string;
}

/**
 * Sends `bytes` on a fresh connection to `url`'s host and port and reads until the server closes or `timeoutMs` passes
 * (a limit against a hung server, never a measurement). `stopAtHead` returns as soon as the whole head has arrived.
 */
export function rawExchange(
  url: string,
  bytes: string | Buffer,
  { timeoutMs = 5000, stopAtHead = false } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(parseAnswer(text));
    };
    socket.setTimeout(timeoutMs, done);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (stopAtHead && text.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.end(bytes);
  });
}

function parseAnswer(text: string): RawAnswer {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: match ? Number(match[1]) : 0, headers, body: end === -1 ? '' : text.slice(end + 4) };
}

/** A GET of `target` exactly as written, closing the connection after the answer. */
export const rawGet = (url: string, target: string, headers: Record<string, string> = {}) =>
  rawExchange(
    url,
    `GET ${target} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nConnection: close\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      '\r\n',
  );

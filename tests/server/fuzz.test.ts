// Thousands of requests no browser would send, generated from a fixed seed (so a failure can be replayed): malformed
// and hostile bodies, content types, encodings, huge and odd headers, odd methods and paths, broken HTTP on a raw
// socket. None may get a 5xx or leave an error in the log, and the server must still take a real lead afterwards.
import { request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '../../core/form-rules.ts';
import { createdId, postJson, validLead } from './fixtures.ts';
import { startInProcessServer, type InProcessServer } from './in-process-server.ts';

const REQUESTS = 3000;
const RAW_REQUESTS = 300;
const CONCURRENCY = 16;
// A limit against a hung run, never a measurement: the loop stops early rather than fail on a slow machine.
const BUDGET_MS = 45_000;

let server: InProcessServer;
let port: number;
beforeAll(async () => {
  server = await startInProcessServer({ rateLimit: 1_000_000 });
  port = Number(new URL(server.url).port);
});
afterAll(() => server.stop());

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function seeded(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  return { next, int, pick, bytes };
}
const random = seeded(20260108);

const FORMS = ['insurance-verification', 'widget-insurance', 'consultation'];
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const contentTypes = [
  JSON_TYPE,
  FORM_TYPE,
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin-9',
  'application/json;;;',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/*',
  'application/json+x',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=----x',
  'application/xml',
  '',
  ';',
  'json',
  `application/json; x=${'a'.repeat(3000)}`,
];

/** A value that is almost, or not at all, what a field expects. */
function oddValue(): unknown {
  return random.pick<() => unknown>([
    () => '',
    () => ' ',
    () => null,
    () => random.int(1e9),
    () => -0,
    () => 1e309,
    () => true,
    () => [],
    () => ['a', 'b'],
    () => ({}),
    () => ({ nested: { deeper: 'x' } }),
    () => 'x'.repeat(random.int(5000)),
    () => '\u0000\u0001\u001f',
    () => '\ud800',
    () => '😀'.repeat(100),
    () => '<script>alert(1)</script>',
    () => '<!channel> @here',
    () => "'; DROP TABLE leads; --",
    () => '../../../etc/passwd',
    () => '=cmd|"/c calc"!A0',
    () => '%00%0d%0a',
    () => '(555) 010-4477',
    () => '1987-02-30',
    () => 'aetna',
  ])();
}

function jsonBody(): string | Buffer {
  const fields = Object.keys(validLead);
  return random.pick<() => string | Buffer>([
    () => JSON.stringify({ ...validLead, [random.pick(fields)]: oddValue() }),
    () => JSON.stringify(Object.fromEntries(fields.map((name) => [name, oddValue()]))),
    () => JSON.stringify({ ...validLead, [`extra${random.int(99)}`]: oddValue() }),
    () => JSON.stringify({ ...validLead, [HONEYPOT_FIELD]: oddValue() }),
    () => JSON.stringify(validLead).slice(0, random.int(120)),
    () => `{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"fullName":"a"}`,
    () => `{"fullName":"a","fullName":"b","source":"/"}`,
    () => '['.repeat(random.int(20_000)),
    () => `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
    () => `{"n":${'9'.repeat(1000)}}`,
    () => '"\\uD800"',
    () => '\ufeff{"fullName":"a"}',
    () => random.bytes(random.int(400)),
    () => Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
    () => JSON.stringify({ ...validLead, fullName: 'x'.repeat(17_000) }),
    () => '',
    () => 'null',
    () => '1',
    () => JSON.stringify(validLead),
  ])();
}

function formBody(): string {
  return random.pick<() => string>([
    () =>
      new URLSearchParams({
        ...validLead,
        [random.pick(Object.keys(validLead))]: String(oddValue()),
      }).toString(),
    () => 'a=1&'.repeat(random.int(300)),
    () => 'fullName=a&fullName=b&source=%2F',
    () => 'fullName[]=a&source=/',
    () => '%%%&&&===',
    () => `source=${'%'.repeat(random.int(100))}`,
    () => `${HONEYPOT_FIELD}=1&source=/`,
    () => random.bytes(random.int(200)).toString('latin1'),
    () => `fullName=${'x'.repeat(20_000)}`,
  ])();
}

/** Percent-encoded; a lone surrogate, which encodeURIComponent refuses, as the bytes a careless client would send. */
function queryValue(value: unknown): string {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return '%ED%A0%80';
  }
}

function path(): string {
  const form = random.pick(FORMS);
  return random.pick<() => string>([
    () => `/api/forms/${form}`,
    () => `/api/forms/${form}?x=${queryValue(oddValue())}`,
    () => `/api/forms/${form}/extra`,
    () => `/api/forms/${form}%00`,
    () => '/api/forms/%E0%A4%A',
    () => '/api/forms/%',
    () => '/api/forms/..%2F..%2Fsecret.txt',
    () => `/api/forms/${'a'.repeat(random.int(8000))}`,
    () => '/api/forms/',
    () => '/api/forms',
    () => '/api//forms//insurance-verification',
    () => `/forms/${form}/received?from=${queryValue(oddValue())}`,
    () => '/forms/%ZZ/received',
    () => `/${random.bytes(20).toString('hex')}`,
    () => '/services/medical-detox/',
    () => '/?q=%',
  ])();
}

interface Sent {
  status: number;
  label: string;
}

/** One request through node's client; a request the client itself refuses to send counts as status -1. */
function send(): Promise<Sent> {
  const method = random.pick([
    'POST',
    'POST',
    'POST',
    'POST',
    'GET',
    'HEAD',
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'PROPFIND',
    'FOO',
  ]);
  const type = random.pick(contentTypes);
  let body: string | Buffer = type.includes('urlencoded') ? formBody() : jsonBody();
  const headers: Record<string, string | number> = { 'Content-Type': type };
  const encoding = random.pick([
    '',
    '',
    '',
    'gzip',
    'gzip-bomb',
    'gzip-broken',
    'deflate',
    'br',
    'x-unknown',
  ]);
  if (encoding === 'gzip') body = gzipSync(body);
  if (encoding === 'gzip-bomb') body = gzipSync(Buffer.alloc(5_000_000, 'a'));
  if (encoding === 'gzip-broken') body = Buffer.concat([gzipSync(body).subarray(0, 10), random.bytes(20)]);
  if (encoding) headers['Content-Encoding'] = encoding.startsWith('gzip') ? 'gzip' : encoding;
  if (random.next() < 0.5)
    headers.Origin = random.pick([
      `http://127.0.0.1:${port}`,
      'null',
      'https://evil.example',
      '',
      'x'.repeat(500),
    ]);
  if (random.next() < 0.3)
    headers[IDEMPOTENCY_HEADER] = random.pick([
      '',
      'short',
      'x'.repeat(200),
      crypto.randomUUID(),
      '00000000-0000-4000-8000-000000000000',
    ]);
  if (random.next() < 0.05) headers['X-Huge'] = 'h'.repeat(20_000 + random.int(20_000));
  if (random.next() < 0.05) for (let n = 0; n < 150; n += 1) headers[`X-Many-${n}`] = String(n);
  if (random.next() < 0.1) headers['X-Forwarded-For'] = random.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1']);
  if (random.next() < 0.05) headers['Content-Length'] = random.int(100);
  const target = path();
  const label = `${method} ${target.slice(0, 60)} ${type.slice(0, 40)} ${encoding}`;
  return new Promise((resolve) => {
    try {
      const req = request({ host: '127.0.0.1', port, path: target, method, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, label }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, label }));
      });
      req.on('error', () => resolve({ status: 0, label }));
      req.setTimeout(10_000, () => req.destroy());
      req.end(method === 'GET' || method === 'HEAD' ? undefined : body);
    } catch {
      resolve({ status: -1, label });
    }
  });
}

/** Bytes no HTTP client library would write; the status of the answer, or 0 when the server just closed. */
function sendRaw(): Promise<Sent> {
  const form = random.pick(FORMS);
  const body = JSON.stringify(validLead);
  const raw = random.pick<() => string | Buffer>([
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: 5000\r\n\r\n${body}`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: 3\r\n\r\n${body}`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: ${JSON_TYPE}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: -1\r\n\r\n`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    () => `POST /api/forms/${form} HTTP/9.9\r\nHost: x\r\n\r\n`,
    () => `POST /api/forms/${form}\r\n\r\n`,
    () => `POST  /api/forms/${form}  HTTP/1.1\r\n\r\n`,
    () => `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`,
    () => `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nOrigin: http://x\r\nX: a\u0000b\r\n\r\n`,
    () => `POST /api/forms/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n`,
    () => `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: ${JSON_TYPE}\r\nOrigin: http://x\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    () => `\r\n\r\n\r\n`,
    () => random.bytes(random.int(2000)),
    () => `BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n`,
    () => `POST /api/forms/${form} HTTP/1.0\r\nContent-Type: ${FORM_TYPE}\r\nContent-Length: 3\r\n\r\na=1`,
  ])();
  const label = `raw ${String(raw).slice(0, 50).replace(/\r\n/g, '|')}`;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(answer);
      resolve({ status: match ? Number(match[1]) : 0, label });
    };
    socket.setTimeout(1500, done);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (/^HTTP\/1\.[01] \d{3}/.test(answer)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.end(raw);
  });
}

/** A real lead, as the enhanced form sends it, slipped in between the garbage. */
async function sendValid(): Promise<Sent> {
  const response = await postJson(server.api, validLead, { [IDEMPOTENCY_HEADER]: crypto.randomUUID() });
  await response.arrayBuffer();
  return { status: response.status, label: 'valid' };
}

async function run(count: number, one: () => Promise<Sent>, deadline: number): Promise<Sent[]> {
  const results: Sent[] = [];
  let started = 0;
  const lane = async () => {
    while (started < count && Date.now() < deadline) {
      started += 1;
      results.push(await (started % 25 === 0 ? sendValid() : one()));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return results;
}

describe('fuzzing the server', () => {
  it('never answers 5xx, logs no error, and still takes a real lead afterwards', async () => {
    const deadline = Date.now() + BUDGET_MS;
    // One oversized body always, so the size guard is reached even when a slow machine runs few random cases.
    const oversized = await postJson(
      server.api,
      { ...validLead, fullName: 'x'.repeat(17_000) },
      {
        [IDEMPOTENCY_HEADER]: crypto.randomUUID(),
      },
    );
    await oversized.arrayBuffer();
    const results: Sent[] = [
      { status: oversized.status, label: 'oversized' },
      ...(await run(REQUESTS, send, deadline)),
      ...(await run(RAW_REQUESTS, sendRaw, deadline)),
    ];
    // Enough of them ran to mean something, even on a slow machine.
    expect(results.length).toBeGreaterThan(500);
    const serverErrors = results.filter((result) => result.status >= 500);
    expect(serverErrors.map((result) => `${result.status} ${result.label}`)).toEqual([]);
    // The garbage reached every guard, and the real leads in between were all taken.
    const statuses = new Set(results.map((result) => result.status));
    for (const status of [400, 403, 404, 413, 415, 431])
      expect(statuses, `status ${status}`).toContain(status);
    const valid = results.filter((result) => result.label === 'valid');
    expect(valid.length).toBeGreaterThan(40);
    expect(valid.every((result) => result.status === 201)).toBe(true);
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);

    const id = await createdId(await postJson(server.api, validLead));
    expect(server.store.getLead(id)?.data.memberId).toBe(validLead.memberId);
  }, 90_000);
});

// A real server on a free port with a throwaway build, database and log, and a real webhook receiver: what the
// integration tests drive.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import type { AlertWorker } from '../../server/alerts/alert-worker.ts';
import { createApp } from '../../server/app.ts';
import { loadForms, loadRedirects } from '../../server/content.ts';
import { addressOf, close, listen } from '../../server/http/http-server.ts';
import { createLeadPipeline } from '../../server/lead-pipeline.ts';
import type { LeadStore } from '../../server/leads/lead-store.ts';
import { createLogger } from '../../server/logger.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

export const site = readJson<Site>('site/site.json');
export const insuranceForm = readJson<FormDefinition>('site/forms/insurance-verification.json');

export const PAGES = {
  'index.html': '<!doctype html><title>Home</title><h1>Welcome home</h1>',
  // Long enough to be worth compressing (the threshold is 1 KB).
  'services/medical-detox.html': `<!doctype html><title>Detox</title><h1>Medical Detox</h1>${'<p>Safe, supervised care.</p>'.repeat(60)}`,
  '404.html': '<!doctype html><title>404</title><h1>404</h1><p>Oops! Page not found</p><a href="/">Home</a>',
  'assets/app-abc123.js': 'console.log("hydrate");',
  'robots.txt': 'User-agent: *\nAllow: /\n',
  '.vite/manifest.json': '{"secret":"build internals"}',
};

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'server-test-'));
}

/** The build a test serves, written into a fresh temporary folder. */
export function writeClientDir(root = tempDir()): string {
  const dir = join(root, 'client');
  for (const [file, content] of Object.entries(PAGES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  // Beside the build, where a traversal would land.
  writeFileSync(join(root, 'secret.txt'), 'do not serve');
  return dir;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer: the worker's timeout must cut the call. */
  hang?: boolean;
  /** Answer after this many milliseconds. */
  delayMs?: number;
}

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  json: { text: string; blocks: unknown[] };
}

/** A Slack-compatible incoming webhook on 127.0.0.1 that records every call and answers from a script. */
export async function startReceiver(script: (call: number) => Reply = () => ({ status: 200, body: 'ok' })) {
  const calls: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const reply = script(calls.length + 1);
      calls.push({ headers: req.headers, raw, json: JSON.parse(raw) as Received['json'] });
      if (reply.hang) return;
      setTimeout(() => res.writeHead(reply.status, reply.headers).end(reply.body ?? ''), reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${addressOf(server)}/services/T000/B000/XXXX`,
    calls,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface TestServer {
  url: string;
  /** The form API of the insurance form. */
  api: string;
  store: LeadStore;
  worker: AlertWorker;
  dbFile: string;
  /** Every log line, parsed. */
  logs: Record<string, unknown>[];
  logText: () => string;
  stop: () => Promise<void>;
}

export interface TestServerOptions {
  webhookUrl?: string;
  retryBaseMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  dbFile?: string;
  /** FORM_RATE_LIMIT; high by default so that only the rate-limit tests meet it. */
  rateLimit?: number;
  allowedOrigins?: string[];
  /** LEADS_ENCRYPTION_KEY; by default the key file beside the database. */
  key?: Buffer;
}

/** The real lead pipeline (createLeadPipeline) in the real app, with every form, on a free loopback port. */
export async function startServer(options: TestServerOptions = {}): Promise<TestServer> {
  const root = tempDir();
  const clientDir = writeClientDir(root);
  const dbFile = options.dbFile ?? join(root, 'data', 'leads.db');
  const logs: Record<string, unknown>[] = [];
  const forms = loadForms();
  const logger = createLogger({
    level: 'debug',
    personalFields: [...forms.values()].flatMap((def) => def.fields.map((field) => field.name)),
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const {
    store,
    worker,
    forms: formApi,
  } = createLeadPipeline(
    {
      leadsDb: dbFile,
      leadsEncryptionKey: options.key,
      chatWebhookUrl: options.webhookUrl,
      chatRetryBaseMs: options.retryBaseMs ?? 5,
      chatMaxAttempts: options.maxAttempts ?? 8,
      chatTimeoutMs: options.timeoutMs ?? 5000,
      formRateLimit: options.rateLimit ?? 100_000,
      allowedOrigins: options.allowedOrigins ?? [],
      logLevel: 'debug',
    },
    site,
    forms,
    { logger },
  );
  const app = createApp({ clientDir, forms: formApi, redirectRules: loadRedirects(), logger });
  const server: Server = await listen(app, 0, '127.0.0.1');
  worker.start();
  const url = addressOf(server);
  return {
    url,
    api: `${url}/api/forms/insurance-verification`,
    store,
    worker,
    dbFile,
    logs,
    logText: () => JSON.stringify(logs),
    stop: async () => {
      await close(server);
      await worker.stop();
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * What most integration test files run against: a webhook receiver, and a server whose alerts go to it, started
 * before the file's tests and stopped after them. Read `server` and `receiver` inside the tests.
 */
export function serverWithReceiver(options: Omit<TestServerOptions, 'webhookUrl'> = {}) {
  const running = {} as { server: TestServer; receiver: Awaited<ReturnType<typeof startReceiver>> };
  beforeAll(async () => {
    running.receiver = await startReceiver();
    running.server = await startServer({ ...options, webhookUrl: running.receiver.url });
  });
  afterAll(async () => {
    await running.server.stop();
    await running.receiver.stop();
  });
  return running;
}

/** Polls until `check` returns something truthy; fails after `timeoutMs` (a limit for hangs, never a measurement). */
export async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const validLead = {
  fullName: 'Jane Q. Doe',
  phone: '(555) 010-4477',
  dateOfBirth: '1987-03-14',
  insuranceProvider: 'blue cross blue shield',
  memberId: 'XZH-99817234',
  source: '/services/medical-detox',
};

/** A JSON submission as the enhanced form sends it: with the page's own Origin. */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: new URL(url).origin, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A plain form POST as a browser without JavaScript sends it (with no Origin, as older browsers do). */
export const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

/** A submission's id from a 201 answer. */
export async function createdId(response: Response): Promise<string> {
  if (response.status !== 201)
    throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

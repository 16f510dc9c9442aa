// What the server integration tests share, whichever way they run the server (in this process with
// ./in-process-server.ts, or as its own process with scripts/lib/server-process.ts): a throwaway build, a real webhook
// receiver, a lead that passes, submissions as browsers send them, and waitFor.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormDefinition, Site } from '../../generated/content-types.ts';

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

/** The security headers every answer of the app carries (server/http/security.ts), by lower-case name. */
export const SECURITY_HEADER_NAMES = [
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
];

/**
 * A fresh folder for a helper whose files live as long as what it starts (a server, a mounted disk), not a test: the
 * helper removes it on every way out. A test's own folder comes from tests/helpers/temp-dir.ts.
 */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'server-test-'));
}

/** The build a test serves, written into `root` (its `client/` folder, returned), with a file beside it. */
export function writeClientDir(root: string): string {
  const dir = join(root, 'client');
  for (const [file, content] of Object.entries(PAGES)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  // Beside the build, where a traversal would land.
  writeFileSync(join(root, 'secret.txt'), 'do not serve');
  return dir;
}

// The one local webhook receiver, here with the other shared pieces.
export { startReceiver, type Receiver, type Received, type Reply } from './webhook-receiver.ts';

/** Polls until `check` returns something truthy; fails after `timeoutMs` (a limit for hangs, never a measurement). */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
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

/** A valid submission of the widget's quick insurance form (widget-insurance). */
export const quickInsuranceLead = {
  firstName: 'Ana',
  lastName: 'Ruiz',
  phone: '555-010-0111',
  email: 'ana@example.com',
  insuranceProvider: 'tricare',
  memberID: 'TRI-55120',
  source: '/',
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

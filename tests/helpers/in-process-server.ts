// The server's app built inside the test process, on a free loopback port, with a throwaway build, database and log:
// the real lead pipeline (createLeadPipeline) and the real app (createApp), wired as server/index.ts wires them, but
// with the store, the alert worker and every log line in the test's hands. For the integration tests that look inside
// (an alert's state, a closed store, the log as written); the tests of the server as a process (killed, restarted,
// refused at start) start it with scripts/lib/server-process.ts.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { RequestListener, Server } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { AlertWorker } from '../../server/alerts/alert-worker.ts';
import type { AlertDetail } from '../../server/alerts/chat-alert.ts';
import { createApp } from '../../server/app.ts';
import { folderSite } from '../../server/http/served-site.ts';
import { readConfig, type TrustProxy } from '../../server/config.ts';
import { loadForms, loadRedirects } from '../../server/content.ts';
import { addressOf, close, listen } from '../../server/http/http-server.ts';
import { staffAreaOn } from '../../server/staff/staff-area.ts';
import type { SessionLimits } from '../../server/staff/staff-session-life.ts';
import { createLeadPipeline } from '../../server/lead-pipeline.ts';
import { startChangeScheduler } from '../../server/content-staff/change-scheduler.ts';
import { ensureLiveRelease } from '../../server/releases/ensure-release.ts';
import { startLiveRelease, type LiveReleaseHandle } from '../../server/releases/live-release.ts';
import type { LeadStore } from '../../server/store/contract/lead-store.ts';
import { createLogger } from '../../server/logger.ts';
import { site, startReceiver, tempDir, writeClientDir } from './fixtures.ts';

export interface InProcessServer {
  url: string;
  /** The form API of the insurance form. */
  api: string;
  store: LeadStore;
  worker: AlertWorker;
  dbFile: string;
  /** Every log line, parsed. */
  logs: Record<string, unknown>[];
  logText: () => string;
  /** Every route of the staff API, as `METHOD /path` under /staff/api. */
  staffRoutes: string[];
  stop: () => Promise<void>;
}

/** A stand-in for the built inbox app (dist/inbox), with the nonce placeholder the server fills. */
export const INBOX_SHELL =
  '<!doctype html><html lang="en"><head><meta name="csp-nonce" content="__CSP_NONCE__"><title>Inbox</title>' +
  '<script type="module" src="/staff/assets/inbox-abc123.js"></script></head><body><div id="root"></div></body></html>';

/** A page of the editor online as built (its title names which). */
export const EDITOR_PAGE =
  '<!doctype html><html lang="en"><head><meta name="csp-nonce" content="__CSP_NONCE__"><title>PAGE</title>' +
  '<script type="module" src="/staff/edit/assets/editor-abc123.js"></script></head><body></body></html>';

export interface InProcessServerOptions {
  webhookUrl?: string;
  /** ESCALATION_REPEAT_MINUTES in ms, and how often overdue leads are looked for (server/alerts/escalation.ts). */
  escalationRepeatMs?: number;
  /** ROUND_ROBIN: new leads go to the members on shift in turn. */
  roundRobin?: boolean;
  escalationSweepMs?: number;
  /** CHAT_ALERT_DETAIL; none (no patient data) by default, as in production. */
  alertDetail?: AlertDetail;
  retryBaseMs?: number;
  retryMaxMs?: number;
  alertMaxAgeMs?: number;
  timeoutMs?: number;
  dbFile?: string;
  /** DATABASE_URL: the lead store on this PostgreSQL database instead of a SQLite file. */
  databaseUrl?: string;
  /** FORM_RATE_LIMIT; high by default so that only the rate-limit tests meet it. */
  rateLimit?: number;
  /** FORM_GLOBAL_RATE_LIMIT; high by default, as rateLimit. */
  siteRateLimit?: number;
  allowedOrigins?: string[];
  /** TRUST_PROXY, as the config reads it; no proxy by default. */
  trustProxy?: TrustProxy;
  /** LEADS_ENCRYPTION_KEY; by default the key file beside the database. */
  key?: Buffer;
  /** LOG_LEVEL; debug by default, trace for the suites that scan every line the server can write. */
  logLevel?: 'trace' | 'debug';
  /**
   * The staff area: its clock and session limits (STAFF_IDLE_MINUTES and STAFF_SESSION_HOURS, in ms), failed sign-ins
   * and ceremony starts allowed per address, challenges kept at most (in all, and per network), heartbeat;
   * `built: false` leaves the inbox app unbuilt.
   */
  staff?: {
    now?: () => number;
    sessionLimits?: SessionLimits;
    signInFailures?: number;
    /** STAFF_READ_LIMIT: leads one member may read per 10 minutes. */
    readLimit?: number;
    ceremonyStarts?: number;
    maxChallenges?: number;
    networkChallenges?: number;
    heartbeatMs?: number;
    built?: boolean;
    /** STAFF_ORIGIN; by default the server's own, http://127.0.0.1:<port> (the tests' software passkeys accept it). */
    origin?: (url: string) => string;
  };
  /**
   * Serve the live release, as `npm start` does, stored from this built code folder (dist/: npm run build) at the first
   * start, and answer the content API (/staff/api/content/) with it; by default a throwaway folder site and no
   * content API.
   */
  releases?: { codeDir: string; pollMs?: number; scheduleTickMs?: number };
}

/** The real lead pipeline in the real app, with every form, on a free loopback port of this process. */
export async function startInProcessServer(options: InProcessServerOptions = {}): Promise<InProcessServer> {
  // Its own folder, not a test's (tests/helpers/temp-dir.ts): it lives as long as the server, which may serve a whole
  // file's tests or be stopped and started again within one. Removed when the start fails or once the server stops.
  const root = tempDir();
  const removeRoot = () => rmSync(root, { recursive: true, force: true });
  try {
    const running = await startInFolder(root, options);
    return { ...running, stop: () => running.stop().finally(removeRoot) };
  } catch (error) {
    removeRoot();
    throw error;
  }
}

async function startInFolder(root: string, options: InProcessServerOptions): Promise<InProcessServer> {
  const clientDir = writeClientDir(root);
  const staffDir = readConfig({ CLIENT_DIR: clientDir }).staffDir;
  if (options.staff?.built !== false) {
    mkdirSync(join(staffDir, 'assets'), { recursive: true });
    writeFileSync(join(staffDir, 'index.html'), INBOX_SHELL);
    writeFileSync(join(staffDir, 'assets', 'inbox-abc123.js'), 'console.log("inbox");');
    // The editor online (dist/editor beside dist/inbox): its two pages, as studio/vite.staff.config.ts writes them.
    const editorDir = join(dirname(staffDir), 'editor');
    mkdirSync(join(editorDir, 'assets'), { recursive: true });
    for (const page of ['index.html', 'preview.html'])
      writeFileSync(join(editorDir, page), EDITOR_PAGE.replace('PAGE', page));
    writeFileSync(join(editorDir, 'assets', 'editor-abc123.js'), 'console.log("editor");');
  }
  const dbFile = options.dbFile ?? join(root, 'data', 'leads.db');
  const logs: Record<string, unknown>[] = [];
  const forms = loadForms();
  const defaults = readConfig({});
  const logLevel = options.logLevel ?? 'debug';
  const logger = createLogger({
    level: logLevel,
    personalFields: [...forms.values()].flatMap((def) => def.fields.map((field) => field.name)),
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const {
    store,
    worker,
    forms: formApi,
  } = await createLeadPipeline(
    {
      leadsDb: dbFile,
      databaseUrl: options.databaseUrl,
      databasePoolSize: defaults.databasePoolSize,
      leadsEncryptionKey: options.key && [options.key],
      auditKey: undefined,
      leadsKeyFile: undefined,
      chatWebhookUrl: options.webhookUrl,
      chatAlertDetail: options.alertDetail ?? defaults.chatAlertDetail,
      chatRetryBaseMs: options.retryBaseMs ?? 5,
      chatRetryMaxMs: options.retryMaxMs ?? defaults.chatRetryMaxMs,
      chatAlertMaxAgeMs: options.alertMaxAgeMs ?? defaults.chatAlertMaxAgeMs,
      chatTimeoutMs: options.timeoutMs ?? 5000,
      formRateLimit: options.rateLimit ?? 100_000,
      formGlobalRateLimit: options.siteRateLimit ?? 1_000_000,
      allowedOrigins: options.allowedOrigins ?? [],
      logLevel,
      trustProxy: options.trustProxy ?? false,
      escalationRepeatMs: options.escalationRepeatMs,
      roundRobin: options.roundRobin,
      escalationSweepMs: options.escalationSweepMs,
      staffIdleMs: options.staff?.sessionLimits?.idleMs,
      staffSessionMs: options.staff?.sessionLimits?.absoluteMs,
    },
    site,
    forms,
    { logger },
  );
  const trustProxy = options.trustProxy ?? false;
  // Listening first: STAFF_ORIGIN names the port.
  let handle: RequestListener = (_req, res) => res.writeHead(503).end();
  const server: Server = await listen((req, res) => handle(req, res), 0, '127.0.0.1');
  const url = addressOf(server);
  let live: LiveReleaseHandle | undefined;
  if (options.releases) {
    await ensureLiveRelease(store, options.releases.codeDir, logger);
    live = await startLiveRelease({ releases: store.releases, logger, pollMs: options.releases.pollMs });
  }
  const staff = staffAreaOn(store, {
    content: options.releases && { codeDir: options.releases.codeDir, confirmWithinMs: 5000 },
    origin: options.staff?.origin?.(url) ?? url,
    forms,
    site,
    logger,
    now: options.staff?.now,
    sessionLimits: options.staff?.sessionLimits,
    staffDir,
    trustProxy,
    signInFailures: options.staff?.signInFailures,
    readLimit: options.staff?.readLimit,
    ceremonyStarts: options.staff?.ceremonyStarts,
    maxChallenges: options.staff?.maxChallenges,
    networkChallenges: options.staff?.networkChallenges,
    heartbeatMs: options.staff?.heartbeatMs,
    roundRobin: options.roundRobin,
  });
  handle = createApp({
    site: live ?? folderSite(clientDir, loadRedirects()),
    forms: formApi,
    logger,
    trustProxy,
    staff,
  });
  worker.start();
  const scheduler =
    staff.content &&
    startChangeScheduler({
      context: staff.content,
      webhookUrl: options.webhookUrl,
      origin: url,
      tickMs: options.releases?.scheduleTickMs,
    });
  return {
    url,
    api: `${url}/api/forms/insurance-verification`,
    store,
    worker,
    dbFile,
    logs,
    logText: () => JSON.stringify(logs),
    staffRoutes: staff.routes(),
    stop: async () => {
      await scheduler?.stop();
      await live?.stop();
      await close(server);
      await worker.stop();
      await store.close();
    },
  };
}

/**
 * What most integration test files run against: a webhook receiver, and an in-process server whose alerts go to it,
 * started before the file's tests and stopped after them. Read `server` and `receiver` inside the tests.
 */
export function serverWithReceiver(options: Omit<InProcessServerOptions, 'webhookUrl'> = {}) {
  const running = {} as { server: InProcessServer; receiver: Awaited<ReturnType<typeof startReceiver>> };
  beforeAll(async () => {
    running.receiver = await startReceiver();
    running.server = await startInProcessServer({ ...options, webhookUrl: running.receiver.url });
  });
  afterAll(async () => {
    await running.server.stop();
    await running.receiver.stop();
  });
  return running;
}

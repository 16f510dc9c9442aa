// The built site (dist/client) on the production server, as the browser, quality and server tests drive it: the server
// runs as its own process (scripts/lib/server-process.ts) with its own SQLite file, and its chat alerts go to a local
// webhook receiver. siteUnderTest() gives a test file one such site and one browser, started before its tests and
// stopped after them. Its stored leads are read as `npm run leads -- list --json` reads them: every value opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startServerProcess, type ServerEnv } from '../../scripts/lib/server-process.ts';
import { openStore } from '../../server/cli/cli-store.ts';
import type { ListedLead } from '../../server/store/contract/lead-store.ts';
import { launchBrowser } from './browser.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

export type RunningSite = {
  url: string;
  receiver: Receiver;
  dbFile: string;
  output: () => string;
  /** Every stored lead, oldest first, its values opened with the server's key. */
  leads: () => Promise<ListedLead[]>;
  stop: () => Promise<void>;
  /** The server process alone: stopped (SIGTERM), then started again on the same port with the same store. */
  stopServer: () => Promise<void>;
  startServer: () => Promise<void>;
};

/** `env` is added to the server's settings, as a deployment would set them (TRUST_PROXY, say). */
export async function startSite(env: ServerEnv = {}): Promise<RunningSite> {
  const receiver = await startReceiver();
  // Its own folder, not a test's (tests/helpers/temp-dir.ts): it lives as long as the server, which serves a whole
  // file's tests. Removed when the start fails or once the server stops.
  const dir = mkdtempSync(join(tmpdir(), 'site-test-'));
  const dbFile = join(dir, 'leads.db');
  const removeFiles = async () => {
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  const settings = {
    env: { ...env, LEADS_DB: dbFile, CHAT_WEBHOOK_URL: receiver.url, CHAT_RETRY_BASE_MS: '50' },
  };
  let server = await startServerProcess(settings).catch(async (error: unknown) => {
    await removeFiles();
    throw error;
  });
  return {
    url: server.url,
    receiver,
    dbFile,
    output: () => server.output(),
    leads: async () => {
      const store = await openStore({
        env: { ...env, LEADS_DB: dbFile },
        cwd: process.cwd(),
        out: () => undefined,
        err: () => undefined,
      });
      try {
        return await store.listLeads();
      } finally {
        await store.close();
      }
    },
    stopServer: () => server.stop(),
    startServer: async () => {
      await server.stop();
      server = await startServerProcess({ ...settings, port: Number(new URL(server.url).port) });
    },
    stop: async () => {
      try {
        await server.stop();
      } finally {
        await removeFiles();
      }
    },
  };
}

export function siteUnderTest(): { readonly browser: Browser; readonly site: RunningSite } {
  let browser: Browser | undefined;
  let running: RunningSite | undefined;
  beforeAll(async () => {
    [browser, running] = await Promise.all([launchBrowser(), startSite()]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (!value) throw new Error('The site under test is not running');
    return value;
  };
  return {
    get browser() {
      return ready(browser);
    },
    get site() {
      return ready(running);
    },
  };
}

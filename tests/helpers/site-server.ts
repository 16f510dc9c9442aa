// Starts the real production server (`server/index.ts`) on the built site, on a free loopback port,
// with its own SQLite file and a local webhook receiver.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startReceiver, type Receiver } from './webhook-receiver.ts';
import { startServerProcess } from '../../scripts/lib/server-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export type RunningSite = {
  url: string;
  receiver: Receiver;
  dbFile: string;
  output: () => string;
  leads: () => { id: string; form_id: string; source: string; data: string }[];
  stop: () => Promise<void>;
};

/** `env` is added to the server's environment, as a deployment would set it (TRUST_PROXY, say). */
export async function startSite(env: NodeJS.ProcessEnv = {}): Promise<RunningSite> {
  if (!existsSync(join(ROOT, 'dist/client/index.html')))
    throw new Error('No built site: run `npm run build` first.');
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'site-test-'));
  const dbFile = join(dir, 'leads.db');
  const server = await startServerProcess({
    env: { ...env, LEADS_DB: dbFile, CHAT_WEBHOOK_URL: receiver.url, CHAT_RETRY_BASE_MS: '50' },
  });
  const { url, output } = server;
  return {
    url,
    receiver,
    dbFile,
    output,
    leads: () => {
      const db = new Database(dbFile, { readonly: true });
      try {
        return db
          .prepare('SELECT id, form_id, source, data FROM leads ORDER BY created_at')
          .all() as ReturnType<RunningSite['leads']>;
      } finally {
        db.close();
      }
    },
    stop: async () => {
      await server.stop();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

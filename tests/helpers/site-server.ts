// Starts the real production server (`server/index.ts`) on the built site, on a free loopback port,
// with its own SQLite file and a local webhook receiver.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export type RunningSite = {
  url: string;
  receiver: Receiver;
  dbFile: string;
  output: () => string;
  leads: () => { id: string; form_id: string; source: string; data: string }[];
  stop: () => Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startSite(): Promise<RunningSite> {
  if (!existsSync(join(ROOT, 'dist/client/index.html')))
    throw new Error('No built site: run `npm run build` first.');
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'site-test-'));
  const dbFile = join(dir, 'leads.db');
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LEADS_DB: dbFile,
      CHAT_WEBHOOK_URL: receiver.url,
      CHAT_RETRY_BASE_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`Server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    receiver,
    dbFile,
    output: () => output,
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
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

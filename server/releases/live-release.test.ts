// The server's side of releases, in-process on a SQLite store: what a swap serves, and the assets of the release
// before kept for pages already open, until their time is up.
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { addressOf, close, listen } from '../http/http-server.ts';
import { createLogger } from '../logger.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import type { NewRelease } from '../store/contract/release-store.ts';
import { openLeadStore } from '../store/sqlite/lead-store.ts';
import { readDocuments } from './documents.ts';
import { startLiveRelease, type LiveReleaseHandle } from './live-release.ts';
import { ROOT } from '../../content/paths.ts';

const site = (page: string, asset: string): NewRelease => ({
  files: [
    { path: 'index.html', bytes: Buffer.from(`<!doctype html><title>${page}</title><h1>${page}</h1>`) },
    { path: `assets/${asset}`, bytes: Buffer.from(`console.log(${JSON.stringify(asset)})`) },
  ],
  // The server reads the site's own documents at each swap: the checkout's serve.
  documents: readDocuments(ROOT).filter((document) => document.path.startsWith('site/')),
  codeVersion: '1.0.0+test.0000000000000000',
  author: 'cli:test',
  message: page,
});

let store: LeadStore | undefined;
let live: LiveReleaseHandle | undefined;
let server: Server | undefined;
afterEach(async () => {
  await live?.stop();
  if (server) await close(server);
  await store?.close();
});

async function serving(keepAssetsMs: number, clock: { now: number }) {
  store = openLeadStore(':memory:');
  const first = await store.releases.create(site('First', 'app-1.js'));
  await store.releases.setLive(first.id, 0, { kind: 'publish', actor: 'cli:test' });
  live = await startLiveRelease({
    releases: store.releases,
    logger: createLogger({ level: 'silent' }),
    keepAssetsMs,
    now: () => clock.now,
    pollMs: 60_000,
  });
  const handle = live;
  server = await listen(
    (req, res) => {
      if (!handle.current().files.serve(req, res, false)) res.writeHead(404).end();
    },
    0,
    '127.0.0.1',
  );
  const url = addressOf(server);
  const status = async (path: string) => (await fetch(url + path)).status;
  const text = async (path: string) => (await fetch(url + path)).text();
  /** Stores a release, puts it live and has the server follow at once (as NOTIFY or the poll would). */
  const publish = async (release: NewRelease) => {
    const stored = await store!.releases.create(release);
    const pointer = await store!.releases.live();
    await store!.releases.setLive(stored.id, pointer!.generation, { kind: 'publish', actor: 'cli:test' });
    await handle.follow();
    return stored.id;
  };
  return { status, text, publish, handle };
}

describe('the live release in a server', () => {
  it('answers from the release put live, and keeps the assets of the one before for pages already open', async () => {
    const clock = { now: 1_000_000 };
    const { status, text, publish, handle } = await serving(60 * 60 * 1000, clock);
    expect(await text('/')).toContain('<h1>First</h1>');

    const second = await publish(site('Second', 'app-2.js'));
    expect(handle.current().release).toBe(second);
    expect(await text('/')).toContain('<h1>Second</h1>');
    expect(await status('/assets/app-2.js')).toBe(200);
    expect(await status('/assets/app-1.js')).toBe(200); // a page of the first release may still ask for it
    expect(handle.health()).toEqual({ id: second, live: second, behindSeconds: 0 });

    // An hour and more later, the next swap lets the first release's asset go; the second's is kept in turn.
    clock.now += 60 * 60 * 1000 + 1;
    await publish(site('Third', 'app-3.js'));
    expect(await status('/assets/app-1.js')).toBe(404);
    expect(await status('/assets/app-2.js')).toBe(200);
    expect(await status('/assets/app-3.js')).toBe(200);
  });

  it('reports the release it serves, and forgets itself when it stops', async () => {
    const clock = { now: Date.now() };
    const { handle } = await serving(0, clock);
    const reports = await store!.releases.instances(new Date(Date.now() - 60_000).toISOString());
    expect(reports).toEqual([expect.objectContaining({ instance: handle.instance, releaseId: 1 })]);
    await handle.stop();
    live = undefined;
    expect(await store!.releases.instances(new Date(Date.now() - 60_000).toISOString())).toEqual([]);
  });
});

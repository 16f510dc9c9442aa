import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertBacklog } from '../store/contract/lead-store.ts';
import {
  healthCheck,
  RELEASE_BEHIND_SECONDS,
  STUCK_AFTER_SECONDS,
  type ReleaseHealth,
} from './health-check.ts';
import { addressOf, close, listen } from './http-server.ts';

// What the fake store answers, set by each test.
let healthy = true;
let backlog: AlertBacklog | Error = { pending: 0, dead: 0, oldestPendingSince: undefined };
let release: ReleaseHealth | undefined;

let url: string;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  const app = express();
  app.get(
    '/healthz',
    healthCheck(
      {
        isHealthy: async () => healthy,
        alertBacklog: async () => {
          if (backlog instanceof Error) throw backlog;
          return backlog;
        },
      },
      () => release,
    ),
  );
  server = await listen(app, 0, '127.0.0.1');
  url = `${addressOf(server)}/healthz`;
});
afterAll(() => close(server));

async function get(): Promise<{ status: number; cache: string | null; body: unknown }> {
  const response = await fetch(url);
  return {
    status: response.status,
    cache: response.headers.get('cache-control'),
    body: await response.json(),
  };
}

describe('health check', () => {
  it('answers ok with the alert counts while every alert is delivered or on its way', async () => {
    healthy = true;
    backlog = { pending: 2, dead: 0, oldestPendingSince: Date.now() - 61_000 };
    expect(await get()).toEqual({
      status: 200,
      cache: 'no-store',
      body: {
        status: 'ok',
        alerts: { pending: 2, dead: 0, oldestPendingSeconds: expect.any(Number) },
        release: null,
      },
    });
    const { body } = await get();
    expect(
      (body as { alerts: { oldestPendingSeconds: number } }).alerts.oldestPendingSeconds,
    ).toBeGreaterThanOrEqual(61);

    backlog = { pending: 0, dead: 0, oldestPendingSince: undefined };
    expect((await get()).body).toEqual({
      status: 'ok',
      alerts: { pending: 0, dead: 0, oldestPendingSeconds: 0 },
      release: null,
    });
  });

  it('answers degraded, still 200, when an alert is dead', async () => {
    healthy = true;
    backlog = { pending: 0, dead: 1, oldestPendingSince: undefined };
    expect(await get()).toEqual({
      status: 200,
      cache: 'no-store',
      body: { status: 'degraded', alerts: { pending: 0, dead: 1, oldestPendingSeconds: 0 }, release: null },
    });
  });

  it('answers degraded when the oldest pending alert has waited past the threshold', async () => {
    healthy = true;
    backlog = { pending: 3, dead: 0, oldestPendingSince: Date.now() - (STUCK_AFTER_SECONDS + 60) * 1000 };
    const answer = await get();
    expect(answer).toMatchObject({
      status: 200,
      body: { status: 'degraded', alerts: { pending: 3, dead: 0 }, release: null },
    });
    backlog = { pending: 3, dead: 0, oldestPendingSince: Date.now() - (STUCK_AFTER_SECONDS - 60) * 1000 };
    expect((await get()).body).toMatchObject({ status: 'ok' });
  });

  it('answers 503 unavailable when the lead database cannot be written, with the counts it could read', async () => {
    healthy = false;
    backlog = { pending: 1, dead: 0, oldestPendingSince: Date.now() };
    expect(await get()).toEqual({
      status: 503,
      cache: 'no-store',
      body: {
        status: 'unavailable',
        alerts: { pending: 1, dead: 0, oldestPendingSeconds: 0 },
        release: null,
      },
    });
  });

  it('answers 503 unavailable with no counts when the database cannot be read', async () => {
    healthy = true;
    backlog = new Error('SQLITE_IOERR');
    expect(await get()).toEqual({
      status: 503,
      cache: 'no-store',
      body: { status: 'unavailable', alerts: null, release: null },
    });
  });

  it('names the release served and the live one, and is degraded once they differ for longer than the limit', async () => {
    healthy = true;
    backlog = { pending: 0, dead: 0, oldestPendingSince: undefined };
    release = { id: 4, live: 4, behindSeconds: 0 };
    expect((await get()).body).toEqual({
      status: 'ok',
      alerts: { pending: 0, dead: 0, oldestPendingSeconds: 0 },
      release: { id: 4, live: 4, behindSeconds: 0 },
    });
    release = { id: 4, live: 5, behindSeconds: RELEASE_BEHIND_SECONDS };
    expect((await get()).body).toMatchObject({ status: 'ok', release: { id: 4, live: 5 } });
    release = { id: 4, live: 5, behindSeconds: RELEASE_BEHIND_SECONDS + 1 };
    expect(await get()).toMatchObject({ status: 200, body: { status: 'degraded', release: { live: 5 } } });
    release = undefined;
  });
});

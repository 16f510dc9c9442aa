// GET /healthz for a load balancer and for monitoring, one JSON shape:
//   {"status": "ok" | "degraded" | "unavailable", "alerts": {"pending": n, "dead": n, "oldestPendingSeconds": n},
//    "release": {"id": n, "live": n, "behindSeconds": n}}
// - unavailable (503): the lead database cannot be read and written, so a lead could not be stored; the server is
//   taken out of service rather than left to refuse visitors. `alerts` is null when even the counts cannot be read.
// - degraded (200): leads are stored, but some lead may not have reached admissions: an alert is dead, or the oldest
//   pending alert has waited longer than STUCK_AFTER_SECONDS (chat delivery is stuck, or no webhook is set). The
//   server must stay in service, since it still takes leads; monitoring must alert a person. Degraded too when this
//   instance has served another release than the live one for more than RELEASE_BEHIND_SECONDS (server/releases/),
//   or when a change set's scheduled publish failed and it is not published since: then `"schedules": {"failed": n}`
//   is in the answer too (server/content-staff/change-scheduler.ts).
// - ok (200): otherwise.
import type { RequestHandler } from 'express';
import type { LeadStore } from '../store/contract/lead-store.ts';

/**
 * A pending alert older than this means delivery is stuck: a working webhook takes an alert within seconds, and a
 * failing one is retried at least every CHAT_RETRY_MAX_MS (5 minutes by default), so this is three missed tries.
 */
export const STUCK_AFTER_SECONDS = 15 * 60;

/** An instance that has not taken the live release within this long is degraded: it serves an old site. */
export const RELEASE_BEHIND_SECONDS = 30;

export type HealthStatus = 'ok' | 'degraded' | 'unavailable';

/** The release this instance serves (`id`), the one live in the store (`live`), and how long they have differed. */
export interface ReleaseHealth {
  id: number;
  live: number;
  behindSeconds: number;
}

export interface Health {
  status: HealthStatus;
  alerts: { pending: number; dead: number; oldestPendingSeconds: number } | null;
  /** null before the server serves a release (the app built in tests from a folder). */
  release: ReleaseHealth | null;
  /** Only when a scheduled publish failed. */
  schedules?: { failed: number };
}

type HealthSource = Pick<LeadStore, 'isHealthy' | 'alertBacklog'> & {
  changes?: Pick<LeadStore['changes'], 'failedSchedules'>;
};

/** How many scheduled publishes failed; 0 when the store cannot say (its health is judged by isHealthy). */
const failedSchedules = async (store: HealthSource): Promise<number> =>
  store.changes ? (await store.changes.failedSchedules().catch(() => [])).length : 0;

async function alertsOf(store: HealthSource, now: number): Promise<Health['alerts']> {
  try {
    const { pending, dead, oldestPendingSince } = await store.alertBacklog();
    const oldest = oldestPendingSince === undefined ? 0 : Math.max(0, now - oldestPendingSince);
    return { pending, dead, oldestPendingSeconds: Math.floor(oldest / 1000) };
  } catch {
    return null;
  }
}

/** The release this instance serves, if it serves one (server/releases/live-release.ts). */
export type ReleaseHealthSource = () => ReleaseHealth | undefined;

/** The health of the server from its lead store and its release at `now` (epoch ms). */
export async function healthOf(
  store: HealthSource,
  now = Date.now(),
  releaseOf: ReleaseHealthSource = () => undefined,
): Promise<Health> {
  const [alerts, healthy, failed] = await Promise.all([
    alertsOf(store, now),
    store.isHealthy().catch(() => false),
    failedSchedules(store),
  ]);
  const release = releaseOf() ?? null;
  if (!healthy || alerts === null) return { status: 'unavailable', alerts, release };
  const stuck = alerts.dead > 0 || alerts.oldestPendingSeconds > STUCK_AFTER_SECONDS;
  const behind = release !== null && release.behindSeconds > RELEASE_BEHIND_SECONDS;
  return {
    status: stuck || behind || failed > 0 ? 'degraded' : 'ok',
    alerts,
    release,
    ...(failed > 0 ? { schedules: { failed } } : {}),
  };
}

export function healthCheck(store: HealthSource, releaseOf?: ReleaseHealthSource): RequestHandler {
  return async (_req, res) => {
    const health = await healthOf(store, Date.now(), releaseOf);
    res
      .status(health.status === 'unavailable' ? 503 : 200)
      .set('Cache-Control', 'no-store')
      .json(health);
  };
}

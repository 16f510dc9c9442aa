// How long leads are kept (LEADS_RETENTION_DAYS): the server purges older ones at start and every hour
// (LeadStore.purgeOlderThan), and logs how many went; the audit log is kept whatever its age.

export const DEFAULT_RETENTION_DAYS = 365;
export const RETENTION_EVERY_MS = 60 * 60 * 1000;

/** The ISO 8601 instant before which leads are purged when they are kept `days` days. */
export const retentionCutoff = (days: number, now = new Date()): string =>
  new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();

/**
 * Purges at once and then every RETENTION_EVERY_MS; `report` hears each count (to log it, a number and nothing
 * else), `failed` each error (the next run tries again). Returns the stop.
 */
export function scheduleRetention(
  store: { purgeOlderThan(cutoff: string): Promise<number> },
  days: number,
  { report, failed }: { report: (count: number) => void; failed: (error: unknown) => void },
): () => void {
  const run = () => store.purgeOlderThan(retentionCutoff(days)).then(report, failed);
  void run();
  const timer = setInterval(run, RETENTION_EVERY_MS);
  // The hourly purge never keeps a stopping server alive.
  timer.unref();
  return () => clearInterval(timer);
}

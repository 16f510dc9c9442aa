// GET /healthz for a load balancer or uptime monitor: 200 while the lead database can be read and written, else 503,
// so a server that could not store a lead is taken out of service rather than left to refuse visitors.
import type { RequestHandler } from 'express';
import type { LeadStore } from '../leads/lead-store.ts';

export function healthCheck(store: Pick<LeadStore, 'isHealthy'>): RequestHandler {
  return (_req, res) => {
    const ok = store.isHealthy();
    res
      .status(ok ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status: ok ? 'ok' : 'unavailable' });
  };
}

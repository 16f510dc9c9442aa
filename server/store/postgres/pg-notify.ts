// New leads heard from every instance: each batch of inserts sends one NOTIFY on LEADS_CHANNEL in its transaction
// (delivered only once it commits), and each instance keeps one connection that LISTENs, outside the pool, so the
// inbox's live list (server-sent events) shows a lead whichever instance stored it. The connection is made again after the database
// restarts; a lead stored while it was down appears at the inbox's next reload.
import pg from 'pg';

export const LEADS_CHANNEL = 'lead_stored';
const RECONNECT_MS = 1000;

/**
 * Calls `onLead(instance, leadId)` for each lead committed on the database; the payload is `<instance>:<lead id>`, or
 * the ids of a batch separated by commas.
 */
export async function listenForLeads(
  url: string,
  onLead: (instance: string, leadId: string) => void,
): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      void next.end().catch(() => undefined);
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', ({ channel, payload }) => {
      if (channel !== LEADS_CHANNEL || !payload) return;
      const at = payload.indexOf(':');
      if (at > 0) for (const id of payload.slice(at + 1).split(',')) onLead(payload.slice(0, at), id);
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${LEADS_CHANNEL}`);
    } catch (error) {
      lost();
      throw error;
    }
  }

  function schedule(): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      if (!stopped) connect().catch(() => undefined);
    }, RECONNECT_MS);
    retry.unref();
  }

  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

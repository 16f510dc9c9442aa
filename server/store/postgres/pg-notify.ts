// Notifications heard from every instance: a writer sends NOTIFY on a channel in its transaction (delivered only once it
// commits), and each listener keeps one connection that LISTENs, outside the pool, made again after the database
// restarts or the connection is cut. New leads (LEADS_CHANNEL) reach every instance's inbox this way, whichever stored
// them; a lead stored while the connection was down appears at the inbox's next reload. The live release
// (pg-release-store.ts) listens the same way.
import pg from 'pg';

export const LEADS_CHANNEL = 'lead_stored';
/** A lead changed by staff (claimed, released, its status, a note, a call): `<instance>:<lead id>`. */
export const CHANGES_CHANNEL = 'lead_changed';
const RECONNECT_MS = 1000;

export interface ListenOptions {
  /** Called with each notification's payload ('' when it has none), and the channel it came on. */
  onPayload(payload: string, channel: string): void;
  /** Called once LISTEN holds again on a new connection after a lost one: what was sent meanwhile was not heard. */
  onReconnect?(): void;
  /** The connection's application_name, as pg_stat_activity shows it (to tell it apart, and to cut it in a test). */
  applicationName?: string;
}

/**
 * LISTENs on `channel` (a fixed identifier of ours, never input) on a connection of its own, reconnecting a second
 * after it is lost. Rejects if the first connection cannot be made.
 */
export async function listenOn(
  url: string,
  channel: string | readonly string[],
  { onPayload, onReconnect, applicationName }: ListenOptions,
): Promise<{ stop(): Promise<void> }> {
  // Several channels on one connection: each instance keeps as few listening connections as it can.
  const channels: readonly string[] = typeof channel === 'string' ? [channel] : channel;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let connections = 0;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5000,
      application_name: applicationName,
    });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      void next.end().catch(() => undefined);
      schedule();
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (channels.includes(message.channel)) onPayload(message.payload ?? '', message.channel);
    });
    client = next;
    try {
      await next.connect();
      for (const name of channels) await next.query(`LISTEN ${name}`);
    } catch (error) {
      lost();
      throw error;
    }
    connections += 1;
    if (connections > 1 && client === next) onReconnect?.();
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

/**
 * Calls `onLead(instance, leadId)` for each lead committed on the database; the payload is `<instance>:<lead id>`, or
 * the ids of a batch separated by commas.
 */
export function listenForLeads(
  url: string,
  onLead: (instance: string, leadId: string) => void,
  onChange?: (instance: string, leadId: string) => void,
): Promise<{ stop(): Promise<void> }> {
  return listenOn(url, onChange ? [LEADS_CHANNEL, CHANGES_CHANNEL] : LEADS_CHANNEL, {
    onPayload(payload, channel) {
      const at = payload.indexOf(':');
      if (at <= 0) return;
      const instance = payload.slice(0, at);
      if (channel === CHANGES_CHANNEL) onChange?.(instance, payload.slice(at + 1));
      else for (const id of payload.slice(at + 1).split(',')) onLead(instance, id);
    },
  });
}

// GET /staff/api/events: a server-sent event `lead` with `{ "id" }` as each new lead is stored, `change` with `{ "id" }`
// as anyone changes one (claim, release, status, note, call: from any instance), and a comment every 25 s so proxies
// keep the connection open (and the inbox knows the stream is alive). The stream ends with its session: at sign-out at once; after a revoke, an
// idle timeout or the absolute limit, at the next heartbeat or event. Never activity: neither the stream nor its checks
// move the session's idle end (staff-session-life.ts).
import type { Request, Response } from 'express';
import type { LeadStoredEvent } from '../../contracts/staff-api.ts';
import { signedIn, type StaffDeps } from './staff-context.ts';
import type { SessionKeeper } from './staff-session-life.ts';

export const HEARTBEAT_MS = 25_000;

export function eventStreams(deps: StaffDeps, sessions: SessionKeeper, heartbeatMs = HEARTBEAT_MS) {
  // By the session's public handle, so that ending another session of a member (staff-account.ts) ends its streams.
  const open = new Map<string, Set<() => void>>();

  async function stream(req: Request, res: Response): Promise<void> {
    const { sessionId, session } = signedIn(res);
    const handle = session.id;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // nginx would otherwise hold the events back in its buffer.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.write(': connected\n\n');

    const ends = open.get(handle) ?? new Set<() => void>();
    open.set(handle, ends);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      ends.delete(end);
      if (ends.size === 0) open.delete(handle);
      res.end();
    };
    /** Runs `send` while the session lives; ends the stream otherwise (or when the store cannot say). */
    const whileLive = (send: () => void) =>
      void sessions.live(sessionId, false).then(
        (session) => (session && !ended ? send() : end()),
        (error: unknown) => {
          deps.logger.warn(
            { err: (error as Error).message },
            'staff event stream ended: session check failed',
          );
          end();
        },
      );
    const unsubscribeStored = deps.inbox.onLeadStored((id) => {
      const event: LeadStoredEvent = { id };
      whileLive(() => res.write(`event: lead\ndata: ${JSON.stringify(event)}\n\n`));
    });
    const unsubscribeChanged = deps.inbox.onLeadChanged((id) => {
      const event: LeadStoredEvent = { id };
      whileLive(() => res.write(`event: change\ndata: ${JSON.stringify(event)}\n\n`));
    });
    const unsubscribe = () => {
      unsubscribeStored();
      unsubscribeChanged();
    };
    const heartbeat = setInterval(() => whileLive(() => res.write(': heartbeat\n\n')), heartbeatMs);
    ends.add(end);
    req.on('close', end);
  }

  return {
    stream,
    /** Ends every stream of the session of this public handle (sign-out, or ended from another session). */
    endSession(handle: string): void {
      for (const end of [...(open.get(handle) ?? [])]) end();
    },
  };
}

// What every part of the staff area shares: its dependencies, the signed-in member of a request, and the errors that
// become JSON answers.
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { InboxStore } from '../store/contract/inbox.ts';
import type { Logger } from '../logger.ts';
import type { StaffMember, StaffSession, StaffStore } from '../store/contract/staff-store.ts';
import type { SessionLimits } from './staff-session-life.ts';

export interface StaffDeps {
  staff: StaffStore;
  inbox: InboxStore;
  audit: AuditLog;
  forms: Map<string, FormDefinition>;
  site: Site;
  logger: Logger;
  /** STAFF_ORIGIN: the passkeys' relying party and the only origin the staff area answers (server/config.ts). */
  origin: string;
  /** Whether the request came over HTTPS (server/http/security.ts, under TRUST_PROXY). */
  secure: (req: IncomingMessage) => boolean;
  /** Epoch ms; tests move it. */
  now: () => number;
  /** How long a session lives idle, and at most (STAFF_IDLE_MINUTES, STAFF_SESSION_HOURS). */
  sessionLimits: SessionLimits;
  /** SITE_TIMEZONE: the zone of the export's times (America/Los_Angeles when unset). */
  timeZone?: string;
}

export interface SignedIn {
  member: StaffMember;
  /** The cookie's secret id (the store keeps only its hash, `session.id`). */
  sessionId: string;
  session: StaffSession;
}

/** An answer the client should see: its status and `{ "error": message }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The member of a request that passed the session check (staff-api.ts). */
export function signedIn(res: Response): SignedIn {
  const signed = res.locals.signedIn as SignedIn | undefined;
  if (!signed) throw new HttpError(401, 'signed out');
  return signed;
}

/**
 * The JSON object the request carries, its fields named as the staff API's request `T` (contracts/staff-api.ts) names
 * them but not checked yet; 400 for anything else.
 */
export function jsonBody<T extends object = Record<string, unknown>>(
  req: Request,
): { [K in keyof T]?: unknown } {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'send a JSON object (Content-Type: application/json)');
  return body as { [K in keyof T]?: unknown };
}

export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

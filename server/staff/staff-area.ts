// Everything under /staff: the inbox app's shell and assets, and its API (/staff/api). Its own Express app, answered
// before the site's code ever sees the request (server/app.ts), with its own headers (staff-headers.ts). Signed out, the
// shell still loads (it shows the sign-in screen) and the API answers 401 to all but the sign-in and enrolment routes.
// Signed in, only the member's own requests move the session's idle end (staff-session-life.ts).
import { existsSync, readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { dirname, join } from 'node:path';
import bodyParser from 'body-parser';
import express, { type ErrorRequestHandler, type Router } from 'express';
import type { ErrorAnswer } from '../../contracts/staff-api.ts';
import { clientErrorOf } from '../http/error-handler.ts';
import { HttpError, signedIn, type StaffDeps } from './staff-context.ts';
import { DEFAULT_TIME_ZONE } from './staff-export-rows.ts';
import { accountRoutes } from './staff-account.ts';
import { eventStreams } from './staff-events.ts';
import { framesSelf, NONCE_PLACEHOLDER, nonceOf, staffHeaders } from './staff-headers.ts';
import { leadRoutes } from './staff-leads.ts';
import { deskRoutes } from './staff-desk.ts';
import { teamRoutes } from './staff-team.ts';
import { refusalAudit } from './staff-refusals.ts';
import { leadsGate } from './staff-roles.ts';
import { contentRoutes } from '../content-staff/content-routes.ts';
import { previewPage } from '../content-staff/preview-page.ts';
import type { ContentContext } from '../content-staff/publish-change.ts';
import { CONFIRM_WITHIN_MS } from '../releases/publisher.ts';
import { passkeyRoutes } from './staff-passkeys.ts';
import { EDITOR_PATH, editorPages } from './staff-editor.ts';
import { misdirected } from './staff-origin.ts';
import { readLimit } from './staff-read-limit.ts';
import { endShiftsWithoutSession } from './shift-end.ts';
import { clearSessionCookie, sameOriginRequest, sessionCookies, sessionIdOf } from './staff-session.ts';
import {
  DEFAULT_SESSION_LIMITS,
  isBackground,
  sessionKeeper,
  type SessionLimits,
} from './staff-session-life.ts';
import { signInLimit } from './staff-sign-in-limit.ts';
import type { TrustProxy } from '../config.ts';
import { secureRequests } from '../http/security.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import type { RateCounters } from '../store/contract/rate-counters.ts';

export const STAFF_PREFIX = '/staff';
const NOT_BUILT = 'The staff inbox is not built: run npm run build';
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const TWO_COOKIES = 'your browser sent two sign-in cookies, so neither is trusted; please sign in again';

/** Whether a request is for the staff area (and so never for the site). */
export function isStaffPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0] ?? '';
  return path === STAFF_PREFIX || path.startsWith(`${STAFF_PREFIX}/`);
}

export interface StaffAreaOptions extends StaffDeps {
  /** The built inbox app: index.html and assets/. */
  staffDir: string;
  /** The built editor (index.html, preview.html, assets/); `editor` beside staffDir when not given. */
  editorDir?: string;
  trustProxy: TrustProxy;
  /** Failed sign-ins an address may make per 15 minutes. */
  signInFailures?: number;
  /** Sign-in and enrolment ceremonies an address may start per 10 minutes. */
  ceremonyStarts?: number;
  /** Where the sign-in limits count (the lead store's rateCounters); this process's memory by default. */
  rateCounters?: RateCounters;
  /** Leads one member may read per 10 minutes (STAFF_READ_LIMIT; staff-read-limit.ts). */
  readLimit?: number;
  /** Unexpired WebAuthn challenges kept at most. */
  maxChallenges?: number;
  /** Of those, kept at most for one network (IPv4 /24, IPv6 /64); a tenth of maxChallenges by default. */
  networkChallenges?: number;
  /** Between two heartbeats of the event stream. */
  heartbeatMs?: number;
  /** ROUND_ROBIN: new leads go to the members on shift in turn (the inbox shows the shift switch). */
  roundRobin?: boolean;
  /** The content API (/staff/api/content/, server/content-staff/); none: not served. */
  content?: ContentContext;
}

/** What the server says about the content API: the built code a publish renders with. */
export interface ContentOptions {
  /** dist/: the code a release is built with (its render bundle and client assets). */
  codeDir: string;
  /** How long a publish waits for every instance before it answers; CONFIRM_WITHIN_MS by default. */
  confirmWithinMs?: number;
}

export interface StaffArea {
  handle: RequestListener;
  /** What the content API works with, when it is served (the scheduler of publishes runs on it: server/index.ts). */
  content?: ContentContext;
  /** Every API route, as `METHOD /path` under /staff/api (the tests refuse each without a session). */
  routes: () => string[];
}

/** The parts of a lead store the staff area works on. */
type StaffStores = Pick<LeadStore, 'staff' | 'inbox' | 'audit' | 'rateCounters' | 'changes' | 'releases'>;

/**
 * The staff area on a lead store, as the server wires it (and the in-process test server): staff, inbox, audit and
 * sign-in counts from the store, whether a request came over HTTPS from the same TRUST_PROXY as the site's, and the
 * clock and session limits unless a test moves or shortens them.
 */
export function staffAreaOn(
  store: StaffStores,
  options: Omit<StaffAreaOptions, keyof StaffStores | 'secure' | 'now' | 'sessionLimits' | 'content'> & {
    now?: () => number;
    sessionLimits?: SessionLimits;
    content?: ContentOptions;
  },
): StaffArea {
  const now = options.now ?? Date.now;
  return createStaffArea({
    ...options,
    content: options.content && {
      changes: store.changes,
      releases: store.releases,
      audit: store.audit,
      logger: options.logger,
      codeDir: options.content.codeDir,
      now,
      timeZone: options.timeZone ?? DEFAULT_TIME_ZONE,
      confirmWithinMs: options.content.confirmWithinMs ?? CONFIRM_WITHIN_MS,
    },
    staff: store.staff,
    inbox: store.inbox,
    audit: store.audit,
    rateCounters: store.rateCounters,
    secure: secureRequests(options.trustProxy),
    now,
    sessionLimits: options.sessionLimits ?? DEFAULT_SESSION_LIMITS,
  });
}

export function createStaffArea(options: StaffAreaOptions): StaffArea {
  const deps: StaffDeps = options;
  const { staff, audit, logger } = deps;
  const json = bodyParser.json({ limit: '64kb' });
  const sessions = sessionKeeper(deps);
  const events = eventStreams(deps, sessions, options.heartbeatMs);
  const passkeys = passkeyRoutes(
    deps,
    signInLimit(options.trustProxy, options.signInFailures, options.ceremonyStarts, options.rateCounters),
    options.maxChallenges,
    options.networkChallenges,
  );

  const api = express.Router();
  // What someone searched for (a name, a phone number) never travels in an address, where proxies and browsers keep
  // it: the search is POST /leads/search. Refused before anything else, and never logged with its value.
  api.use((req, _res, next) => {
    if (Object.keys(req.query).some((key) => key === 'q' || key.startsWith('q[')))
      throw new HttpError(
        400,
        'a search goes in the body of POST /staff/api/leads/search, never in the address',
      );
    next();
  });
  api.use((req, _res, next) => {
    if (!SAFE_METHODS.has(req.method) && !sameOriginRequest(req, deps.origin))
      throw new HttpError(403, 'cross-site request');
    next();
  });
  const open = express.Router();
  open.use(json);
  passkeys.public(open);
  api.use(open);
  // Everything after this needs a live session. The event stream, which a tab keeps open unattended, and the inbox's
  // own requests need one too, but are never the member's activity.
  api.use(async (req, res, next) => {
    const cookies = sessionCookies(req, deps.origin);
    if (cookies.length > 1) {
      // Another path or host set one too (a tossed cookie): neither is trusted, and ours is cleared.
      clearSessionCookie(res, deps.origin);
      throw new HttpError(401, TWO_COOKIES);
    }
    const sessionId = sessionIdOf(req, staff, deps.origin);
    const activity = !isBackground(req) && req.path !== '/events';
    const session = sessionId && (await sessions.live(sessionId, activity));
    if (!sessionId || !session) {
      if (cookies.length > 0) clearSessionCookie(res, deps.origin);
      throw new HttpError(401, 'signed out');
    }
    res.locals.signedIn = { member: session.member, sessionId, session };
    next();
  });
  const signed = express.Router();
  // A content document (a page of blocks) may be larger than any inbox request: its own limit, parsed before the rest.
  if (options.content) signed.use('/content', bodyParser.json({ limit: '1mb' }));
  signed.use(json);
  signed.use(leadsGate);
  passkeys.signedIn(signed);
  accountRoutes(deps, sessions, events.endSession)(signed);
  leadRoutes(deps, readLimit(deps, options.readLimit, options.rateCounters))(signed);
  deskRoutes(deps)(signed);
  teamRoutes(deps, options.roundRobin ?? false)(signed);
  if (options.content) contentRoutes(options.content, deps.origin)(signed);
  signed.get('/events', events.stream);
  signed.post('/signout', async (req, res) => {
    const { member, sessionId, session } = signedIn(res);
    await staff.endSession(sessionId);
    events.endSession(session.id);
    clearSessionCookie(res, deps.origin);
    await audit.append({ actor: member.email, action: 'sign-out' });
    await endShiftsWithoutSession(deps, { staffId: member.id, why: 'signed out' });
    res.status(204).end();
  });
  api.use(signed);
  api.use(() => {
    throw new HttpError(404, 'not found');
  });

  const refused = refusalAudit(deps, options.trustProxy);
  const errors: ErrorRequestHandler = async (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const known =
      error instanceof HttpError ? { status: error.status, message: error.message } : clientErrorOf(error);
    if (known?.status === 403 || known?.status === 429) await refused(req, res, known.status, known.message);
    if (!known)
      // The store failed (or a bug): the staff can try again; nothing about the request goes to the log.
      logger.error(
        { err: (error as Error)?.message, method: req.method, path: req.path },
        'staff request failed',
      );
    const answer: ErrorAnswer = { error: known?.message ?? 'the inbox is not available; try again shortly' };
    res.status(known?.status ?? 503).json(answer);
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(staffHeaders(deps.secure));
  app.use(misdirected(deps.origin));
  app.use(`${STAFF_PREFIX}/api`, api, errors);
  app.use(
    `${STAFF_PREFIX}/assets`,
    // Hashed names never go stale: serve-static's immutable caching, which it sets only where none is set yet.
    (_req, res, next) => {
      res.removeHeader('Cache-Control');
      next();
    },
    express.static(join(options.staffDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
    }),
  );
  // The studio's editor online, for editors (staff-editor.ts): dist/editor beside dist/inbox unless told otherwise.
  app.use(
    EDITOR_PATH,
    editorPages({
      editorDir: options.editorDir ?? join(dirname(options.staffDir), 'editor'),
      staff,
      sessions,
      origin: deps.origin,
    }),
  );
  // A change set's preview link (server/content-staff/preview-page.ts): no session, the link's token decides.
  if (options.content) app.get(`${STAFF_PREFIX}/preview/:token`, previewPage(options.content));
  const shellFile = join(options.staffDir, 'index.html');
  const shell = existsSync(shellFile) ? readFileSync(shellFile, 'utf8') : undefined;
  app.use((req, res) => {
    if (req.path === STAFF_PREFIX) return res.redirect(301, `${STAFF_PREFIX}/`);
    if (!SAFE_METHODS.has(req.method)) return res.status(405).type('text/plain').send('Method not allowed');
    if (shell === undefined) return res.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    // The change set page frames the page before and after (GET /content/changes/<id>/render), of this origin alone.
    if (options.content) framesSelf(res);
    res.type('html').send(shell.replaceAll(NONCE_PLACEHOLDER, nonceOf(res)));
  });
  app.use(((error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    const status = clientErrorOf(error)?.status ?? 404;
    res
      .status(status)
      .type('text/plain; charset=utf-8')
      .send(status === 404 ? 'Not found' : 'Bad request');
  }) as ErrorRequestHandler);

  const routes = () =>
    [open, signed].flatMap((router: Router) =>
      router.stack.flatMap((layer) => {
        const route = layer.route as { path: string; methods: Record<string, boolean> } | undefined;
        return route
          ? Object.keys(route.methods).map((method) => `${method.toUpperCase()} ${route.path}`)
          : [];
      }),
    );
  return { handle: (req, res) => void app(req, res), routes, content: options.content };
}

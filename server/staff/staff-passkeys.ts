// The passkey ceremonies (WebAuthn, by @simplewebauthn/server): enrolment with a one-time invitation, sign-in with a
// discoverable credential, re-authentication in a session, and adding a passkey when signed in, which needs this
// session's user-verified assertion (its sign-in or a re-authentication) of the last 5 minutes: a stolen session or a
// walk-up at an unattended tab never becomes a lasting credential. The relying party is STAFF_ORIGIN, never the Host
// header; user verification (a PIN, a fingerprint) is always required, and its flag is read from the verified answer,
// never from the client. Each challenge is stored, good for one try, 5 minutes.
import { randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  REFUSED,
  type CredentialRequest,
  type EnrolOptionsRequest,
  type EnrolVerifyRequest,
  type Me,
  type SignedInMember,
} from '../../contracts/staff-api.ts';
import { HttpError, iso, jsonBody, signedIn, type SignedIn, type StaffDeps } from './staff-context.ts';
import { setSessionCookie } from './staff-session.ts';
import { deviceOf, FRESH_ASSERTION_MS, sessionClock, sessionRef } from './staff-session-life.ts';
import type { ChallengePurpose, NewPasskey, StaffMember } from '../store/contract/staff-store.ts';
import type { SignInLimit } from './staff-sign-in-limit.ts';

const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Unexpired challenges kept at most, from every address together (each address starts 30 per 10 minutes at most). */
export const MAX_CHALLENGES = 1000;
/** One network (IPv4 /24, IPv6 /64) holds at most this share of them: a flood from a few networks leaves room. */
const NETWORK_SHARE = 10;
const INVALID_INVITATION = 'invalid or expired invitation';

/** A passkey as the audit log names it: the start of its credential id (public: the browser sends it to sign in). */
export const passkeyRef = (id: string): string => `passkey ${id.slice(0, 8)}`;

/** The relying party: STAFF_ORIGIN's host name, and that origin, which the browser must report. */
const relyingParty = (deps: StaffDeps): { rpID: string; origin: string } => ({
  rpID: new URL(deps.origin).hostname,
  origin: deps.origin,
});

/** The credential the browser sent (a base64url JSON from @simplewebauthn/browser); 400 when it is not one. */
function credentialOf<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(body: {
  [K in keyof CredentialRequest]?: unknown;
}): T {
  const response = body.response as { id?: unknown; response?: unknown } | undefined;
  if (
    typeof response !== 'object' ||
    response === null ||
    typeof response.id !== 'string' ||
    !response.response
  )
    throw new HttpError(400, 'send the passkey response as "response"');
  return response as T;
}

const tokenOf = (body: { [K in keyof EnrolOptionsRequest]?: unknown }): string => {
  if (typeof body.token !== 'string' || body.token.length > 200) throw new HttpError(403, INVALID_INVITATION);
  return body.token;
};

export const memberJson = (member: StaffMember): SignedInMember => ({
  email: member.email,
  admin: member.admin,
  roles: member.roles,
});

/** 403 unless this session made a user-verified passkey assertion in the last 5 minutes (its sign-in counts). */
export function requireFreshAssertion(res: Response, now: number): void {
  const { verifiedAt } = signedIn(res).session;
  if (verifiedAt === null || now - verifiedAt > FRESH_ASSERTION_MS)
    throw new HttpError(403, REFUSED.freshPasskey);
}

/** The signed-in member, their passkeys and when their session ends (GET /me). */
export async function meJson(deps: StaffDeps, { member, session }: SignedIn): Promise<Me> {
  const passkeys = await deps.staff.passkeysOf(member.id);
  return {
    ...memberJson(member),
    ...sessionClock(session, deps.sessionLimits, deps.now()),
    passkeys: passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      createdAt: new Date(passkey.createdAt).toISOString(),
      lastUsedAt: iso(passkey.lastUsedAt),
    })),
  };
}

export function passkeyRoutes(
  deps: StaffDeps,
  limit: SignInLimit,
  maxChallenges = MAX_CHALLENGES,
  networkQuota = Math.max(1, Math.floor(maxChallenges / NETWORK_SHARE)),
) {
  const { staff, audit } = deps;

  /**
   * Stores a challenge for one ceremony; 503 while the request's network holds its quota of unexpired ones, or the table
   * holds `maxChallenges` and no network holds more of them than this one would (StaffStore.saveChallenge).
   */
  async function saveChallenge(
    req: Request,
    res: Response,
    challenge: string,
    purpose: ChallengePurpose,
    staffId: string | null,
  ) {
    const now = deps.now();
    const network = { key: limit.networkOf(req), quota: networkQuota };
    if (
      await staff.saveChallenge(
        challenge,
        purpose,
        staffId,
        now + CHALLENGE_TTL_MS,
        now,
        maxChallenges,
        network,
      )
    )
      return;
    deps.logger.warn(
      { maxChallenges, networkQuota },
      'passkey challenge refused: its network or the table is full',
    );
    res.setHeader('Retry-After', String(CHALLENGE_TTL_MS / 1000));
    throw new HttpError(503, 'too many sign-ins in progress; try again in a few minutes');
  }

  /** Registration options for `member` (or a new member of that id), with the challenge stored for `purpose`. */
  async function registrationOptions(
    req: Request,
    res: Response,
    purpose: ChallengePurpose,
    staffId: string,
    email: string,
  ) {
    const { rpID } = relyingParty(deps);
    const existing = await staff.passkeysOf(staffId);
    const options = await generateRegistrationOptions({
      rpName: `${deps.site.brand.name} staff`,
      rpID,
      userID: Buffer.from(staffId, 'base64url'),
      userName: email,
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    });
    await saveChallenge(req, res, options.challenge, purpose, staffId);
    return options;
  }

  /** The new passkey, once the browser's registration answers one of our `purpose` challenges for `staffId`. */
  async function registered(
    req: Request,
    body: { [K in keyof CredentialRequest]?: unknown },
    purpose: ChallengePurpose,
    staffId: (challengeStaffId: string | null) => boolean,
  ): Promise<{ passkey: NewPasskey; staffId: string } | undefined> {
    const { rpID, origin } = relyingParty(deps);
    let owner: string | null = null;
    try {
      const verdict = await verifyRegistrationResponse({
        response: credentialOf<RegistrationResponseJSON>(body),
        expectedChallenge: async (challenge) => {
          const taken = await staff.takeChallenge(challenge, purpose, deps.now());
          owner = taken?.staffId ?? null;
          return taken !== undefined && staffId(owner);
        },
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: true,
      });
      if (!verdict.verified || !verdict.registrationInfo.userVerified || owner === null) return undefined;
      const { credential } = verdict.registrationInfo;
      return {
        passkey: {
          id: credential.id,
          publicKey: credential.publicKey,
          counter: credential.counter,
          transports: credential.transports ?? [],
          name: deviceOf(req),
        },
        staffId: owner,
      };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      deps.logger.info({ reason: (error as Error).message }, 'passkey registration refused');
      return undefined;
    }
  }

  /** A session for `member` after a user-verified ceremony, audited as `entry`: its cookie only once the row is written. */
  async function startSession(
    req: Request,
    res: Response,
    member: StaffMember,
    entry: { action: 'enrol' | 'sign-in'; detail?: string },
  ): Promise<void> {
    const sessionId = await staff.startSession(member.id, deps.now(), deviceOf(req));
    try {
      await audit.append({ actor: member.email, ...entry });
    } catch (error) {
      await staff.endSession(sessionId).catch(() => undefined);
      throw error;
    }
    setSessionCookie(res, staff, sessionId, deps.origin);
  }

  /** The usable invitation of `token`; else 403, saying when an admin cancelled it or its member was revoked. */
  async function usableInvite(token: string) {
    const invite = await staff.inviteFor(token, deps.now());
    if (invite) return invite;
    const refusal = await staff.inviteRefusal(token, deps.now());
    throw new HttpError(
      403,
      refusal === 'revoked'
        ? REFUSED.revokedInvitation
        : refusal === 'cancelled'
          ? REFUSED.cancelledInvitation
          : INVALID_INVITATION,
    );
  }

  const enrolOptions = async (req: Request, res: Response) => {
    await limit.started(req, res);
    const invite = await usableInvite(tokenOf(jsonBody<EnrolOptionsRequest>(req)));
    const staffId = invite.member?.id ?? randomBytes(16).toString('base64url');
    res.json(await registrationOptions(req, res, 'enrol', staffId, invite.email));
  };

  const enrolVerify = async (req: Request, res: Response<SignedInMember>) => {
    const body = jsonBody<EnrolVerifyRequest>(req);
    const token = tokenOf(body);
    const { kind } = await usableInvite(token);
    const result = await registered(req, body, 'enrol', () => true);
    if (!result) throw new HttpError(400, 'the passkey could not be registered; try again');
    const member = await staff.enrol(token, result.staffId, result.passkey, deps.now());
    if (!member) {
      // Cancelled, revoked or spent since the first check: the store's own check, in its transaction, decided.
      await usableInvite(token);
      throw new HttpError(403, INVALID_INVITATION);
    }
    await startSession(req, res, member, {
      action: 'enrol',
      detail: kind === 'new member' ? undefined : kind === 'reinstatement' ? 'reinstated' : 'passkey added',
    });
    res.json(memberJson(member));
  };

  const signInOptions = async (req: Request, res: Response) => {
    await limit.started(req, res);
    const { rpID } = relyingParty(deps);
    // No allowCredentials: the browser offers the passkeys it holds for this site (discoverable credentials).
    const options = await generateAuthenticationOptions({ rpID, userVerification: 'required' });
    await saveChallenge(req, res, options.challenge, 'sign-in', null);
    res.json(options);
  };

  /**
   * Whether `response` is a user-verified assertion of `passkey` for a challenge `accept` takes (each is good once);
   * when it is, the passkey's use is recorded. Why a response did not verify is logged as `refused`, never the response.
   */
  async function assertionVerified(
    response: AuthenticationResponseJSON,
    passkey: NonNullable<Awaited<ReturnType<StaffDeps['staff']['passkey']>>>,
    accept: (challenge: string) => Promise<boolean>,
    refused: string,
  ): Promise<boolean> {
    const { rpID, origin } = relyingParty(deps);
    let verdict;
    try {
      verdict = await verifyAuthenticationResponse({
        response,
        expectedChallenge: accept,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(passkey.publicKey),
          counter: passkey.counter,
        },
        requireUserVerification: true,
      });
    } catch (error) {
      deps.logger.info({ reason: (error as Error).message }, refused);
      return false;
    }
    if (!verdict.verified || !verdict.authenticationInfo.userVerified) return false;
    await staff.passkeyUsed(passkey.id, verdict.authenticationInfo.newCounter, deps.now());
    return true;
  }

  const signInVerify = async (req: Request, res: Response<SignedInMember>) => {
    await limit.check(req, res);
    const response = credentialOf<AuthenticationResponseJSON>(jsonBody<CredentialRequest>(req));
    const passkey = await staff.passkey(response.id);
    const fail = async (reason: string) => {
      await audit.append({
        actor: passkey?.member.email ?? 'unknown',
        action: 'sign-in-failed',
        detail: reason,
      });
      await limit.failed(req);
      throw new HttpError(401, 'passkey not recognised');
    };
    if (!passkey || passkey.member.revokedAt !== null) return fail('unknown passkey');
    const accept = async (challenge: string) =>
      (await staff.takeChallenge(challenge, 'sign-in', deps.now())) !== undefined;
    if (!(await assertionVerified(response, passkey, accept, 'passkey sign-in refused')))
      return fail('verification failed');
    await startSession(req, res, passkey.member, { action: 'sign-in' });
    res.json(memberJson(passkey.member));
  };

  const addOptions = async (req: Request, res: Response) => {
    const { member } = signedIn(res);
    requireFreshAssertion(res, deps.now());
    res.json(await registrationOptions(req, res, 'passkey', member.id, member.email));
  };

  const addVerify = async (req: Request, res: Response<Me>) => {
    const { member } = signedIn(res);
    requireFreshAssertion(res, deps.now());
    const result = await registered(
      req,
      jsonBody<CredentialRequest>(req),
      'passkey',
      (owner) => owner === member.id,
    );
    if (!result) throw new HttpError(400, 'the passkey could not be registered; try again');
    if (!(await staff.addPasskey(member.id, result.passkey, deps.now())))
      throw new HttpError(409, 'this passkey is registered already');
    await audit.append({
      actor: member.email,
      action: 'passkey-added',
      detail: `${passkeyRef(result.passkey.id)}, ${sessionRef(signedIn(res).session)}`,
    });
    res.status(201).json(await meJson(deps, signedIn(res)));
  };

  // Re-authentication: the member's own passkey again, user-verified, so this session may add or remove a passkey.
  const reauthOptions = async (req: Request, res: Response) => {
    const { member } = signedIn(res);
    const { rpID } = relyingParty(deps);
    const passkeys = await staff.passkeysOf(member.id);
    const options = await generateAuthenticationOptions({
      rpID,
      userVerification: 'required',
      allowCredentials: passkeys.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    });
    await saveChallenge(req, res, options.challenge, 'reauth', member.id);
    res.json(options);
  };

  const reauthVerify = async (req: Request, res: Response) => {
    const { member, sessionId, session } = signedIn(res);
    const response = credentialOf<AuthenticationResponseJSON>(jsonBody<CredentialRequest>(req));
    const passkey = await staff.passkey(response.id);
    const fail = async (reason: string) => {
      await audit.append({ actor: member.email, action: 're-authenticate-failed', detail: reason });
      throw new HttpError(400, 'the passkey check failed; try again');
    };
    if (!passkey || passkey.member.id !== member.id) return fail('not a passkey of this member');
    const accept = async (challenge: string) =>
      (await staff.takeChallenge(challenge, 'reauth', deps.now()))?.staffId === member.id;
    if (!(await assertionVerified(response, passkey, accept, 'passkey re-authentication refused')))
      return fail('verification failed');
    await staff.sessionVerified(sessionId, deps.now());
    await audit.append({ actor: member.email, action: 're-authenticate', detail: sessionRef(session) });
    res.status(204).end();
  };

  return {
    /** The routes open to a signed-out request. */
    public(router: Router) {
      router.post('/enrol/options', enrolOptions);
      router.post('/enrol/verify', enrolVerify);
      router.post('/signin/options', signInOptions);
      router.post('/signin/verify', signInVerify);
    },
    signedIn(router: Router) {
      router.get('/me', async (_req, res: Response<Me>) => void res.json(await meJson(deps, signedIn(res))));
      router.post('/passkeys/options', addOptions);
      router.post('/passkeys/verify', addVerify);
      router.post('/reauth/options', reauthOptions);
      router.post('/reauth/verify', reauthVerify);
    },
  };
}

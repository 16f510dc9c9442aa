// A member's own account, behind a session: when this session ends (GET /session), their passkeys (removing any but the
// last, with a fresh passkey check as adding one needs: staff-passkeys.ts) and their sessions (ending one of the
// others, or all others). Every act is audited with the member as its actor.
import type { Request, Response, Router } from 'express';
import {
  REFUSED,
  type EndedSessions,
  type Me,
  type SessionClock,
  type SessionsList,
} from '../../contracts/staff-api.ts';
import { HttpError, signedIn, type SignedIn, type StaffDeps } from './staff-context.ts';
import { meJson, passkeyRef, requireFreshAssertion } from './staff-passkeys.ts';
import { sessionClock, sessionRef, type SessionKeeper } from './staff-session-life.ts';

export function accountRoutes(
  deps: StaffDeps,
  sessions: SessionKeeper,
  /** Ends the event streams of the session of this handle. */
  endStreams: (handle: string) => void,
) {
  const { staff, audit } = deps;

  // Without X-Staff-Background this request is itself activity: the inbox's "Stay signed in".
  const clock = (_req: Request, res: Response<SessionClock>) =>
    void res.json(sessionClock(signedIn(res).session, deps.sessionLimits, deps.now()));

  const list = async (_req: Request, res: Response<SessionsList>) => {
    const { member, session } = signedIn(res);
    const live = await sessions.liveOf(member);
    res.json({
      sessions: live.map((info) => ({
        id: info.id,
        createdAt: new Date(info.createdAt).toISOString(),
        lastActiveAt: new Date(info.lastSeenAt).toISOString(),
        device: info.device,
        current: info.id === session.id,
      })),
    });
  };

  /** Ends another session of the signed-in member, its event streams with it; false when they have none such. */
  async function endOther({ member, session }: SignedIn, id: string): Promise<boolean> {
    if (!(await staff.endSessionOf(member.id, id))) return false;
    endStreams(id);
    await audit.append({
      actor: member.email,
      action: 'session-ended',
      detail: `${sessionRef({ id })}, from ${sessionRef(session)}`,
    });
    return true;
  }

  const end = async (req: Request, res: Response) => {
    const signed = signedIn(res);
    const id = String(req.params.id);
    if (id === signed.session.id) throw new HttpError(400, 'sign out to end this session');
    if (!(await endOther(signed, id))) throw new HttpError(404, 'no such session');
    res.status(204).end();
  };

  const endOthers = async (_req: Request, res: Response<EndedSessions>) => {
    const signed = signedIn(res);
    let ended = 0;
    for (const other of await sessions.liveOf(signed.member))
      if (other.id !== signed.session.id && (await endOther(signed, other.id))) ended += 1;
    res.json({ ended });
  };

  const removePasskey = async (req: Request, res: Response<Me>) => {
    const signed = signedIn(res);
    requireFreshAssertion(res, deps.now());
    const id = String(req.params.id);
    const outcome = await staff.removePasskey(signed.member.id, id);
    if (outcome === 'missing') throw new HttpError(404, 'no such passkey');
    if (outcome === 'last') throw new HttpError(409, REFUSED.lastPasskey);
    await audit.append({
      actor: signed.member.email,
      action: 'passkey-removed',
      detail: `${passkeyRef(id)}, ${sessionRef(signed.session)}`,
    });
    res.json(await meJson(deps, signed));
  };

  return (router: Router) => {
    router.get('/session', clock);
    router.get('/sessions', list);
    router.post('/sessions/end-others', endOthers);
    router.delete('/sessions/:id', end);
    router.delete('/passkeys/:id', removePasskey);
  };
}

// Sessions end when people leave: an open inbox that only receives new leads (the event stream, and the list it
// refreshes on its own, X-Staff-Background) is signed out at the idle limit, however many leads arrive, and none of
// those refreshes is audited as its member's read. Only the member's own requests move the end. The limits as
// STAFF_IDLE_MINUTES sets them (2 minutes here), on the server's clock, moved by the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/config.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { enrolled, sendLead, type StaffClient } from './staff-client.ts';

const SECOND = 1000;
const config = readConfig({ STAFF_IDLE_MINUTES: '2' });
let clock = Date.now();
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({
    staff: {
      now: () => clock,
      sessionLimits: { idleMs: config.staffIdleMs, absoluteMs: config.staffSessionMs },
      heartbeatMs: 50,
    },
  });
});
afterAll(() => server.stop());

const auditRows = async () => (await server.store.audit.page({ limit: 500 })).rows.reverse();

/** The member's event stream, read as it comes. */
async function eventsOf(member: StaffClient) {
  const response = await fetch(`${server.url}/staff/api/events`, {
    headers: { Cookie: member.cookie ?? '' },
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = '';
  return {
    /** Reads until `text` came (true) or the stream ended (false). */
    async until(text: string): Promise<boolean> {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) return false;
        received += value;
      }
      return true;
    },
  };
}

describe('the idle limit', () => {
  it('holds while leads arrive: the event stream and background refreshes never extend it, nor read in their name', async () => {
    const email = 'nights@example.org';
    const member = await enrolled(server, email);
    const events = await eventsOf(member);
    // A lead every 30 seconds; the open list refreshes itself after each, as the inbox does.
    for (let elapsed = 30; elapsed < 120; elapsed += 30) {
      clock += 30 * SECOND;
      const id = await sendLead(server);
      expect(await events.until(`"id":"${id}"`)).toBe(true);
      const refreshed = await member.background('/leads');
      expect(refreshed.status).toBe(200);
      expect(((await refreshed.json()) as { leads: { id: string }[] }).leads[0]?.id).toBe(id);
    }
    // Two minutes after the member's last own act, leads still arriving: signed out, the stream ended.
    clock += 30 * SECOND;
    const late = await sendLead(server);
    expect(await events.until(`"id":"${late}"`)).toBe(false);
    expect(await member.background('/leads')).toHaveProperty('status', 401);
    expect(await member.get('/me')).toHaveProperty('status', 401);

    const rows = await auditRows();
    const about = (actor: string) => rows.filter((row) => row.actor === actor).map((row) => row.action);
    expect(about(email)).toEqual(['enrol', 'session-timeout']);
    expect(about(`auto:${email}`)).toEqual(['auto-list', 'auto-list', 'auto-list']);
    expect(rows.find((row) => row.action === 'session-timeout')?.detail).toMatch(
      /^idle limit, session [\da-f]{8}$/,
    );
  });

  it("is moved by the member's own requests only, and a background request still needs a live session", async () => {
    const member = await enrolled(server, 'days@example.org');
    const signedInAt = clock;
    const me = await member.json<{ idleExpiresAt: string; expiresAt: string; idleSeconds: number }>(
      await member.get('/me'),
    );
    expect(me).toMatchObject({
      idleExpiresAt: new Date(signedInAt + 2 * 60 * SECOND).toISOString(),
      expiresAt: new Date(signedInAt + 12 * 3600 * SECOND).toISOString(),
      idleSeconds: 120,
      serverTime: new Date(clock).toISOString(),
    });
    clock += 90 * SECOND;
    expect(await member.get('/leads')).toHaveProperty('status', 200);
    const actedAt = clock;
    clock += 90 * SECOND;
    // Three minutes after sign-in, 90 seconds after the last act: alive, and asking does not move the end.
    const asked = await member.json<{ idleExpiresAt: string }>(await member.background('/session'));
    expect(asked.idleExpiresAt).toBe(new Date(actedAt + 120 * SECOND).toISOString());
    clock += 29 * SECOND;
    expect(await member.background('/me')).toHaveProperty('status', 200);
    clock += 1 * SECOND;
    expect(await member.background('/session')).toHaveProperty('status', 401);
  });

  it("audits a read marked as the inbox's own as such: marking hides no read", async () => {
    const member = await enrolled(server, 'marker@example.org');
    const id = await sendLead(server);
    expect(
      await member.request('GET', `/leads/${id}`, undefined, { 'X-Staff-Background': '1' }),
    ).toHaveProperty('status', 200);
    const rows = await auditRows();
    expect(rows.at(-1)).toMatchObject({ actor: 'auto:marker@example.org', action: 'auto-view', leadId: id });
    // "Stay signed in": the session's own question, without the mark, is activity.
    const before = await member.json<{ idleExpiresAt: string }>(await member.background('/session'));
    clock += 60 * SECOND;
    const stayed = await member.json<{ idleExpiresAt: string }>(await member.get('/session'));
    expect(Date.parse(stayed.idleExpiresAt) - Date.parse(before.idleExpiresAt)).toBe(60 * SECOND);
  });
});

// Scheduled publishes: the server runs one at its time on its own timer (no visit, no request), and the public page
// changes; one whose approval went stale after it was scheduled fails: GET /changes/<id> shows why, /healthz says
// degraded, and the team chat is told which change set, with no patient data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, waitFor, type Receiver } from '../../helpers/fixtures.ts';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE_URL, approvedChange, contentTest, setDuration } from './content-client.ts';

const MINUTE = 60_000;
let receiver: Receiver;
let editor: StaffClient;
let reviewer: StaffClient;
let publisher: StaffClient;

const t = contentTest(async () => {
  receiver = await startReceiver();
  return { webhookUrl: receiver.url, scheduleTickMs: 200 };
});
beforeAll(async () => {
  editor = await t.member('ed@example.org', ['editor']);
  reviewer = await t.member('maya@example.org', ['reviewer'], {
    name: 'Maya Chen',
    credential: 'MD',
  });
  publisher = await t.member('pub@example.org', ['publisher']);
}, 60_000);
afterAll(() => receiver?.stop());

const page = async () => (await fetch(`${t.server.url}${PAGE_URL}`)).text();
const health = async () => (await (await fetch(`${t.server.url}/healthz`)).json()) as Record<string, unknown>;
const schedule = (id: string, at: number) =>
  publisher.post(`${API}/${id}/schedule`, { at: new Date(at).toISOString() });

describe('scheduled publishes', () => {
  it('runs one at its time, by the server alone: the page changes, the set is published', async () => {
    const id = await approvedChange(editor, reviewer, 'Later', '9-15 days');
    expect(await publisher.json(await schedule(id, t.clock + 10 * MINUTE))).toMatchObject({
      schedule: { state: 'pending' },
    });
    // Not yet its time: ticks pass, nothing runs.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({
      state: 'in_review',
      schedule: { state: 'pending', by: 'pub@example.org' },
    });
    t.clock += 11 * MINUTE;
    await waitFor(
      async () =>
        (await editor.json<{ schedule: { state: string } }>(await editor.get(`${API}/${id}`))).schedule
          .state === 'done',
      90_000,
    );
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({ state: 'published' });
    await waitFor(async () => (await page()).includes('9-15 days'), 10_000);
    expect(await health()).toMatchObject({ status: 'ok' });
    expect(receiver.messages).toEqual([]);
  }, 120_000);

  it('fails one whose approval went stale: shown on the set, /healthz degraded, told to chat without patient data', async () => {
    const id = await approvedChange(editor, reviewer, 'Stale approval', '3-5 days');
    expect((await publisher.reauthenticate()).status).toBe(204);
    expect((await schedule(id, t.clock + MINUTE)).status).toBe(200);
    await setDuration(editor, id, '3-6 days');
    t.clock += 2 * MINUTE;
    await waitFor(async () => receiver.messages.length > 0, 30_000);
    const shown = await editor.json<{ state: string; schedule: { state: string; error: string } }>(
      await editor.get(`${API}/${id}`),
    );
    expect(shown.state).toBe('in_review');
    expect(shown.schedule.state).toBe('failed');
    expect(shown.schedule.error).toContain('missing: clinical');
    expect(await health()).toMatchObject({ status: 'degraded', schedules: { failed: 1 } });
    const [message] = receiver.messages;
    expect(message?.text).toContain('The scheduled publish of the change set "Stale approval" failed');
    // Its link opens the change set's page in the staff app.
    const link = /Open it: (\S+)/.exec(message?.text ?? '')?.[1] ?? '';
    expect(new URL(link).pathname).toBe(`/staff/changes/${id}`);
    expect(await page()).not.toContain('3-6 days');
    const audit = (await t.server.store.audit.page({ limit: 100 })).rows;
    expect(audit).toContainEqual(
      expect.objectContaining({ actor: 'pub@example.org', action: 'change-schedule-failed' }),
    );
    // A publisher dismisses it: /healthz is ok again, the failure stays in the audit log.
    expect((await publisher.reauthenticate()).status).toBe(204);
    const dismissed = await publisher.request('DELETE', `${API}/${id}/schedule`);
    expect(dismissed.status).toBe(200);
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({ schedule: null });
    expect(await health()).toMatchObject({ status: 'ok' });
  }, 60_000);

  it('cancels a pending schedule (publishers only, a fresh passkey, same site; audited): it never runs', async () => {
    const id = await approvedChange(editor, reviewer, 'Cancelled', '4-8 days');
    expect((await publisher.reauthenticate()).status).toBe(204);
    expect((await schedule(id, t.clock + 20 * MINUTE)).status).toBe(200);
    // Rescheduling replaces the time.
    expect((await schedule(id, t.clock + 10 * MINUTE)).status).toBe(200);
    const shown = await editor.json<{ schedule: { at: string }; timeZone: string }>(
      await editor.get(`${API}/${id}`),
    );
    expect(shown.schedule.at).toBe(new Date(t.clock + 10 * MINUTE).toISOString());
    // The zone the staff screens pick and show it in: SITE_TIMEZONE.
    expect(shown.timeZone).toBe('America/Los_Angeles');

    const cancel = (client: StaffClient, headers: Record<string, string> = {}) =>
      client.request('DELETE', `${API}/${id}/schedule`, undefined, headers);
    expect((await cancel(editor)).status).toBe(403);
    expect((await cancel(publisher, { Origin: 'https://elsewhere.example' })).status).toBe(403);
    t.clock += 6 * MINUTE;
    // Not yet due, but the last passkey check is too old.
    expect((await schedule(id, t.clock + 10 * MINUTE)).status).toBe(401);
    expect((await cancel(publisher)).status).toBe(401);
    expect((await publisher.reauthenticate()).status).toBe(204);
    const cancelled = await cancel(publisher);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual({ schedule: null });
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({ schedule: null });
    expect(await t.server.store.changes.get(id)).toMatchObject({ schedule: null, state: 'in_review' });
    const audit = (await t.server.store.audit.page({ limit: 200 })).rows;
    expect(audit).toContainEqual(
      expect.objectContaining({ actor: 'pub@example.org', action: 'change-schedule-cancel' }),
    );
    // Past its time, ticks pass: nothing runs, the page is as it was.
    t.clock += 10 * MINUTE;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({ state: 'in_review' });
    expect(await page()).not.toContain('4-8 days');
    // Nothing left to cancel.
    const again = await cancel(publisher);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: expect.stringContaining('no scheduled publish') });
  }, 60_000);

  it('refuses to cancel or move a schedule that is running, and one that is done, saying why', async () => {
    // The clock moved past the idle limit of the sessions that sat still.
    for (const client of [editor, reviewer, publisher]) expect((await client.signIn()).status).toBe(200);
    const id = await approvedChange(editor, reviewer, 'Already running', '6-9 days');
    expect((await publisher.reauthenticate()).status).toBe(204);
    expect((await schedule(id, t.clock + 30 * MINUTE)).status).toBe(200);
    // Another instance claimed it (the server's own clock is still before its time, so its ticks leave it).
    expect(await t.server.store.changes.claimDueSchedule(t.clock + 30 * MINUTE, 60 * MINUTE)).toMatchObject({
      id,
    });
    const cancel = () => publisher.request('DELETE', `${API}/${id}/schedule`);
    const running = await cancel();
    expect(running.status).toBe(409);
    expect(await running.json()).toMatchObject({ error: expect.stringContaining('running now') });
    const moved = await schedule(id, t.clock + 40 * MINUTE);
    expect(moved.status).toBe(409);
    expect((await t.server.store.changes.get(id))?.schedule).toMatchObject({ state: 'running' });
    await t.server.store.changes.finishSchedule(id, { error: null });
    const done = await cancel();
    expect(done.status).toBe(409);
    expect(await done.json()).toMatchObject({ error: expect.stringContaining('done') });
  }, 60_000);
});

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
    expect(message?.text).toContain(`/staff/content/${id}`);
    expect(await page()).not.toContain('3-6 days');
    const audit = (await t.server.store.audit.page({ limit: 100 })).rows;
    expect(audit).toContainEqual(
      expect.objectContaining({ actor: 'pub@example.org', action: 'change-schedule-failed' }),
    );
  }, 60_000);
});

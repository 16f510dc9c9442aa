// A scheduled publish on two instances of one PostgreSQL database, each with its own timer: one instance claims it
// (FOR UPDATE SKIP LOCKED, under a lease) and publishes it once; both serve the change, and the set says live on 2 of 2.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/fixtures.ts';
import type { InProcessServer } from '../../helpers/in-process-server.ts';
import { startTestPostgres, type TestPostgres } from '../../helpers/postgres.ts';
import { API, PAGE_URL, approvedChange, member, startContentServer } from './content-client.ts';

const MINUTE = 60_000;
let clock = Date.now();
let postgres: TestPostgres;
const instances: InProcessServer[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  const key = randomBytes(32);
  // One after the other: the first stores the build as release 1, the second finds it live.
  for (let n = 0; n < 2; n += 1)
    instances.push(
      await startContentServer(() => clock, { databaseUrl: postgres.url, key, scheduleTickMs: 100 }),
    );
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  postgres?.remove();
});

describe('a scheduled publish on two instances', () => {
  it('is run once, by one of them, and served by both', async () => {
    const [first, second] = instances as [InProcessServer, InProcessServer];
    const editor = await member(first, 'ed@example.org', ['editor'], clock);
    const reviewer = await member(first, 'maya@example.org', ['reviewer'], clock, {
      name: 'Maya Chen',
      credential: 'MD',
    });
    const publisher = await member(first, 'pub@example.org', ['publisher'], clock);
    const id = await approvedChange(editor, reviewer, 'Both instances', '11-15 days');
    expect(
      (await publisher.post(`${API}/${id}/schedule`, { at: new Date(clock + MINUTE).toISOString() })).status,
    ).toBe(200);
    clock += 2 * MINUTE;
    for (const instance of instances)
      await waitFor(
        async () => (await (await fetch(`${instance.url}${PAGE_URL}`)).text()).includes('11-15 days'),
        120_000,
      );
    // Served by both, and the schedule marked done: the instance that ran it records that once its publish returned,
    // which may be a moment after both instances report the release.
    await waitFor(async () => {
      const shown = await editor.json<{
        live: { on: number; of: number } | null;
        schedule: { state: string } | null;
      }>(await editor.get(`${API}/${id}`));
      return shown.live?.on === 2 && shown.live.of === 2 && shown.schedule?.state !== 'running';
    }, 15_000);
    expect(await editor.json(await editor.get(`${API}/${id}`))).toMatchObject({
      state: 'published',
      release: '2',
      schedule: { state: 'done' },
    });
    const publishes = (await second.store.audit.page({ limit: 200 })).rows.filter(
      (row) => row.action === 'change-publish',
    );
    expect(publishes).toHaveLength(1);
    expect(publishes[0]?.actor).toBe('pub@example.org');
    expect((await second.store.releases.list()).map((release) => release.id)).toEqual([1, 2]);
  }, 240_000);
});

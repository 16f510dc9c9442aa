// Who else is editing a document, on two instances of one PostgreSQL database: two editors signed in to different
// instances see each other on the same document (the heartbeat is kept in the store, not in one instance's memory),
// not on another document, and no longer 30 s after one's last heartbeat, when the old rows are gone from the table.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../content/paths.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { startTestPostgres, testPool, type TestPostgres } from '../../helpers/postgres.ts';
import type { StaffClient } from '../staff/staff-client.ts';
import { API, PAGE, member } from './content-client.ts';

type Editing = { editing: { email: string; name: string }[] };
let clock = Date.now();
let postgres: TestPostgres;
const instances: InProcessServer[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  const key = randomBytes(32);
  // One after the other: the first stores the build as release 1, the second finds it live.
  for (let n = 0; n < 2; n += 1)
    instances.push(
      await startInProcessServer({
        databaseUrl: postgres.url,
        key,
        staff: { now: () => clock },
        releases: { codeDir: join(ROOT, 'dist'), pollMs: 100 },
      }),
    );
}, 120_000);
afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  postgres?.remove();
});

describe('presence on two instances', () => {
  it('shows each editor to the other across instances, per document, for 30 s', async () => {
    const [first, second] = instances as [InProcessServer, InProcessServer];
    const ed = await member(first, 'ed@example.org', ['editor'], clock, { name: 'Ed Park' });
    const maya = await member(second, 'maya@example.org', ['editor'], clock, { name: 'Maya Chen' });
    const { id } = await ed.json<{ id: string }>(await ed.post(API, { title: 'Two editors' }), 201);
    const beat = async (client: StaffClient, file = PAGE) =>
      client.json<Editing>(await client.post(`${API}/${id}/presence?file=${encodeURIComponent(file)}`));

    expect((await beat(ed)).editing).toEqual([]);
    expect((await beat(maya)).editing).toEqual([{ email: 'ed@example.org', name: 'Ed Park' }]);
    expect((await beat(ed)).editing).toEqual([{ email: 'maya@example.org', name: 'Maya Chen' }]);
    expect((await beat(maya, 'pages/index.json')).editing).toEqual([]);

    // Maya stops (closes the page); Ed's heartbeats go on: 30 s after her last one she is gone, from the table too.
    clock += 20_000;
    expect((await beat(ed)).editing).toEqual([{ email: 'maya@example.org', name: 'Maya Chen' }]);
    clock += 11_000;
    expect((await beat(ed)).editing).toEqual([]);
    const pool = testPool(postgres.url, 1);
    try {
      const { rows } = await pool.query<{ email: string }>('SELECT email FROM change_presence');
      expect(rows.map((row) => row.email)).toEqual(['ed@example.org']);
    } finally {
      await pool.end();
    }
  }, 120_000);
});

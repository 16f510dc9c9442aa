// A lead database locked by another process (a second writer, a stuck maintenance tool): however many visitors wait
// together, each is answered within the bound, with the phone number to call; none of their leads is left half-written
// or stored behind their back, and once the lock is released the next lead is stored.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../scripts/lib/server-process.ts';
import { tempDir, waitFor, writeClientDir } from './fixtures.ts';
import { FAULT_LEAD_VALUES, expectCallUs, holdLock, stored, submit } from './store-faults.ts';
import { expectNoPersonalData } from './personal-data.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a lead database locked by another process', () => {
  it('answers every waiting visitor 503 with the phone number in time, keeps what was stored, and recovers', async () => {
    const dir = tempDir();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbFile = join(dir, 'data', 'leads.db');
    const server = await startServerProcess({
      env: {
        LEADS_DB: dbFile,
        CLIENT_DIR: writeClientDir(dir),
        FORM_RATE_LIMIT: '100000',
        LOG_LEVEL: 'trace',
      },
    });
    cleanups.push(() => server.stop('SIGKILL'));
    const api = `${server.url}/api/forms/insurance-verification`;

    for (const n of [0, 1, 2]) expect((await submit(api, n)).status).toBe(201);

    const lock = await holdLock(dbFile);
    cleanups.push(() => lock.release());
    // Twenty at once share a batch: each must still be answered within the bound, not one lock wait after another.
    const keys = Array.from({ length: 20 }, () => randomUUID());
    const [json, plain] = await Promise.all([
      Promise.all(keys.map((key, index) => submit(api, 100 + index, { key }))),
      Promise.all([200, 201].map((n) => submit(api, n, { plain: true }))),
    ]);
    for (const answer of json) expectCallUs(answer);
    for (const answer of plain) expectCallUs(answer, true);
    await lock.release();

    expect((await submit(api, 300)).status).toBe(201);
    // The visitor who tries again with the same Idempotency-Key is stored now.
    expect((await submit(api, 100, { key: keys[0] })).status).toBe(201);
    const after = stored(dbFile);
    expect([...after.names].sort()).toEqual(
      ['Fault Test 0', 'Fault Test 1', 'Fault Test 2', 'Fault Test 300', 'Fault Test 100'].sort(),
    );
    expect(after).toMatchObject({ leads: 5, halves: 0, integrity: 'ok' });

    await waitFor(
      () => server.logs().filter((line) => line.msg === 'lead could not be stored').length === 22,
    );
    expectNoPersonalData(server.output().split('\n'), FAULT_LEAD_VALUES);
  }, 60_000);
});

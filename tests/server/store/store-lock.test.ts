// A lead database locked by another process (a second writer, a stuck maintenance tool): however many visitors wait
// together, each is answered within the bound, with the phone number to call; none of their leads is left half-written
// or stored behind their back, and once the lock is released the next lead is stored.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/fixtures.ts';
import {
  FAULT_LEAD_VALUES,
  cleanupsAfterEach,
  expectCallUs,
  expectStoredExactly,
  faultServerEnv,
  holdLock,
  startFaultServer,
  submit,
} from './store-faults.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

describe('a lead database locked by another process', () => {
  it('answers every waiting visitor 503 with the phone number in time, keeps what was stored, and recovers', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'data', 'leads.db');
    const { server, api } = await startFaultServer(defer, faultServerEnv(dbFile, dir, {}));

    for (const n of [0, 1, 2]) expect((await submit(api, n)).status).toBe(201);

    const lock = await holdLock(dbFile);
    defer(() => lock.release());
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
    expectStoredExactly(dbFile, undefined, [0, 1, 2, 300, 100]);

    await waitFor(
      () => server.logs().filter((line) => line.msg === 'lead could not be stored').length === 22,
    );
    expectNoPersonalData(server.output().split('\n'), FAULT_LEAD_VALUES);
  }, 60_000);
});

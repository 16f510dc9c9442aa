// A full disk under the lead database (a small tmpfs, filled up): visitors are told at once, with the phone number,
// that their request could not be saved; what was stored before stays, nothing is half-written, and once space is
// freed the next lead is stored.
import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FAULT_LEAD_VALUES,
  cleanupsAfterEach,
  expectElevenCallUs,
  expectStoredExactly,
  faultServerEnv,
  mountForTest,
  startFaultServer,
  submit,
} from './store-faults.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

const KEY = 'ab'.repeat(32);

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

describe('a full disk under the lead database', () => {
  it('answers 503 with the phone number in time, keeps what was stored, and recovers once space is freed', async (context) => {
    const disk = mountForTest(context, defer, 'tmpfs', 4);
    const dbFile = join(disk.dir, 'leads.db');
    const env = faultServerEnv(dbFile, tempDir(), { LEADS_ENCRYPTION_KEY: KEY });
    const { server, api } = await startFaultServer(defer, env);
    for (const n of [0, 1, 2]) expect((await submit(api, n)).status).toBe(201);

    // Every free block taken: the next commit cannot grow the write-ahead log.
    const filler = join(disk.dir, 'filler');
    const { bavail, bsize } = statfsSync(disk.dir);
    writeFileSync(filler, Buffer.alloc(Number(bavail) * Number(bsize)));
    expect(statfsSync(disk.dir).bavail).toBe(0);

    const errors = await expectElevenCallUs(api, server);
    expect(JSON.stringify(errors)).toMatch(/disk is full/);

    rmSync(filler);
    expect((await submit(api, 300)).status).toBe(201);
    expectStoredExactly(dbFile, KEY, [0, 1, 2, 300]);
    expectNoPersonalData(server.output().split('\n'), FAULT_LEAD_VALUES);
  }, 60_000);
});

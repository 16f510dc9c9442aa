// A full disk under the lead database (a small tmpfs, filled up): visitors are told at once, with the phone number,
// that their request could not be saved; what was stored before stays, nothing is half-written, and once space is
// freed the next lead is stored.
import { randomUUID } from 'node:crypto';
import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from './fixtures.ts';
import {
  FAULT_LEAD_VALUES,
  cleanupsAfterEach,
  expectCallUs,
  faultServerEnv,
  mount,
  startFaultServer,
  stored,
  submit,
  tempDirFor,
} from './store-faults.ts';
import { expectNoPersonalData } from './personal-data.ts';

const KEY = 'ab'.repeat(32);

const defer = cleanupsAfterEach();

describe('a full disk under the lead database', () => {
  it('answers 503 with the phone number in time, keeps what was stored, and recovers once space is freed', async (context) => {
    const disk = mount('tmpfs', 4);
    if ('skip' in disk) return context.skip(disk.skip);
    defer(disk.unmount);
    const dbFile = join(disk.dir, 'leads.db');
    const env = faultServerEnv(dbFile, tempDirFor(defer), { LEADS_ENCRYPTION_KEY: KEY });
    const { server, api } = await startFaultServer(defer, env);
    for (const n of [0, 1, 2]) expect((await submit(api, n)).status).toBe(201);

    // Every free block taken: the next commit cannot grow the write-ahead log.
    const filler = join(disk.dir, 'filler');
    const { bavail, bsize } = statfsSync(disk.dir);
    writeFileSync(filler, Buffer.alloc(Number(bavail) * Number(bsize)));
    expect(statfsSync(disk.dir).bavail).toBe(0);

    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, index) => submit(api, 100 + index, { key: randomUUID() })),
      submit(api, 200, { plain: true }),
    ]);
    answers.slice(0, -1).forEach((answer) => expectCallUs(answer));
    expectCallUs(answers.at(-1) as (typeof answers)[number], true);
    // The log is read as the process writes it: the last line may come a moment after the last answer.
    const errors = await waitFor(() => {
      const lines = server.logs().filter((line) => line.msg === 'lead could not be stored');
      return lines.length === 11 && lines;
    });
    expect(JSON.stringify(errors)).toMatch(/disk is full/);

    rmSync(filler);
    expect((await submit(api, 300)).status).toBe(201);
    const after = stored(dbFile, KEY);
    expect([...after.names].sort()).toEqual([
      'Fault Test 0',
      'Fault Test 1',
      'Fault Test 2',
      'Fault Test 300',
    ]);
    expect(after).toMatchObject({ leads: 4, halves: 0, integrity: 'ok' });
    expectNoPersonalData(server.output().split('\n'), FAULT_LEAD_VALUES);
  }, 60_000);
});

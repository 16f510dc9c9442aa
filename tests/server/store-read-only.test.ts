// A lead database whose file system turns read-only under the running server, as ext4 does after a disk error
// (errors=remount-ro): visitors are answered in time with the phone number, the server stops within its grace period,
// and once the disk is mended and the server started again, every lead acknowledged before is there and the next one
// is stored. (A read-only bind mount or tmpfs cannot be made so while the server holds its files open for writing:
// the kernel refuses the remount. And only a new mount lifts the kernel's read-only state, hence the restart.)
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../scripts/lib/server-process.ts';
import { tempDir, waitFor, writeClientDir } from './fixtures.ts';
import { FAULT_LEAD_VALUES, expectCallUs, makeReadOnly, mount, stored, submit } from './store-faults.ts';
import { expectNoPersonalData } from './personal-data.ts';

const KEY = 'cd'.repeat(32);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a lead database on a file system that turns read-only', () => {
  it('answers 503 with the phone number in time, stops, and after the disk is mended has every lead and takes the next', async (context) => {
    const disk = mount('ext4', 32);
    if ('skip' in disk) return context.skip(disk.skip);
    cleanups.push(disk.unmount);
    const dir = tempDir();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbFile = join(disk.dir, 'leads.db');
    const env = {
      LEADS_DB: dbFile,
      LEADS_ENCRYPTION_KEY: KEY,
      CLIENT_DIR: writeClientDir(dir),
      FORM_RATE_LIMIT: '100000',
      LOG_LEVEL: 'trace',
    };
    const server = await startServerProcess({ env });
    cleanups.push(() => server.stop('SIGKILL'));
    const api = `${server.url}/api/forms/insurance-verification`;
    for (const n of [0, 1, 2]) expect((await submit(api, n)).status).toBe(201);

    makeReadOnly(disk.dir);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, index) => submit(api, 100 + index, { key: randomUUID() })),
      submit(api, 200, { plain: true }),
    ]);
    answers.slice(0, -1).forEach((answer) => expectCallUs(answer));
    expectCallUs(answers.at(-1) as (typeof answers)[number], true);
    const errors = await waitFor(() => {
      const lines = server.logs().filter((line) => line.msg === 'lead could not be stored');
      return lines.length === 11 && lines;
    });
    expect(JSON.stringify(errors)).toMatch(/SQLITE_(IOERR|READONLY)/);
    // The site itself is still served, with its phone numbers.
    expect((await fetch(`${server.url}/`)).status).toBe(200);

    const stopping = performance.now();
    await server.stop('SIGTERM');
    expect(performance.now() - stopping).toBeLessThan(11_000);
    expect(server.child.exitCode).toBe(0);

    disk.mend();
    const again = await startServerProcess({ env });
    cleanups.push(() => again.stop('SIGKILL'));
    expect((await submit(`${again.url}/api/forms/insurance-verification`, 300)).status).toBe(201);
    const after = stored(dbFile, KEY);
    expect([...after.names].sort()).toEqual([
      'Fault Test 0',
      'Fault Test 1',
      'Fault Test 2',
      'Fault Test 300',
    ]);
    expect(after).toMatchObject({ leads: 4, halves: 0, integrity: 'ok' });
    await again.stop();
    expectNoPersonalData([...server.output().split('\n'), ...again.output().split('\n')], FAULT_LEAD_VALUES);
  }, 90_000);
});

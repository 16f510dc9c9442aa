// A lead database whose file system turns read-only under the running server, as ext4 does after a disk error
// (errors=remount-ro): visitors are answered in time with the phone number, the server stops within its grace period,
// and once the disk is mended and the server started again, every lead acknowledged before is there and the next one
// is stored. (A read-only bind mount or tmpfs cannot be made so while the server holds its files open for writing:
// the kernel refuses the remount. And only a new mount lifts the kernel's read-only state, hence the restart.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FAULT_LEAD_VALUES,
  cleanupsAfterEach,
  expectElevenCallUs,
  expectStoredExactly,
  faultServerEnv,
  makeReadOnly,
  mountForTest,
  startFaultServer,
  submit,
} from './store-faults.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';

const KEY = 'cd'.repeat(32);

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const defer = cleanupsAfterEach();

describe('a lead database on a file system that turns read-only', () => {
  it('answers 503 with the phone number in time, stops, and after the disk is mended has every lead and takes the next', async (context) => {
    const disk = mountForTest(context, defer, 'ext4', 32);
    const dbFile = join(disk.dir, 'leads.db');
    const env = faultServerEnv(dbFile, tempDir(), { LEADS_ENCRYPTION_KEY: KEY });
    const { server, api } = await startFaultServer(defer, env);
    for (const n of [0, 1, 2]) expect((await submit(api, n)).status).toBe(201);

    makeReadOnly(disk.dir);
    const errors = await expectElevenCallUs(api, server);
    expect(JSON.stringify(errors)).toMatch(/SQLITE_(IOERR|READONLY)/);
    // The site itself is still served, with its phone numbers.
    expect((await fetch(`${server.url}/`)).status).toBe(200);

    const stopping = performance.now();
    await server.stop('SIGTERM');
    expect(performance.now() - stopping).toBeLessThan(11_000);
    expect(server.child.exitCode).toBe(0);

    disk.mend();
    const { server: again, api: againApi } = await startFaultServer(defer, env);
    expect((await submit(againApi, 300)).status).toBe(201);
    expectStoredExactly(dbFile, KEY, [0, 1, 2, 300]);
    await again.stop();
    expectNoPersonalData([...server.output().split('\n'), ...again.output().split('\n')], FAULT_LEAD_VALUES);
  }, 90_000);
});

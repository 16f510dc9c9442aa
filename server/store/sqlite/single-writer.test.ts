import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeadWriter } from './single-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'lead-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lead writer thread', () => {
  it('fails each write with the reason when its thread cannot open the database, and reports unhealthy', async () => {
    // A folder where the database file should be: SQLite cannot open it.
    const writer = createLeadWriter(dir, undefined);
    await expect(writer.run({ kind: 'revive', now: 0 })).rejects.toThrow(
      /the lead writer thread (failed|stopped)/,
    );
    expect(writer.healthy()).toBe(false);
    await writer.close();
    await expect(writer.run({ kind: 'revive', now: 0 })).rejects.toThrow('the lead store is closed');
  });
});

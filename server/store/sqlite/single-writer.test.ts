import { describe, expect, it } from 'vitest';
import { useTempDirForAll } from '../../../tests/helpers/temp-dir.ts';
import { createLeadWriter } from './single-writer.ts';

const dir = useTempDirForAll('lead-writer-');

describe('lead writer thread', () => {
  it('fails each write with the reason when its thread cannot open the database, and reports unhealthy', async () => {
    // A folder where the database file should be: SQLite cannot open it.
    const writer = createLeadWriter(dir(), undefined);
    await expect(writer.run({ kind: 'revive', now: 0 })).rejects.toThrow(
      /the lead writer thread (failed|stopped)/,
    );
    expect(writer.healthy()).toBe(false);
    await writer.close();
    await expect(writer.run({ kind: 'revive', now: 0 })).rejects.toThrow('the lead store is closed');
  });
});

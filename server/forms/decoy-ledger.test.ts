import { describe, expect, it } from 'vitest';
import { decoyLedger } from './decoy-ledger.ts';

describe('decoy ledger', () => {
  it('answers a key as the store does: the same id for the same fingerprint, a conflict for another', () => {
    const answer = decoyLedger();
    const first = answer('form', 'key-0001', 'a', 1_000);
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/) });
    expect(answer('form', 'key-0001', 'a', 2_000)).toEqual(first);
    expect(answer('form', 'key-0001', 'b', 2_000)).toEqual({ conflict: true });
    expect(answer('other', 'key-0001', 'b', 2_000)).not.toEqual(first);
    expect(answer('form', undefined, 'a', 2_000)).not.toEqual(answer('form', undefined, 'a', 2_000));
  });

  it('forgets a key after its time, and the oldest keys beyond its size', () => {
    const answer = decoyLedger({ maxKeys: 2, ttlMs: 1_000 });
    const first = answer('form', 'key-0001', 'a', 0);
    expect(answer('form', 'key-0001', 'a', 1_500)).not.toEqual(first);
    answer('form', 'key-0002', 'a', 2_000);
    answer('form', 'key-0003', 'a', 2_000);
    answer('form', 'key-0004', 'a', 2_000);
    expect(answer('form', 'key-0002', 'b', 2_000)).not.toEqual({ conflict: true });
    expect(answer('form', 'key-0004', 'b', 2_000)).toEqual({ conflict: true });
  });
});

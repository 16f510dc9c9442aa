// The visitor's bound on the store's wait, with the clock in the test's hands: a store that does not commit in time is
// answered 503; should the write be committed after all, the lead is reported and its alert worker told.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadForms } from '../content.ts';
import type { InsertResult, LeadStore } from '../store/contract/lead-store.ts';
import { createLogger } from '../logger.ts';
import { formSubmission, STORE_WAIT_MS } from './form-submission.ts';

const forms = loadForms();
const def = forms.get('insurance-verification');
const body = {
  fullName: 'Jane Q. Doe',
  phone: '(555) 010-4477',
  dateOfBirth: '1987-03-14',
  insuranceProvider: 'aetna',
  memberId: 'XZH-99817234',
  source: '/insurance',
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setUp() {
  let commit: (result: InsertResult) => void = () => {};
  const deadlines: (number | undefined)[] = [];
  const store = {
    fingerprints: (text) => [`fingerprint of ${text.length} characters`],
    insertLead: (_lead, options) => {
      deadlines.push(options?.deadline);
      return new Promise<InsertResult>((resolve) => (commit = resolve));
    },
  } as Pick<LeadStore, 'insertLead' | 'fingerprints'> as LeadStore;
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const told: string[] = [];
  const submit = formSubmission({ forms, store, logger, onLeadStored: (id) => told.push(id) });
  return { submit, commit: (result: InsertResult) => commit(result), deadlines, lines, told };
}

describe('a submission whose store does not commit in time', () => {
  it('is answered 503 once the store has had its wait, and the store is told the same deadline', async () => {
    if (!def) throw new Error('no insurance-verification form');
    const { submit, deadlines } = setUp();
    let outcome: unknown;
    void submit('insurance-verification', def, body, 'key-12345678').then((value) => (outcome = value));
    await vi.advanceTimersByTimeAsync(STORE_WAIT_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ kind: 'refused', status: 503, message: expect.stringMatching(/call us/) });
    expect(deadlines).toEqual([Date.now()]);
  });

  it('reports a lead committed after its 503 and tells the alert worker; a replayed one is not reported', async () => {
    if (!def) throw new Error('no insurance-verification form');
    const late = setUp();
    const answered = late.submit('insurance-verification', def, body, undefined);
    await vi.advanceTimersByTimeAsync(STORE_WAIT_MS);
    await expect(answered).resolves.toMatchObject({ kind: 'refused', status: 503 });
    late.commit({ id: 'lead-1', replayed: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(late.told).toEqual(['lead-1']);
    expect(late.lines).toContainEqual(
      expect.objectContaining({ leadId: 'lead-1', msg: 'lead stored after its visitor was told it was not' }),
    );
    expect(JSON.stringify(late.lines)).not.toContain(body.memberId);

    const replayed = setUp();
    const again = replayed.submit('insurance-verification', def, body, 'key-12345678');
    await vi.advanceTimersByTimeAsync(STORE_WAIT_MS);
    await expect(again).resolves.toMatchObject({ status: 503 });
    replayed.commit({ id: 'lead-1', replayed: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(replayed.told).toEqual([]);
  });
});

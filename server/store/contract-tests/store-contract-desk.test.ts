// The admissions desk's contract, on SQLite and a real PostgreSQL: each lead due at its form's promise, the "needs
// action" queue (soonest due first), one owner per lead, calls and callbacks, the same person's leads linked through the
// keyed search hashes, and every change told to listeners (on PostgreSQL, to another instance too).
import { describe, expect, it } from 'vitest';
import { storeKinds, type StoreKind } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';

const forms = loadForms();
const MINUTE = 60_000;

const consultation = (
  firstName: string,
  phone: string,
  email = `${firstName.toLowerCase()}@example.com`,
) => ({
  formId: 'consultation',
  source: '/',
  fields: { firstName, lastName: 'Lee', phone, email, urgency: 'urgent', message: 'Please call' },
});
const insurance = (fullName: string, phone: string) => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: { fullName, phone, dateOfBirth: '1980-02-03', memberId: 'MEM-1' },
});

async function opened(kind: StoreKind) {
  return kind.open(forms);
}

describe.each(storeKinds())('the $name desk', (kind) => {
  it("dates each lead by its form's promise at arrival, and queues what is due soonest first", async () => {
    const { store, sql } = await opened(kind);
    const before = Date.now();
    const slow = (await store.insertLead(insurance('Jane Doe', '(555) 010-4477'))).id;
    const fast = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    const settled = (await store.insertLead(consultation('Ana', '555-010-0123'))).id;
    const lead = await store.inbox.get(fast);
    expect(Date.parse(lead?.dueAt ?? '') - Date.parse(lead?.createdAt ?? '')).toBe(15 * MINUTE);
    expect(lead?.promisedAt).toBe(lead?.dueAt);
    const slowLead = await store.inbox.get(slow);
    expect(Date.parse(slowLead?.dueAt ?? '') - Date.parse(slowLead?.createdAt ?? '')).toBe(1440 * MINUTE);
    expect(Date.parse(lead?.dueAt ?? '')).toBeGreaterThanOrEqual(before + 15 * MINUTE);

    await store.inbox.setStatus(settled, 'contacted', 'ana@example.org');
    const contacted = await store.inbox.get(settled);
    expect(contacted).toMatchObject({ dueAt: null, status: 'contacted' });
    expect(contacted?.firstContactAt).toEqual(expect.any(String));

    // One overdue lead goes to the top.
    await sql('UPDATE leads SET due_at = $1 WHERE id = $2', ['2020-01-01T00:00:00.000Z', slow]);
    const page = await store.inbox.list({ order: 'due', limit: 1 });
    expect(page.rows.map((row) => row.id)).toEqual([slow]);
    const rest = await store.inbox.list({ order: 'due', limit: 5, before: page.next ?? '' });
    expect(rest).toEqual({ rows: [expect.objectContaining({ id: fast })], next: null });
    // Several statuses at once.
    const both = await store.inbox.list({ statuses: ['new', 'contacted'], limit: 10 });
    expect(both.rows).toHaveLength(3);
  });

  it('has one owner per lead: a claim, a refusal while taken, a release, an assignment', async () => {
    const { store } = await opened(kind);
    const id = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    const other = (await store.insertLead(consultation('Bo', '555-010-0111'))).id;
    expect(await store.inbox.claim(id, 'ana@example.org')).toBe('claimed');
    expect(await store.inbox.claim(id, 'ana@example.org')).toBe('claimed');
    expect(await store.inbox.claim(id, 'bob@example.org')).toBe('taken');
    expect(await store.inbox.claim('no-such-lead', 'bob@example.org')).toBe('missing');
    expect((await store.inbox.get(id))?.owner).toBe('ana@example.org');
    expect(
      (await store.inbox.list({ owner: 'ana@example.org', limit: 10 })).rows.map((row) => row.id),
    ).toEqual([id]);
    expect((await store.inbox.list({ owner: null, limit: 10 })).rows.map((row) => row.id)).toEqual([other]);
    expect(await store.inbox.release(id, 'bob@example.org', false)).toBe('not-owner');
    expect(await store.inbox.release(id, 'bob@example.org', true)).toBe('released');
    expect((await store.inbox.get(id))?.owner).toBeNull();
    expect(await store.inbox.assign(id, 'bob@example.org')).toBe(true);
    expect((await store.inbox.get(id))?.owner).toBe('bob@example.org');
  });

  it('logs calls: attempts counted, the status following the outcome, a callback due at its time', async () => {
    const { store } = await opened(kind);
    const id = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    const promised = (await store.inbox.get(id))?.dueAt;
    const missed = await store.inbox.logCall(id, 'ana@example.org', 'no-answer');
    expect(missed).toMatchObject({
      status: 'not-reached',
      attempts: 1,
      dueAt: promised,
      firstContactAt: null,
    });
    const callback = new Date(Date.now() + 10 * MINUTE).toISOString();
    const back = await store.inbox.logCall(id, 'ana@example.org', 'callback', callback);
    expect(back).toMatchObject({ status: 'contacted', attempts: 2, dueAt: callback });
    expect(back?.calls).toEqual([
      { at: expect.any(String), author: 'ana@example.org', outcome: 'no-answer', callbackAt: null },
      { at: expect.any(String), author: 'ana@example.org', outcome: 'callback', callbackAt: callback },
    ]);
    expect(back?.history.map((change) => change.to)).toEqual(['not-reached', 'contacted']);
    expect((await store.inbox.list({ order: 'due', limit: 5 })).rows.map((row) => row.id)).toEqual([id]);
    const reached = await store.inbox.logCall(id, 'ana@example.org', 'reached');
    expect(reached).toMatchObject({ status: 'contacted', attempts: 3, dueAt: null });
    expect((await store.inbox.list({ order: 'due', limit: 5 })).rows).toEqual([]);
    expect(await store.inbox.logCall('no-such-lead', 'ana@example.org', 'reached')).toBeUndefined();
  });

  it("links the same person's leads by phone number however written, or e-mail, through the keyed hashes", async () => {
    const { store } = await opened(kind);
    const first = (await store.insertLead(consultation('Sam', '(415) 555-0142', 'sam@example.com'))).id;
    const second = (await store.insertLead(consultation('Samuel', '415-555-0142', 'other@example.com'))).id;
    const byMail = (await store.insertLead(insurance('Sam Lee', '555-010-9999'))).id;
    const stranger = (await store.insertLead(consultation('Bo', '555-010-0111'))).id;
    // The insurance form has no e-mail: a lead of another person with the same e-mail as the first, on the consultation.
    const mail = (await store.insertLead(consultation('Kim', '555-010-0222', 'SAM@example.com'))).id;
    const related = await store.inbox.related([first, second, stranger, byMail]);
    expect(
      related
        .get(first)
        ?.map((lead) => lead.id)
        .sort(),
    ).toEqual([mail, second].sort());
    expect(related.get(second)?.map((lead) => lead.id)).toEqual([first]);
    expect(related.get(second)?.[0]).toEqual({ id: first, createdAt: expect.any(String), status: 'new' });
    expect(related.get(stranger)).toEqual([]);
    expect(related.get(byMail)).toEqual([]);
  });

  it('takes each overdue, unclaimed lead for escalation once per cadence, until claimed', async () => {
    const { store, sql } = await opened(kind);
    const late = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    await store.insertLead(consultation('Bo', '555-010-0111'));
    const past = new Date(Date.now() - 3 * MINUTE).toISOString();
    await sql('UPDATE leads SET due_at = $1, promised_at = $1 WHERE id = $2', [past, late]);
    const now = Date.now();
    expect(await store.inbox.takeEscalations(now, 10 * MINUTE, 10)).toEqual([
      { id: late, formId: 'consultation', dueAt: past, callback: false },
    ]);
    expect(await store.inbox.takeEscalations(now + MINUTE, 10 * MINUTE, 10)).toEqual([]);
    expect(await store.inbox.takeEscalations(now + 11 * MINUTE, 10 * MINUTE, 10)).toHaveLength(1);
    await store.inbox.escalationFailed(late);
    expect(await store.inbox.takeEscalations(now + 12 * MINUTE, 10 * MINUTE, 10)).toHaveLength(1);
    await store.inbox.claim(late, 'ana@example.org');
    // Claimed: never again; the other lead, unclaimed, is taken once its own 15 minutes have passed.
    const later = await store.inbox.takeEscalations(now + 60 * MINUTE, 10 * MINUTE, 10);
    expect(later.map((lead) => lead.id)).not.toContain(late);
    expect(later).toHaveLength(1);
  });

  it('tells every listener of each change, on this instance and another', async () => {
    const { store, again } = await opened(kind);
    const id = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    const here: string[] = [];
    store.inbox.onLeadChanged((changed) => here.push(changed));
    const second = kind.name === 'postgres' ? await again() : undefined;
    const there: string[] = [];
    second?.inbox.onLeadChanged((changed) => there.push(changed));
    await store.inbox.claim(id, 'ana@example.org');
    await store.inbox.addNote(id, 'Call back at 8', 'ana@example.org');
    await store.inbox.setStatus(id, 'not-reached', 'ana@example.org');
    await store.inbox.logCall(id, 'ana@example.org', 'voicemail');
    await store.inbox.release(id, 'ana@example.org', false);
    expect(here).toEqual([id, id, id, id, id]);
    if (second) await expect.poll(() => there.length, { timeout: 3000 }).toBe(5);
  });
});

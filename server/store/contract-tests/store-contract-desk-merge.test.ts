// The desk's second part on SQLite and a real PostgreSQL: merging a lead into another (closed, kept, linked both ways),
// round robin among the members on shift (in turn, fairly across two instances at once on PostgreSQL), and the rows the
// speed-to-lead report counts.
import { describe, expect, it } from 'vitest';
import { storeKinds, type StoreKind } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';
import type { LeadStore } from '../contract/lead-store.ts';
import type { StaffRole } from '../contract/staff-store.ts';

const forms = loadForms();

const consultation = (firstName: string, phone: string) => ({
  formId: 'consultation',
  source: '/',
  fields: {
    firstName,
    lastName: 'Lee',
    phone,
    email: `${firstName.toLowerCase()}@example.com`,
    urgency: 'urgent',
    message: 'Please call',
  },
});

/** A member enrolled straight through the store, as the CLI's invitation and a passkey would. */
async function member(store: LeadStore, email: string, roles: StaffRole[] = ['admissions']) {
  const now = Date.now();
  const { token } = await store.staff.createInvite(email, roles, now + 60_000, { now });
  const id = `${email}-id`;
  const enrolled = await store.staff.enrol(
    token,
    id,
    { id: `cred-${email}`, publicKey: new Uint8Array([1, 2, 3]), counter: 0, transports: [] },
    now,
  );
  if (!enrolled) throw new Error(`could not enrol ${email}`);
  return enrolled.id;
}

const opened = (kind: StoreKind) => kind.open(forms);

describe.each(storeKinds())('the $name desk, second part', (kind) => {
  it('merges a lead into another: closed, kept, nothing due, linked both ways; never twice', async () => {
    const { store } = await opened(kind);
    const keep = (await store.insertLead(consultation('Sam', '(415) 555-0142'))).id;
    const from = (await store.insertLead(consultation('Samuel', '415-555-0142'))).id;
    await store.inbox.addNote(from, 'Called earlier, nobody called back yet', 'ana@example.org');
    const told: string[] = [];
    store.inbox.onLeadChanged((id) => told.push(id));

    expect(await store.inbox.merge(keep, from, 'ana@example.org')).toBe('merged');
    const merged = await store.inbox.get(from);
    expect(merged).toMatchObject({ status: 'closed', dueAt: null, mergedInto: keep, mergedFrom: [] });
    expect(merged?.notes.map((note) => note.text)).toEqual(['Called earlier, nobody called back yet']);
    expect(merged?.history).toEqual([
      { author: 'ana@example.org', at: expect.any(String), from: 'new', to: 'closed' },
    ]);
    const kept = await store.inbox.get(keep);
    expect(kept).toMatchObject({ status: 'new', mergedInto: null, mergedFrom: [from] });
    expect(told.sort()).toEqual([from, keep].sort());
    // Off the "needs action" queue, but kept in the list.
    expect((await store.inbox.list({ order: 'due', limit: 10 })).rows.map((row) => row.id)).toEqual([keep]);
    expect((await store.inbox.list({ limit: 10 })).rows).toHaveLength(2);

    expect(await store.inbox.merge(keep, from, 'ana@example.org')).toBe('merged-already');
    expect(await store.inbox.merge(from, keep, 'ana@example.org')).toBe('merged-already');
    expect(await store.inbox.merge(keep, keep, 'ana@example.org')).toBe('same');
    expect(await store.inbox.merge(keep, 'no-such-lead', 'ana@example.org')).toBe('missing');
  });

  it('gives new leads to the members on shift in turn, never to one off shift, revoked or not admissions', async () => {
    const { store } = await opened(kind);
    const ana = await member(store, 'ana@example.org');
    const bob = await member(store, 'bob@example.org');
    await member(store, 'cy@example.org');
    const ed = await member(store, 'ed@example.org', ['admin']);
    const lead = async () => (await store.insertLead(consultation('Sam', '555-010-0199'))).id;

    expect(await store.inbox.assignNext(await lead())).toBeNull();
    expect(await store.staff.setOnShift(ana, true)).toBe(true);
    expect(await store.staff.setOnShift(bob, true)).toBe(true);
    expect(await store.staff.setOnShift(ed, true)).toBe(true);
    expect(await store.staff.setOnShift('no-such-member', true)).toBe(false);
    const listing = await store.staff.members();
    expect(listing.filter((one) => one.onShift).map((one) => one.email)).toEqual([
      'ana@example.org',
      'bob@example.org',
      'ed@example.org',
    ]);

    const owners: (string | null)[] = [];
    for (let n = 0; n < 4; n += 1) {
      const id = await lead();
      owners.push(await store.inbox.assignNext(id));
      expect((await store.inbox.get(id))?.owner).toBe(owners.at(-1));
    }
    expect(owners).toEqual(['ana@example.org', 'bob@example.org', 'ana@example.org', 'bob@example.org']);

    // An owned lead is left as it is; a revoked member leaves the rotation (and their shift).
    const claimed = await lead();
    await store.inbox.claim(claimed, 'cy@example.org');
    expect(await store.inbox.assignNext(claimed)).toBeNull();
    expect((await store.inbox.get(claimed))?.owner).toBe('cy@example.org');
    await store.staff.revoke('ana@example.org', Date.now());
    expect(await store.inbox.assignNext(await lead())).toBe('bob@example.org');
    expect(await store.inbox.assignNext(await lead())).toBe('bob@example.org');
    expect((await store.staff.members()).find((one) => one.id === ana)?.onShift).toBe(false);
    await store.staff.setOnShift(bob, false);
    expect(await store.inbox.assignNext(await lead())).toBeNull();
    expect(await store.inbox.assignNext('no-such-lead')).toBeNull();
  });

  it('takes off shift the members without a live session, each once; the rotation then passes them by', async () => {
    const { store } = await opened(kind);
    const limits = { idleMs: 15 * 60_000, absoluteMs: 12 * 60 * 60_000 };
    const now = Date.now();
    const ana = await member(store, 'ana@example.org'); // signed in a minute ago: stays on shift
    const bob = await member(store, 'bob@example.org'); // signed in, then idle past the limit
    const cy = await member(store, 'cy@example.org'); // signed out: no session at all
    const di = await member(store, 'di@example.org'); // busy, but signed in longer ago than the time limit
    const ed = await member(store, 'ed@example.org'); // idle, and not on shift: nothing to end
    await store.staff.startSession(ana, now - 60_000);
    await store.staff.startSession(bob, now - limits.idleMs);
    const long = await store.staff.startSession(di, now - limits.absoluteMs);
    await store.staff.touchSession(long, now - 1_000);
    await store.staff.startSession(ed, now - limits.idleMs - 1);
    for (const id of [ana, bob, cy, di]) await store.staff.setOnShift(id, true);

    // One member's own end first (a sign-out): only theirs, whoever else has gone.
    expect(await store.staff.endShiftsWithoutSession(limits, now, cy)).toEqual(['cy@example.org']);
    expect(await store.staff.endShiftsWithoutSession(limits, now, ana)).toEqual([]);
    expect((await store.staff.endShiftsWithoutSession(limits, now)).sort()).toEqual([
      'bob@example.org',
      'di@example.org',
    ]);
    expect(await store.staff.endShiftsWithoutSession(limits, now)).toEqual([]);
    const listing = await store.staff.members();
    expect(listing.filter((one) => one.onShift).map((one) => one.email)).toEqual(['ana@example.org']);
    const lead = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    expect(await store.inbox.assignNext(lead)).toBe('ana@example.org');
  });

  it("escalates a round-robin lead past due until its owner claims or calls it: the rotation's choice is not theirs", async () => {
    const { store, sql } = await opened(kind);
    await store.staff.setOnShift(await member(store, 'ana@example.org'), true);
    const claimed = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    const called = (await store.insertLead(consultation('Bo', '555-010-0111'))).id;
    for (const id of [claimed, called]) expect(await store.inbox.assignNext(id)).toBe('ana@example.org');
    const past = new Date(Date.now() - 3 * 60_000).toISOString();
    await sql('UPDATE leads SET due_at = $1, promised_at = $1', [past]);
    const now = Date.now();
    const taken = await store.inbox.takeEscalations(now, 60_000, 10);
    expect(taken.map((lead) => lead.id).sort()).toEqual([called, claimed].sort());
    expect(await store.inbox.claim(claimed, 'ana@example.org')).toBe('claimed');
    await store.inbox.logCall(called, 'ana@example.org', 'no-answer');
    expect(await store.inbox.takeEscalations(now + 5 * 60_000, 60_000, 10)).toEqual([]);
  });

  it('takes turns fairly when two instances assign at once', async () => {
    const { store, again } = await opened(kind);
    const other = kind.name === 'postgres' ? await again() : store;
    const members = ['ana@example.org', 'bob@example.org', 'cy@example.org'];
    for (const email of members) await store.staff.setOnShift(await member(store, email), true);
    const ids: string[] = [];
    for (let n = 0; n < 12; n += 1)
      ids.push((await store.insertLead(consultation('Sam', '555-010-0199'))).id);
    const owners = await Promise.all(ids.map((id, n) => (n % 2 === 0 ? store : other).inbox.assignNext(id)));
    const counts = Object.fromEntries(
      members.map((email) => [email, owners.filter((o) => o === email).length]),
    );
    expect(counts).toEqual({ 'ana@example.org': 4, 'bob@example.org': 4, 'cy@example.org': 4 });
  });

  it("gives the report each lead's form, arrival, promise and first contact; never a merged one's", async () => {
    const { store } = await opened(kind);
    const before = new Date(Date.now() - 1000).toISOString();
    const contacted = (await store.insertLead(consultation('Sam', '555-010-0199'))).id;
    const waiting = (await store.insertLead(consultation('Bo', '555-010-0111'))).id;
    const merged = (await store.insertLead(consultation('Bo', '555-010-0111'))).id;
    await store.inbox.logCall(contacted, 'ana@example.org', 'reached');
    await store.inbox.merge(waiting, merged, 'ana@example.org');
    const after = new Date(Date.now() + 1000).toISOString();
    const rows = await store.inbox.promises(before, after);
    const lead = await store.inbox.get(contacted);
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual({
      formId: 'consultation',
      createdAt: lead?.createdAt,
      promisedAt: lead?.promisedAt,
      firstContactAt: lead?.firstContactAt,
    });
    expect(rows.find((row) => row.firstContactAt === null)).toMatchObject({ formId: 'consultation' });
    expect(await store.inbox.promises(after, new Date(Date.now() + 60_000).toISOString())).toEqual([]);
  });
});

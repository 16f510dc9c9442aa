// The desk's second part over the staff API: "Merge into this one" (the other lead closed as merged, kept, linked both
// ways, audited on both), round robin among members on shift (ROUND_ROBIN=on: the owner set as a lead arrives), and the
// admin CSV as a spreadsheet opens it (byte-order mark, the site's local times, labels, call outcomes, notes, merges).
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShiftState } from '../../../contracts/staff-admin.ts';
import type { LeadDetail } from '../../../contracts/staff-api.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { consultationLead, enrolled, sendLead, type StaffClient } from './staff-client.ts';

let server: InProcessServer;
let ana: StaffClient;
let bob: StaffClient;
let admin: StaffClient;
beforeAll(async () => {
  server = await startInProcessServer({ roundRobin: true });
  ana = await enrolled(server, 'ana@example.org');
  bob = await enrolled(server, 'bob@example.org');
  admin = await enrolled(server, 'lead@example.org', true);
});
afterAll(() => server.stop());

const auditRows = async () => (await server.store.audit.page({ limit: 1000 })).rows;

describe('merging two leads on request', () => {
  it('closes the other as merged into this one, keeps it, links both, and audits both', async () => {
    const keep = await sendLead(server, { ...consultationLead, phone: '(415) 555-0142' });
    const from = await sendLead(server, {
      ...consultationLead,
      phone: '415-555-0142',
      email: 'x@example.org',
    });
    expect(await ana.post(`/leads/${from}/notes`, { text: 'Called earlier' })).toHaveProperty('status', 201);
    const kept = await ana.json<LeadDetail>(await ana.post(`/leads/${keep}/merge`, { from }));
    expect(kept).toMatchObject({ id: keep, mergedFrom: [from], mergedInto: null, status: 'new' });
    const other = await ana.json<LeadDetail>(await ana.get(`/leads/${from}`));
    expect(other).toMatchObject({ status: 'closed', due: false, mergedInto: keep });
    expect(other.notes.map((note) => note.text)).toEqual(['Called earlier']);
    expect(await ana.post(`/leads/${keep}/merge`, { from })).toHaveProperty('status', 409);
    expect(await ana.post(`/leads/${keep}/merge`, { from: keep })).toHaveProperty('status', 400);
    expect(await ana.post(`/leads/${keep}/merge`, {})).toHaveProperty('status', 400);
    expect(await ana.post(`/leads/${keep}/merge`, { from: 'no-such-lead' })).toHaveProperty('status', 404);
    const rows = await auditRows();
    expect(rows).toContainEqual(
      expect.objectContaining({
        actor: 'ana@example.org',
        action: 'merge',
        leadId: keep,
        detail: `from=${from}`,
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ action: 'merged-into', leadId: from, detail: `into=${keep}` }),
    );
  });
});

describe('round robin', () => {
  it('gives each new lead to the members on shift in turn, visible as its owner', async () => {
    expect(await ana.json<ShiftState>(await ana.get('/shift'))).toEqual({ onShift: false, roundRobin: true });
    const unowned = await sendLead(server);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await ana.json<LeadDetail>(await ana.get(`/leads/${unowned}`))).owner).toBeNull();

    expect(await ana.json<ShiftState>(await ana.post('/shift', { onShift: true }))).toEqual({
      onShift: true,
      roundRobin: true,
    });
    await bob.json(await bob.post('/shift', { onShift: true }));
    expect(await bob.post('/shift', { onShift: 'yes' })).toHaveProperty('status', 400);
    const owners: (string | null)[] = [];
    for (let n = 0; n < 3; n += 1) {
      const id = await sendLead(server);
      await expect
        .poll(async () => (await ana.json<LeadDetail>(await ana.get(`/leads/${id}`))).owner)
        .not.toBeNull();
      owners.push((await ana.json<LeadDetail>(await ana.get(`/leads/${id}`))).owner);
    }
    expect(owners).toEqual(['ana@example.org', 'bob@example.org', 'ana@example.org']);
    const rows = await auditRows();
    expect(rows).toContainEqual(expect.objectContaining({ actor: 'ana@example.org', action: 'shift-start' }));
    expect(rows.filter((row) => row.actor === 'round-robin' && row.action === 'assign')).toHaveLength(3);
    await ana.json(await ana.post('/shift', { onShift: false }));
    await bob.json(await bob.post('/shift', { onShift: false }));
  });
});

describe('a shift ends with the session', () => {
  const onShift = async () =>
    (await server.store.staff.members()).filter((one) => one.onShift).map((one) => one.email);
  const shiftEnds = async () =>
    (await auditRows())
      .filter((row) => row.action === 'shift-end' && row.detail?.endsWith('no session left'))
      .map((row) => `${row.actor}: ${row.detail}`);
  /** Their session last active `ms` ago, as if they had left it open and gone: no request of theirs since. */
  const idleFor = (email: string, ms: number) => {
    const db = new Database(server.dbFile);
    try {
      db.prepare(
        'UPDATE sessions SET last_seen_at = last_seen_at - ? WHERE staff_id = (SELECT id FROM staff WHERE email = ?)',
      ).run(ms, email);
    } finally {
      db.close();
    }
  };

  it('takes a member off shift as they sign out, or as their session is found over; audited', async () => {
    const cy = await enrolled(server, 'cy@example.org');
    const di = await enrolled(server, 'di@example.org');
    const ed = await enrolled(server, 'ed@example.org');
    for (const one of [cy, di, ed]) await one.json(await one.post('/shift', { onShift: true }));
    expect(await onShift()).toEqual(['cy@example.org', 'di@example.org', 'ed@example.org']);

    expect(await cy.post('/signout')).toHaveProperty('status', 204);
    expect(await onShift()).toEqual(['di@example.org', 'ed@example.org']);

    // Di's next request finds the session past the idle limit (15 minutes here).
    idleFor('di@example.org', 16 * 60_000);
    expect(await di.get('/shift')).toHaveProperty('status', 401);
    expect(await onShift()).toEqual(['ed@example.org']);

    // Ed left the inbox open and went: no request notices, and the rotation looks before it chooses.
    idleFor('ed@example.org', 16 * 60_000);
    const id = await sendLead(server);
    await expect.poll(onShift).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await admin.json<LeadDetail>(await admin.get(`/leads/${id}`))).owner).toBeNull();
    expect((await shiftEnds()).sort()).toEqual([
      'cy@example.org: signed out: no session left',
      'di@example.org: idle limit: no session left',
      'ed@example.org: session over: no session left',
    ]);
  });
});

describe('the admin CSV export', () => {
  it("has a byte-order mark, the site's local times, labels, call outcomes, notes and merges", async () => {
    const id = await sendLead(server, { ...consultationLead, firstName: 'Zoë', phone: '(555) 010-7788' });
    // Received at a known instant: 17:05 UTC on 24 November is 09:05 in Los Angeles.
    const db = new Database(server.dbFile);
    db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run('2026-11-24T17:05:00.000Z', id);
    db.close();
    await ana.json(await ana.post(`/leads/${id}/calls`, { outcome: 'no-answer' }));
    await ana.json(await ana.post(`/leads/${id}/notes`, { text: 'Mother answered; try after 6' }), 201);
    const response = await admin.get('/leads.csv?form=consultation');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const header = text.split('\r\n')[0]?.split(',') ?? [];
    const line = text.split('\r\n').find((row) => row.startsWith(id)) ?? '';
    expect(line).toContain(',2026-11-24 09:05,Free consultation request,Not reached,');
    expect(line).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d No answer \(ana@example\.org\)/);
    expect(line).toMatch(/\d\d:\d\d ana@example\.org: Mother answered; try after 6/);
    expect(line).toContain('Zoë');
    // A choice by its label: "How soon do you need help?" says the option's words, not its code.
    expect(line).not.toContain(',urgent,');
    expect(header).toContain('Merged into');
    const merged = text.split('\r\n').find((row) => row.includes(',Closed,')) ?? '';
    const keep = (await auditRows()).find((row) => row.action === 'merge')?.leadId ?? 'none';
    expect(merged).toContain(`,${keep},`);
  });
});

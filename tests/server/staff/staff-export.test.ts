// The CSV export of leads from every form: one column per label, whatever each form calls its field (the insurance
// form's memberId and the quick form's memberID are both "Member ID"), in an order that does not move.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InboxRow } from '../../../server/store/contract/inbox.ts';
import { rawExchange } from '../../helpers/http.ts';
import { createdId, postJson, quickInsuranceLead, validLead } from '../../helpers/fixtures.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { enrolled, sendLead } from './staff-client.ts';

let server: InProcessServer;
const ids: Record<string, string> = {};
beforeAll(async () => {
  server = await startInProcessServer();
  ids.consultation = await sendLead(server);
  ids.insurance = await createdId(await postJson(server.api, validLead));
  ids.quick = await createdId(await postJson(`${server.url}/api/forms/widget-insurance`, quickInsuranceLead));
});
afterAll(() => server.stop());

/** The export's rows as cells (none of these values holds a comma or a quote). */
async function exported(query = '') {
  const admin = await enrolled(server, `admin${Math.random()}@example.org`, true);
  const response = await admin.get(`/leads.csv${query}`);
  expect(response.status).toBe(200);
  const [header = [], ...rows] = (await response.text())
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(','));
  const byId = new Map(
    rows.map((row) => [
      row[0],
      Object.fromEntries(header.map((label, i) => [label.replace(/^\uFEFF/, ''), row[i]])),
    ]),
  );
  return { header, byId };
}

describe('the CSV export', () => {
  it('has one column per label across the forms, in a stable order, each value under it', async () => {
    const { header, byId } = await exported();
    expect(header).toEqual([
      'Lead ID',
      'Received (America/Los_Angeles)',
      'Form',
      'Status',
      'Owner',
      'Due (America/Los_Angeles)',
      'First contact (America/Los_Angeles)',
      'Calls',
      'Call outcomes',
      'Notes',
      'Merged into',
      'First Name',
      'Last Name',
      'Phone Number',
      'Email',
      'Who is this for?',
      'How soon do you need help?',
      'Message (optional)',
      'Full Name',
      'Date of Birth',
      'Insurance Provider',
      'Member ID',
    ]);
    expect(byId.get(ids.insurance)).toMatchObject({
      'Member ID': validLead.memberId,
      'Full Name': validLead.fullName,
    });
    expect(byId.get(ids.quick)).toMatchObject({
      'Member ID': quickInsuranceLead.memberID,
      'First Name': quickInsuranceLead.firstName,
      // A choice by its option's label, not its code.
      'Insurance Provider': 'Tricare',
    });
    expect(byId.get(ids.consultation)).toMatchObject({
      'Member ID': '',
      'Last Name': 'Marquez',
      // Labels, not codes: the form's name, the status as the inbox says it.
      Form: 'Free consultation request',
      Status: 'New',
      Calls: '0',
    });
  });

  it("keeps one form's own order when filtered by it", async () => {
    const { header, byId } = await exported('?form=widget-insurance');
    expect(header.slice(11)).toEqual([
      'First Name',
      'Last Name',
      'Phone Number',
      'Email',
      'Insurance Provider',
      'Member ID',
    ]);
    expect([...byId.keys()]).toEqual([ids.quick]);
  });
});

/** The audit rows of the export whose export-start is the newest, start first. */
async function exportRows() {
  const { rows } = await server.store.audit.page({ limit: 200 });
  const start = rows.find((row) => row.action === 'export-start');
  const id = /export=([\w-]+)/.exec(start?.detail ?? '')?.[1] ?? 'none';
  return rows.filter((row) => row.detail?.includes(`export=${id}`)).reverse();
}

describe('the audit of an export', () => {
  it('writes export-start before the first byte and export-end when it finishes, with the rows sent', async () => {
    const { byId } = await exported();
    const [start, end] = await exportRows();
    expect(start).toMatchObject({ action: 'export-start', leadId: null });
    expect(end).toMatchObject({
      action: 'export-end',
      detail: expect.stringMatching(/ outcome=finished rows=3$/),
    });
    expect(byId.size).toBe(3);
    expect(end!.seq).toBeGreaterThan(start!.seq);
  });

  it('audits an export whose client goes away after the first bytes as aborted, and does not hang', async () => {
    const admin = await enrolled(server, 'leaving-admin@example.org', true);
    // An export with no end (a very large one): the store's rows, again and again, until the handler stops asking.
    const [sample] = (await server.store.inbox.list({ limit: 1 })).rows;
    const all = vi.spyOn(server.store.inbox, 'all').mockImplementation(async function* endless() {
      for (;;) yield sample as InboxRow;
    });
    try {
      const answer = await rawExchange(
        server.url,
        `GET /staff/api/leads.csv HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nCookie: ${admin.cookie}\r\n\r\n`,
        { stopAtHead: true },
      );
      expect(answer.status).toBe(200);
      // The client is gone; the handler stops and writes the end of the export.
      await vi.waitFor(
        async () =>
          expect((await exportRows()).map((row) => row.action)).toEqual(['export-start', 'export-end']),
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      all.mockRestore();
    }
    const [start, end] = await exportRows();
    expect(start).toMatchObject({ actor: 'leaving-admin@example.org' });
    expect(end).toMatchObject({
      actor: 'leaving-admin@example.org',
      detail: expect.stringMatching(/^export=[\w-]+ outcome=aborted rows=\d+$/),
    });
    expect(server.logs).toContainEqual(
      expect.objectContaining({ msg: 'lead export stopped: the client went away' }),
    );
    // The server still answers (another member: the endless export spent this one's read allowance).
    const other = await enrolled(server, 'staying-admin@example.org', true);
    expect((await other.get('/leads')).status).toBe(200);
  });
});

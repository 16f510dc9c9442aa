// The speed-to-lead report (issue #30, item 9) over the staff API, on a small set whose numbers are known: per form and
// per week of the site's time zone (America/Los_Angeles: a lead on Sunday night there is last week's, though Monday in
// UTC), the promises, the share kept, and the median minutes to first contact. Admins only; no patient data; audited.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeedToLeadReport } from '../../../contracts/staff-admin.ts';
import { createdId, postJson, validLead } from '../../helpers/fixtures.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { consultationLead, enrolled, sendLead, type StaffClient } from './staff-client.ts';

// Wednesday 25 November 2026, noon in Los Angeles.
const NOW = Date.parse('2026-11-25T20:00:00.000Z');
let server: InProcessServer;
let admin: StaffClient;

/** A lead whose arrival, promise and first contact are these instants (minutes after arrival; null: none). */
async function lead(form: 'consultation' | 'insurance', at: string, promise: number, contact: number | null) {
  const id =
    form === 'consultation'
      ? await sendLead(server, consultationLead)
      : await createdId(await postJson(server.api, validLead));
  const arrival = Date.parse(at);
  const db = new Database(server.dbFile);
  db.prepare('UPDATE leads SET created_at = ?, promised_at = ?, first_contact_at = ? WHERE id = ?').run(
    new Date(arrival).toISOString(),
    new Date(arrival + promise * 60_000).toISOString(),
    contact === null ? null : new Date(arrival + contact * 60_000).toISOString(),
    id,
  );
  db.close();
}

beforeAll(async () => {
  server = await startInProcessServer({ staff: { now: () => NOW } });
  admin = await enrolled(server, 'lead@example.org', true);
  await lead('consultation', '2026-11-24T17:00:00Z', 15, 5); // kept, 5 min
  await lead('consultation', '2026-11-24T18:00:00Z', 15, 30); // missed, 30 min
  await lead('consultation', '2026-11-24T19:00:00Z', 15, null); // missed: no contact, promise passed
  await lead('consultation', '2026-11-24T20:00:00Z', 15, 10); // kept, 10 min
  await lead('consultation', '2026-11-25T19:55:00Z', 15, null); // open: due at 20:10, now is 20:00
  await lead('insurance', '2026-11-23T07:30:00Z', 1440, 10); // Sunday 23:30 in Los Angeles: the week before, kept
  await lead('insurance', '2026-11-23T08:30:00Z', 1440, null); // Monday 00:30 there: this week, missed
  await lead('insurance', '2026-11-02T18:00:00Z', 1440, 3); // four weeks back: outside two weeks
});
afterAll(() => server.stop());

describe('the speed-to-lead report', () => {
  it('counts promises kept and missed, and the median to first contact, per form and local week', async () => {
    const report = await admin.json<SpeedToLeadReport>(await admin.get('/reports/speed-to-lead?weeks=2'));
    expect(report).toEqual({
      timeZone: 'America/Los_Angeles',
      weeks: 2,
      rows: [
        {
          week: '2026-11-23',
          formId: 'consultation',
          formName: 'Free consultation request',
          promises: 5,
          kept: 2,
          missed: 2,
          open: 1,
          keptShare: 0.5,
          medianMinutesToContact: 10,
        },
        expect.objectContaining({
          week: '2026-11-23',
          formId: 'insurance-verification',
          promises: 1,
          kept: 0,
          missed: 1,
          open: 0,
          keptShare: 0,
          medianMinutesToContact: null,
        }),
        expect.objectContaining({
          week: '2026-11-16',
          formId: 'insurance-verification',
          promises: 1,
          kept: 1,
          keptShare: 1,
          medianMinutesToContact: 10,
        }),
      ],
    });
    const text = JSON.stringify(report);
    for (const personal of [consultationLead.lastName, consultationLead.phone, validLead.fullName])
      expect(text).not.toContain(personal);
    const wider = await admin.json<SpeedToLeadReport>(await admin.get('/reports/speed-to-lead?weeks=5'));
    expect(wider.rows.map((row) => row.week)).toContain('2026-11-02');
    expect(await admin.get('/reports/speed-to-lead?weeks=0')).toHaveProperty('status', 400);
    const audited = (await server.store.audit.page({ limit: 100 })).rows.filter(
      (row) => row.action === 'report-view',
    );
    expect(audited.map((row) => row.detail)).toEqual(['speed-to-lead weeks=5', 'speed-to-lead weeks=2']);
    expect(audited[0]?.actor).toBe('lead@example.org');
  });
});

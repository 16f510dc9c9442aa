// The CSV export of leads from every form: one column per label, whatever each form calls its field (the insurance
// form's memberId and the quick form's memberID are both "Member ID"), in an order that does not move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    rows.map((row) => [row[0], Object.fromEntries(header.map((label, i) => [label, row[i]]))]),
  );
  return { header, byId };
}

describe('the CSV export', () => {
  it('has one column per label across the forms, in a stable order, each value under it', async () => {
    const { header, byId } = await exported();
    expect(header).toEqual([
      'id',
      'createdAt',
      'form',
      'status',
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
      'Insurance Provider': quickInsuranceLead.insuranceProvider,
    });
    expect(byId.get(ids.consultation)).toMatchObject({ 'Member ID': '', 'Last Name': 'Marquez' });
  });

  it("keeps one form's own order when filtered by it", async () => {
    const { header, byId } = await exported('?form=widget-insurance');
    expect(header.slice(4)).toEqual([
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

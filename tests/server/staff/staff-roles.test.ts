// Roles open parts of the staff API: an editorial member (editor, reviewer, publisher) never reaches the leads, not
// their list, a lead, the desk, the export or the live events; admissions staff and admins do. Every member keeps
// their account routes. The content API's side of it (admissions staff refused) is in tests/server/content-staff/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffRole } from '../../../contracts/staff-api.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { DAY_MS, StaffClient, sendLead } from './staff-client.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer();
});
afterAll(() => server.stop());

async function member(email: string, roles: StaffRole[]): Promise<StaffClient> {
  const { token } = await server.store.staff.createInvite(email, roles, Date.now() + DAY_MS);
  const client = new StaffClient(server.url);
  const enrolled = await client.enrol(token);
  if (enrolled.status !== 200) throw new Error(`enrol: ${enrolled.status} ${await enrolled.text()}`);
  return client;
}

describe('roles and the leads', () => {
  it('refuses every lead route to an editorial member (403), and keeps their account routes open', async () => {
    const leadId = await sendLead(server);
    const editor = await member('ed@example.org', ['editor', 'reviewer', 'publisher']);
    for (const path of ['/leads', `/leads/${leadId}`, '/leads.csv', '/events']) {
      const response = await editor.get(path);
      expect(response.status, path).toBe(403);
      expect(await response.json()).toEqual({ error: 'the leads are for admissions staff' });
    }
    for (const path of ['/leads/search', `/leads/${leadId}/claim`, `/leads/${leadId}/notes`])
      expect((await editor.post(path, { text: 'x' })).status, path).toBe(403);
    expect(await editor.get('/me')).toHaveProperty('status', 200);
    expect(await editor.get('/sessions')).toHaveProperty('status', 200);
    const refused = (await server.store.audit.page({ limit: 50 })).rows.filter(
      (row) => row.actor === 'ed@example.org' && row.action !== 'enrol',
    );
    // Refusals are audited (staff-refusals.ts), never a read of a lead.
    expect(refused.every((row) => row.action !== 'view')).toBe(true);
  });

  it('opens the leads to admissions staff, and to an admin without the admissions role', async () => {
    const leadId = await sendLead(server);
    const desk = await member('al@example.org', ['admissions']);
    const admin = await member('ad@example.org', ['admin']);
    for (const client of [desk, admin]) {
      expect((await client.get('/leads')).status).toBe(200);
      expect((await client.get(`/leads/${leadId}`)).status).toBe(200);
    }
  });
});

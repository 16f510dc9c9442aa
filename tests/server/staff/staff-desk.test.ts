// The admissions desk over the staff API, as two members use it: every lead with its due time (its form's promise),
// its owner and the same person's other leads; "I'm calling" (200, or 409 while another member calls), release; a
// call's outcome moving the due time; the "needs action" queue; and every change pushed over the event stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadDetail, LeadsPage } from '../../../contracts/staff-api.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { consultationLead, enrolled, sendLead, type StaffClient } from './staff-client.ts';

let server: InProcessServer;
let ana: StaffClient;
let bob: StaffClient;
let first: string;
let second: string;
beforeAll(async () => {
  server = await startInProcessServer();
  ana = await enrolled(server, 'ana@example.org');
  bob = await enrolled(server, 'bob@example.org');
  first = await sendLead(server, { ...consultationLead, phone: '(415) 555-0142' });
  second = await sendLead(server, {
    ...consultationLead,
    phone: '415-555-0142',
    email: 'other@example.org',
    message: 'Called earlier, nobody called back yet',
  });
});
afterAll(() => server.stop());

describe('the desk', () => {
  it("gives each lead its due time at its promise, its owner and the same caller's other leads", async () => {
    const lead = await ana.json<LeadDetail>(await ana.get(`/leads/${first}`));
    expect(Date.parse(lead.dueAt) - Date.parse(lead.createdAt)).toBe(15 * 60_000);
    expect(lead).toMatchObject({ due: true, owner: null, attempts: 0, related: [second], calls: [] });
    const page = await ana.json<LeadsPage>(await ana.get('/leads'));
    const listed = page.leads.find((item) => item.id === second);
    expect(listed).toMatchObject({ owner: null, related: [first], dueAt: expect.any(String) });
    expect(listed?.relatedLeads).toEqual([{ id: first, createdAt: lead.createdAt, status: 'new' }]);
  });

  it('lets one member claim a lead: 409 for the other, 200 to release it', async () => {
    const claimed = await ana.json<LeadDetail>(await ana.post(`/leads/${first}/claim`));
    expect(claimed.owner).toBe('ana@example.org');
    const refused = await bob.post(`/leads/${first}/claim`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: 'ana@example.org is calling' });
    expect(await bob.post(`/leads/${first}/release`)).toHaveProperty('status', 409);
    const mine = await ana.json<LeadsPage>(await ana.get('/leads?owner=mine'));
    expect(mine.leads.map((item) => item.id)).toEqual([first]);
    const released = await ana.json<LeadDetail>(await ana.post(`/leads/${first}/release`));
    expect(released.owner).toBeNull();
    expect((await bob.json<LeadDetail>(await bob.post(`/leads/${first}/claim`))).owner).toBe(
      'bob@example.org',
    );
    expect(await bob.post('/leads/no-such-lead/claim')).toHaveProperty('status', 404);
  });

  it('logs a call: "asked to call back in 10 minutes" moves the due time; the queue follows', async () => {
    const at = new Date(Date.now() + 10 * 60_000).toISOString();
    const lead = await bob.json<LeadDetail>(
      await bob.post(`/leads/${first}/calls`, { outcome: 'callback', callbackAt: at }),
    );
    expect(lead).toMatchObject({ status: 'contacted', attempts: 1, dueAt: at, due: true });
    expect(lead.calls).toEqual([
      { at: expect.any(String), author: 'bob@example.org', outcome: 'callback', callbackAt: at },
    ]);
    expect(await bob.post(`/leads/${first}/calls`, { outcome: 'callback' })).toHaveProperty('status', 400);
    expect(await bob.post(`/leads/${first}/calls`, { outcome: 'fax' })).toHaveProperty('status', 400);
    // The tap on a call link alone (no outcome yet) is still told and audited.
    expect(await bob.post(`/leads/${first}/calls`)).toHaveProperty('status', 204);
    const queue = await ana.json<LeadsPage>(await ana.get('/leads?view=needs-action'));
    // The callback (in 10 minutes) is sooner than the second lead's promise (15 minutes after it came).
    expect(queue.leads.map((item) => item.id)).toEqual([first, second]);
    await ana.post(`/leads/${second}/calls`, { outcome: 'reached' });
    const after = await ana.json<LeadsPage>(await ana.get('/leads?view=needs-action&status=contacted,new'));
    expect(after.leads.map((item) => item.id)).toEqual([first]);
  });

  it('pushes every change to every open list within a second', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/staff/api/events`, {
      headers: { Cookie: ana.cookie ?? '' },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = '';
    const started = Date.now();
    await bob.post(`/leads/${second}/notes`, { text: 'Call back at 8 am' });
    try {
      while (!text.includes(`event: change\ndata: {"id":"${second}"}`)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
    } finally {
      controller.abort();
    }
    expect(text).toContain(`event: change\ndata: {"id":"${second}"}`);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

// Escalation: a lead still unclaimed at its due time is told to the chat (no patient data: the form, how late against
// which promise, a link), again at the configured cadence, and no more once someone claims it.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEscalation } from '../../../server/alerts/escalation.ts';
import { loadForms, loadSite } from '../../../server/content.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver.ts';
import { consultationLead, sendLead } from '../staff/staff-client.ts';

const forms = loadForms();
const site = loadSite();

describe('the escalation message', () => {
  it('says the form, how late against its promise, and links the lead: nothing of the person', () => {
    const now = Date.parse('2026-01-09T12:18:00Z');
    const message = buildEscalation(
      { id: 'lead-1', formId: 'consultation', dueAt: '2026-01-09T12:15:00.000Z', callback: false },
      forms.get('consultation'),
      site,
      now,
    );
    expect(message.text).toBe(
      `A free consultation request is 3 min past its 15-minute promise. No one has claimed it. Open lead: ${new URL('/staff/leads/lead-1', site.url).href}`,
    );
    const late = buildEscalation(
      { id: 'lead-2', formId: 'insurance-verification', dueAt: '2026-01-09T10:00:00.000Z', callback: true },
      forms.get('insurance-verification'),
      site,
      now,
    );
    expect(late.text).toMatch(/^An? .+ is 2 h 18 min past the callback time it was promised\./);
  });
});

describe('escalation at the due time', () => {
  let receiver: Receiver;
  let server: InProcessServer;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startInProcessServer({
      webhookUrl: receiver.url,
      escalationSweepMs: 100,
      escalationRepeatMs: 400,
    });
  });
  afterAll(async () => {
    await server.stop();
    await receiver.stop();
  });

  const escalations = () => receiver.messages.filter((message) => message.text.includes('past its'));

  it('tells the chat when an unclaimed lead passes its promise, repeats until claimed, and never names the person', async () => {
    const id = await sendLead(server, consultationLead);
    // The lead's 15 minutes, passed: its due time moved back as the clock would.
    const db = new Database(server.dbFile);
    db.prepare('UPDATE leads SET due_at = ?, promised_at = ? WHERE id = ?').run(
      new Date(Date.now() - 3 * 60_000).toISOString(),
      new Date(Date.now() - 3 * 60_000).toISOString(),
      id,
    );
    db.close();
    await expect.poll(() => escalations().length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    const [first] = escalations();
    expect(first?.text).toMatch(/^A free consultation request is 3 min past its 15-minute promise\./);
    expect(first?.text).toContain(`/staff/leads/${id}`);
    const raw = JSON.stringify(escalations());
    for (const value of [
      consultationLead.firstName,
      consultationLead.lastName,
      '555',
      consultationLead.email,
      'Please call',
    ])
      expect(raw).not.toContain(value);

    expect(await server.store.inbox.claim(id, 'ana@example.org')).toBe('claimed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = escalations().length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(escalations().length).toBe(after);
  });
});

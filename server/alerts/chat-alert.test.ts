import { describe, expect, it } from 'vitest';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import insurance from '../../site/forms/insurance-verification.json' with { type: 'json' };
import siteJson from '../../site/site.json' with { type: 'json' };
import { buildChatAlert, telLink } from './chat-alert.ts';
import { loadForms } from '../content.ts';
import type { StoredLead } from '../store/contract/lead-store.ts';

const site = siteJson as Site;
const lead = (formId: string, data: Record<string, string>): StoredLead => ({
  id: '0b6f3c1e-1111-4222-8333-944455556666',
  formId,
  createdAt: '2026-01-08T17:30:00.000Z',
  source: '/services/medical-detox',
  data,
});

const everyValue = (data: Record<string, string>) => Object.values(data).filter((value) => value.length > 2);

describe('chat alert', () => {
  const consultationLead = {
    firstName: 'Sam',
    lastName: 'Lee',
    phone: '555-010-0199',
    email: 'sam@example.com',
    concernFor: 'family',
    urgency: 'immediate',
    message: 'My brother relapsed last week',
  };

  it('by default says only that a request came in: form, urgency, time and a link to the lead in the inbox', () => {
    const forms = loadForms();
    const message = buildChatAlert(lead('consultation', consultationLead), forms.get('consultation'), site);
    const json = JSON.stringify(message);
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'New request: Free consultation request', emoji: false },
    });
    expect(json).toContain('*Urgency*\\nImmediate: need help today');
    expect(json).toContain('<!date^1767893400^{date_short_pretty} at {time}|Thu, Jan 8, 2026, 9:30 AM PST>');
    const link = `https://www.example.com/staff/leads/${lead('', {}).id}`;
    expect(message.blocks).toContainEqual(
      expect.objectContaining({
        type: 'actions',
        elements: [
          expect.objectContaining({ url: link, text: expect.objectContaining({ text: 'Open lead' }) }),
        ],
      }),
    );
    expect(message.text).toBe(
      `New request: Free consultation request, Immediate: need help today. Open lead: <${link}> (lead ${lead('', {}).id})`,
    );
    // No name, phone, e-mail, choice, message or source page: nothing the person sent but how urgent it is.
    for (const value of [
      ...everyValue({ ...consultationLead, urgency: '' }),
      'A family member',
      'medical-detox',
    ])
      expect(json).not.toContain(value);
  });

  it('carries none of the values of any real form by default, whatever they are', () => {
    const forms = loadForms();
    const values = {
      fullName: 'Jane Doe',
      firstName: 'Ana',
      lastName: 'Ruiz',
      phone: '5550104477',
      email: 'ana@example.com',
      dateOfBirth: '1987-03-14',
      insuranceProvider: 'bluecross',
      memberId: 'M-123456',
      memberID: 'TRI-55120',
      concernFor: 'family',
      message: 'I relapsed last week',
    };
    for (const [formId, def] of forms) {
      const json = JSON.stringify(buildChatAlert(lead(formId, values), def, site));
      for (const value of [...everyValue(values), 'Blue Cross', '(555) 010-4477', 'medical-detox'])
        expect(json, `${formId}: ${value}`).not.toContain(value);
    }
  });

  it('with CHAT_ALERT_DETAIL=contact adds the name and a tap-to-call number, and still no other value', () => {
    const forms = loadForms();
    const message = buildChatAlert(
      lead('consultation', consultationLead),
      forms.get('consultation'),
      site,
      'contact',
    );
    expect(message.blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*Sam Lee*\nCall <tel:+15550100199|(555) 010-0199>' },
    });
    const json = JSON.stringify(message);
    for (const value of ['sam@example.com', 'relapsed', 'A family member', 'medical-detox'])
      expect(json).not.toContain(value);

    const insuranceAlert = JSON.stringify(
      buildChatAlert(
        lead('insurance-verification', {
          fullName: 'Jane Doe',
          phone: '555.010.4477',
          dateOfBirth: '1987-03-14',
          insuranceProvider: 'kaiser permanente',
          memberId: 'M-123',
        }),
        insurance as FormDefinition,
        site,
        'contact',
      ),
    );
    expect(insuranceAlert).toContain('*Jane Doe*\\nCall <tel:+15550104477|(555) 010-4477>');
    for (const value of ['1987-03-14', 'M-123', 'Kaiser', 'kaiser'])
      expect(insuranceAlert).not.toContain(value);
  });

  it('keeps visitor text from becoming Slack markup or links', () => {
    const message = buildChatAlert(
      lead('insurance-verification', {
        fullName: '<!channel> & <https://evil.example|click>',
        phone: '5550100123',
      }),
      insurance as FormDefinition,
      site,
      'contact',
    );
    const json = JSON.stringify(message);
    expect(json).toContain('&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;');
    expect(json).not.toContain('<!channel>');
  });

  it('shows no submitted values for a form it no longer knows, even with contact detail', () => {
    const json = JSON.stringify(
      buildChatAlert(lead('old-form', { fullName: 'Jane', memberId: 'M-1' }), undefined, site, 'contact'),
    );
    expect(json).toContain('New request: old-form');
    expect(json).not.toContain('Jane');
    expect(json).not.toContain('M-1');
  });

  it('leaves urgency out when the person chose none', () => {
    const forms = loadForms();
    const json = JSON.stringify(
      buildChatAlert(
        lead('consultation', { firstName: 'Sam', phone: '5550100199' }),
        forms.get('consultation'),
        site,
      ),
    );
    expect(json).not.toContain('Urgency');
  });

  it('links only US numbers', () => {
    expect(telLink('+1 (555) 010-0123')).toBe('<tel:+15550100123|(555) 010-0123>');
    expect(telLink('12<3>')).toBe('12&lt;3&gt;');
  });
});

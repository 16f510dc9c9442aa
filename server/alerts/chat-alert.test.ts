import { describe, expect, it } from 'vitest';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import insurance from '../../site/forms/insurance-verification.json' with { type: 'json' };
import siteJson from '../../site/site.json' with { type: 'json' };
import { alertFields, buildChatAlert, telLink } from './chat-alert.ts';
import { loadForms } from '../content.ts';
import type { StoredLead } from '../leads/lead-store.ts';

const site = siteJson as Site;
const lead = (formId: string, data: Record<string, string>): StoredLead => ({
  id: '0b6f3c1e-1111-4222-8333-944455556666',
  formId,
  createdAt: '2026-01-08T17:30:00.000Z',
  source: '/services/medical-detox',
  data,
});

// The widget's consultation form, as a definition: split name, e-mail, two selects and free text.
const consultation: FormDefinition = {
  $schema: '../../../schemas/form.schema.json',
  name: 'Consultation',
  fields: [
    { name: 'firstName', label: 'First Name', type: 'text', required: true, pii: 'contact' },
    { name: 'lastName', label: 'Last Name', type: 'text', required: true, pii: 'contact' },
    { name: 'phone', label: 'Phone', type: 'tel', required: true, pii: 'contact' },
    { name: 'email', label: 'Email', type: 'email', required: true, pii: 'contact' },
    {
      name: 'urgency',
      label: 'Urgency',
      type: 'select',
      required: false,
      options: [{ label: 'Immediate: need help today', value: 'immediate' }],
    },
    { name: 'employer', label: 'Employer', type: 'text', required: false },
    { name: 'message', label: 'Message (optional)', type: 'textarea', required: false },
  ],
  submitLabel: 'Send',
  submittingLabel: 'Scheduling Consultation...',
  requiredMessage: 'Required',
  success: { title: 'ok', text: 'ok' },
  failure: { title: 'no', text: 'no' },
};

describe('chat alert', () => {
  it('shows name, tap-to-call phone, provider label, source URL, time and lead id; never health fields', () => {
    const message = buildChatAlert(
      lead('insurance-verification', {
        fullName: 'Jane Doe',
        phone: '555.010.4477',
        dateOfBirth: '1987-03-14',
        insuranceProvider: 'kaiser permanente',
        memberId: 'M-123',
      }),
      insurance as FormDefinition,
      site,
    );
    const json = JSON.stringify(message);
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'New lead: Insurance verification', emoji: false },
    });
    expect(json).toContain('Jane Doe');
    expect(json).toContain('<tel:+15550104477|(555) 010-4477>');
    expect(json).toContain('Kaiser Permanente');
    expect(json).toContain('<https://www.example.com/services/medical-detox>');
    expect(json).toContain('2026-01-08T17:30:00.000Z');
    expect(json).toContain('<!date^1767893400^{date_short_pretty} at {time}|Thu, Jan 8, 2026, 9:30 AM PST>');
    expect(json).toContain(lead('', {}).id);
    expect(json).not.toContain('1987-03-14');
    expect(json).not.toContain('M-123');
    expect(json).not.toContain('Date of Birth');
    expect(message.text).toBe(
      `New lead: Insurance verification from Jane Doe, <tel:+15550104477|(555) 010-4477> (lead ${lead('', {}).id})`,
    );
  });

  it('derives what to show from the definition: contact fields and choices, never free text', () => {
    expect(alertFields(insurance as FormDefinition).map((field) => field.name)).toEqual([
      'fullName',
      'phone',
      'insuranceProvider',
    ]);
    expect(alertFields(consultation).map((field) => field.name)).toEqual([
      'firstName',
      'lastName',
      'phone',
      'email',
      'urgency',
    ]);
    const json = JSON.stringify(
      buildChatAlert(
        lead('consultation', {
          firstName: 'Sam',
          lastName: 'Lee',
          phone: '5550100199',
          email: 'sam@example.com',
          urgency: 'immediate',
          employer: 'Acme',
          message: 'I relapsed last week',
        }),
        consultation,
        site,
      ),
    );
    expect(json).toContain('Sam Lee');
    expect(json).toContain('<mailto:sam@example.com|sam@example.com>');
    expect(json).toContain('Immediate: need help today');
    expect(json).not.toContain('Acme');
    expect(json).not.toContain('relapsed');
  });

  it('keeps visitor text from becoming Slack markup or links', () => {
    const message = buildChatAlert(
      lead('insurance-verification', {
        fullName: '<!channel> & <https://evil.example|click>',
        phone: '5550100123',
      }),
      insurance as FormDefinition,
      { ...site },
    );
    const json = JSON.stringify(message);
    expect(json).toContain('&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;');
    expect(json).not.toContain('<!channel>');
  });

  it('shows no submitted values for a form it no longer knows', () => {
    const json = JSON.stringify(
      buildChatAlert(lead('old-form', { fullName: 'Jane', memberId: 'M-1' }), undefined, site),
    );
    expect(json).toContain('New lead: old-form');
    expect(json).not.toContain('Jane');
    expect(json).not.toContain('M-1');
  });

  it('reads well for each real form: name and tap-to-call first, option labels, never health or free text', () => {
    const forms = loadForms();
    const alertOf = (formId: string, data: Record<string, string>) =>
      buildChatAlert(lead(formId, data), forms.get(formId), site);

    const consultation = alertOf('consultation', {
      firstName: 'Sam',
      lastName: 'Lee',
      phone: '555-010-0199',
      email: 'sam@example.com',
      concernFor: 'family',
      urgency: 'immediate',
      message: 'My brother relapsed last week',
    });
    expect(consultation.blocks[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*Sam Lee*\nCall <tel:+15550100199|(555) 010-0199>' },
    });
    const json = JSON.stringify(consultation);
    expect(json).toContain('*Who is this for?*\\nA family member');
    expect(json).toContain('*How soon do you need help?*\\nImmediate: need help today');
    expect(json).not.toContain('relapsed');
    expect(json).not.toContain('Message');

    const widget = JSON.stringify(
      alertOf('widget-insurance', {
        firstName: 'Ana',
        lastName: 'Ruiz',
        phone: '5550100111',
        email: 'ana@example.com',
        insuranceProvider: 'bluecross',
        memberID: 'TRI-55120',
      }),
    );
    expect(widget).toContain('Ana Ruiz');
    expect(widget).toContain('Blue Cross');
    expect(widget).not.toContain('TRI-55120');
    expect(widget).not.toContain('Member ID');

    // Optional choices left out are left out of the alert too.
    expect(
      JSON.stringify(alertOf('consultation', { firstName: 'Sam', lastName: 'Lee', phone: '5550100199' })),
    ).not.toContain('How soon');
  });

  it('links only US numbers', () => {
    expect(telLink('+1 (555) 010-0123')).toBe('<tel:+15550100123|(555) 010-0123>');
    expect(telLink('12<3>')).toBe('12&lt;3&gt;');
  });
});

import { describe, expect, it } from 'vitest';
import { LabelText, RichText } from './RichText.tsx';
import { SiteProvider, site } from '../site-context.tsx';
import { renderToHtml } from '../../tests/helpers/render-to-html.tsx';

describe('RichText', () => {
  it('renders {phone} as a tap-to-call link to the chosen line and {email} as a mail link', async () => {
    const html = await renderToHtml(
      <SiteProvider value={{ site, phone: site.phones.secondary }}>
        <RichText text="Call {phone} or write to {email}." />
      </SiteProvider>,
    );
    expect(html).toContain(
      `<a href="tel:${site.phones.secondary.tel}" class="tel-link">${site.phones.secondary.display}</a>`,
    );
    expect(html).toContain(`<a href="mailto:${site.email}">${site.email}</a>`);
  });

  it('renders site paths as real links', async () => {
    const html = await renderToHtml(
      <RichText text="See [our detox program](/services/medical-detox#faq)." />,
    );
    expect(html).toMatch(/<a [^>]*href="\/services\/medical-detox#faq"[^>]*>our detox program<\/a>/);
  });

  it('renders emergency call and text links as plain links the phone opens', async () => {
    const html = await renderToHtml(
      <RichText text="[Call 911](tel:911), [call](tel:988) or [text 988](sms:988), or [text HOME to 741741](sms:741741?&body=HOME)." />,
    );
    expect(html).toContain(
      '<a href="tel:911">Call 911</a>, <a href="tel:988">call</a> or <a href="sms:988">text 988</a>, or ' +
        '<a href="sms:741741?&amp;body=HOME">text HOME to 741741</a>.',
    );
  });

  it('keeps the phone number of a button label on one line, with no link inside the button', async () => {
    const { display } = site.phones.primary;
    const html = await renderToHtml(<LabelText text="Questions? Call {phone} any time" />);
    expect(html).toContain(
      `<span>Questions? Call <span class="phone-number">${display}</span> any time</span>`,
    );
    expect(html).not.toContain('<a ');
  });
});

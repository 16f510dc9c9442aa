import { describe, expect, it } from 'vitest';
import { LabelText, RichText } from './RichText.tsx';
import { SiteProvider, currentSite } from '../site-context.tsx';

const site = currentSite();
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';

/** Each link: its attributes by name and its text. */
const links = (root: Element) =>
  [...root.querySelectorAll('a')].map((a) => ({
    attributes: Object.fromEntries(a.getAttributeNames().map((name) => [name, a.getAttribute(name)])),
    text: visibleText(a),
  }));

describe('RichText', () => {
  it('renders {phone} as a tap-to-call link to the chosen line and {email} as a mail link', async () => {
    const { tel, display } = site.phones.secondary;
    const page = await renderToDom(
      <SiteProvider value={{ site, phone: site.phones.secondary }}>
        <RichText text="Call {phone} or write to {email}." />
      </SiteProvider>,
    );
    expect(visibleText(page)).toBe(`Call ${display} or write to ${site.email}.`);
    expect(links(page)).toEqual([
      { attributes: { href: `tel:${tel}`, class: 'tel-link' }, text: display },
      { attributes: { href: `mailto:${site.email}` }, text: site.email },
    ]);
  });

  it('renders site paths as real links', async () => {
    const page = await renderToDom(<RichText text="See [our detox program](/services/medical-detox#faq)." />);
    expect(visibleText(page)).toBe('See our detox program.');
    expect(links(page).map(({ attributes, text }) => [attributes.href, text])).toEqual([
      ['/services/medical-detox#faq', 'our detox program'],
    ]);
  });

  it('renders emergency call and text links as plain links the phone opens', async () => {
    const page = await renderToDom(
      <RichText text="[Call 911](tel:911), [call](tel:988) or [text 988](sms:988), or [text HOME to 741741](sms:741741?&body=HOME)." />,
    );
    expect(visibleText(page)).toBe('Call 911, call or text 988, or text HOME to 741741.');
    expect(links(page)).toEqual([
      { attributes: { href: 'tel:911' }, text: 'Call 911' },
      { attributes: { href: 'tel:988' }, text: 'call' },
      { attributes: { href: 'sms:988' }, text: 'text 988' },
      { attributes: { href: 'sms:741741?&body=HOME' }, text: 'text HOME to 741741' },
    ]);
  });

  it('keeps the phone number of a button label on one line, with no link inside the button', async () => {
    const { display } = site.phones.primary;
    const page = await renderToDom(<LabelText text="Questions? Call {phone} any time" />);
    // One span holds the whole label; the number inside it is one unbreakable span.
    const label = page.querySelector(':scope > span');
    expect(visibleText(label!)).toBe(`Questions? Call ${display} any time`);
    expect(
      [...label!.children].map((child) => [child.localName, child.className, child.textContent]),
    ).toEqual([['span', 'phone-number', display]]);
    expect(page.querySelectorAll('a')).toHaveLength(0);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../paths.ts';
import { blockSchemaFile, schemaId } from '../schemas.ts';
import { emergencyNumberProblems } from './emergency-numbers.ts';
import { validateBlock } from './validate-content.ts';
import { CHECKOUT, PAGE, lines, page } from './test-documents.ts';

const FORM = join(ROOT, 'site/forms/consultation.json');
/** A page whose only block is a hero with `text` (on line 8, its string at column 15). */
const heroText = (text: string) =>
  page(`    { "type": "hero", "heading": "Medical Detox", "callLabel": "Call {phone}",
      "text": ${JSON.stringify(text)} }`);

const CTA_BAND = `${schemaId(blockSchemaFile('cta-band'))}#`;
/** The messages for a cta-band block's text. */
const ctaText = (text: string) =>
  emergencyNumberProblems({ type: 'cta-band', heading: 'Help', callLabel: 'Call', text }, CTA_BAND).map(
    (p) => p.message,
  );

describe('emergency numbers', () => {
  it('reports a bare 911 at the string that holds it, with the link to write', () => {
    expect(lines(PAGE, heroText('If someone is not breathing, call 911 now.'))).toEqual([
      'pages/services/medical-detox.json:8:15  /blocks/0/text (hero)  emergency number 911 is not a link: write [call 911](tel:911) so it can be tapped',
    ]);
  });

  it('suggests a call and a text link for a bare 988, and the prefilled text link for 741741', () => {
    expect(ctaText('If you are thinking about suicide, call or text 988 any time.')).toEqual([
      'emergency number 988 is not a link: write [call](tel:988) or [text 988](sms:988) so it can be tapped',
    ]);
    expect(ctaText('You can also text HOME to 741741.')).toEqual([
      'emergency number 741741 is not a link: write [text HOME to 741741](sms:741741?&body=HOME) so it can be tapped',
    ]);
    expect(ctaText('The emergency number is 911.')).toEqual([
      'emergency number 911 is not a link: write [911](tel:911) so it can be tapped',
    ]);
  });

  it('accepts numbers inside links that reach them, bold or not', () => {
    expect(
      lines(PAGE, heroText('**[Call 911](tel:911) now.** Or [call](tel:988) or [text 988](sms:988).')),
    ).toEqual([]);
    expect(ctaText('[Text HOME to 741741](sms:741741?&body=HOME) any time.')).toEqual([]);
  });

  it('does not take a number inside a longer number or a word for an emergency number', () => {
    for (const text of [
      'Since 1988 we have helped families.',
      'Ask for extension 9110.',
      'Our other line is 555-911-0123, or (555) 988.0100.',
      'We have helped 1,988 families and 7417410 visitors.',
      'The X911 model, the 911th caller.',
    ])
      expect(ctaText(text), text).toEqual([]);
  });

  it('reports a number in a link that goes elsewhere, and a call-only link that offers texting', () => {
    expect(ctaText('See [what to do before you call 911](/crisis/emergency-help).')).toEqual([
      'emergency number 911 is in a link to /crisis/emergency-help, which does not reach it: write [call 911](tel:911)',
    ]);
    const callOnly =
      '"text 988" is a link that can only call: write [call](tel:988) or [text 988](sms:988) so each can be tapped';
    expect(ctaText('If you are struggling, [call or text 988](tel:988).')).toEqual([callOnly]);
    expect(ctaText('If you are struggling, call or text [988](tel:988).')).toEqual([callOnly]);
  });

  it('holds the Crisis Text Line to the one link form that prefills HOME on iPhone and Android', () => {
    expect(ctaText('[Text HOME to 741741](sms:741741?body=HOME).')).toEqual([
      'emergency number 741741 is in a link to sms:741741?body=HOME, which does not reach it: write [text HOME to 741741](sms:741741?&body=HOME)',
      'link "sms:741741?body=HOME" to 741741: write sms:741741?&body=HOME, the form that opens the message with HOME written on iPhone and Android alike',
    ]);
  });

  it('accepts a button whose href dials the number in its label, and reports one that does not', () => {
    const button = (label: string, href: string) =>
      page(`    { "type": "cta-band", "heading": "Help", "callLabel": "Call {phone}",
      "secondaryAction": { "label": ${JSON.stringify(label)}, "href": ${JSON.stringify(href)} } }`);
    expect(lines(PAGE, button('Overdose? Call 911', 'tel:911'))).toEqual([]);
    expect(lines(PAGE, button('Overdose? Call 911', '/crisis/emergency-help'))).toEqual([
      'pages/services/medical-detox.json:8:37  /blocks/0/secondaryAction/label (cta-band)  emergency number 911 is in a link to /crisis/emergency-help, which does not reach it: point the href at tel:911, or leave the number out of this label',
    ]);
  });

  it('says when a field cannot hold a link, such as a heading', () => {
    expect(
      lines(
        PAGE,
        page(
          `    { "type": "hero", "heading": "Call 911 If Someone Is Not Breathing", "callLabel": "Call" }`,
        ),
      ),
    ).toEqual([
      'pages/services/medical-detox.json:7:34  /blocks/0/heading (hero)  emergency number 911 is not a link, and this field cannot hold one: leave the number out here and write [call 911](tel:911) in the text beside it',
    ]);
  });

  it('leaves head-only fields, anchors and link targets alone', () => {
    const text = page(
      `    { "type": "hero", "id": "call-911", "heading": "Get Help", "callLabel": "Call {phone}",
      "secondaryAction": { "label": "Emergency", "href": "tel:911" } }`,
    )
      .replace('with 24/7 care', 'call 911 in an emergency')
      .replace('["medical detox"]', '["medical detox", "988 crisis lifeline"]');
    expect(lines(PAGE, text)).toEqual([]);
  });

  it('checks form definitions too', () => {
    const text = readFileSync(FORM, 'utf8').replace('[call 911](tel:911)', 'call 911');
    const line = text.split('\n').findIndex((l) => l.includes('"privacyNote"')) + 1;
    expect(lines(FORM, text)).toEqual([
      `site/forms/consultation.json:${line}:18  /privacyNote  emergency number 911 is not a link: write [call 911](tel:911) so it can be tapped`,
    ]);
  });

  it('applies to a single block, as the block conformance suite checks examples', () => {
    expect(
      validateBlock({ type: 'cta-band', heading: 'Help', callLabel: 'Call', text: 'Call 911.' }, CHECKOUT),
    ).toEqual([
      expect.objectContaining({ pointer: '/text', message: expect.stringContaining('[call 911](tel:911)') }),
    ]);
  });
});

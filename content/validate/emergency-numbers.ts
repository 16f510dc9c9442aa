// Emergency numbers are always one tap away: wherever a visitor reads 911, 988 or the Crisis Text Line's 741741, it
// is a link that dials or texts it. A number written as plain text, or inside a link that goes somewhere else, is an
// error that names the link to write. Text is read as the renderer reads it (renderer/text/tokens.ts), so "inside a
// link" means what the visitor gets.
import { parseText, type TextPiece } from '../../renderer/text/tokens.ts';
import { escapeSegment, isObject } from '../json-pointer.ts';
import type { Problem, ProblemCode } from './problems.ts';
import { schemasAt } from './schema-walk.ts';

type EmergencyNumber = {
  number: string;
  /** Every link that reaches it. */
  hrefs: readonly string[];
  /** The link text to write instead of the bare number, given the words before it. */
  write: (before: string) => string;
};

// 988 takes calls and texts, so both are offered, each its own link. The Crisis Text Line link opens a message with
// HOME already written: iOS reads the body after `&`, Android after `?`, and `?&body=` satisfies both.
const CALL_OR_TEXT_988 = '[call](tel:988) or [text 988](sms:988)';
export const EMERGENCY_NUMBERS: readonly EmergencyNumber[] = [
  {
    number: '911',
    hrefs: ['tel:911'],
    write: (before) => (/\bcall\s+$/i.test(before) ? '[call 911](tel:911)' : '[911](tel:911)'),
  },
  { number: '988', hrefs: ['tel:988', 'sms:988'], write: () => CALL_OR_TEXT_988 },
  {
    number: '741741',
    hrefs: ['sms:741741?&body=HOME'],
    write: () => '[text HOME to 741741](sms:741741?&body=HOME)',
  },
];

const BY_NUMBER = new Map(EMERGENCY_NUMBERS.map((entry) => [entry.number, entry]));

// A whole number only: not part of a longer one (1988, 9110, a phone number such as 555-911-0123, a figure such as
// 1,988) nor of a word or an anchor id.
const NUMBER_SOURCE = String.raw`(?<![\p{L}\p{N}_]|\p{N}[-.,/])(?:${EMERGENCY_NUMBERS.map((e) => e.number).join('|')})(?![\p{L}\p{N}_]|[-.,/]\p{N})`;
const HAS_NUMBER = new RegExp(NUMBER_SOURCE, 'u');
const numbersIn = (text: string) =>
  [...text.matchAll(new RegExp(NUMBER_SOURCE, 'gu'))].flatMap((match) => {
    const number = BY_NUMBER.get(match[0]);
    return number ? [{ number, before: text.slice(0, match.index) }] : [];
  });

/** Values that are addresses or names, never text a visitor reads. */
const NOT_TEXT = new Set(['$schema', 'href', 'path', 'id', 'aliases', 'canonical', 'type', 'icon', 'prefer']);
/**
 * A document's fields that go only into the page's head (search results, share previews, structured data), where no
 * link can be: a number there is left alone.
 */
const HEAD_ONLY: Partial<Record<string, readonly string[]>> = {
  page: ['title', 'description', 'keywords', 'social', 'structuredData'],
  site: ['organization'],
};
/** Fields shown as the text of their own object's link: a button's or link's label, a contact's value. */
const INSIDE_OWN_LINK = new Set(['label', 'value']);

const TEXT_DEF = '#/$defs/text';
const OFFERS_TEXTING = /\btext\b/i;

/** The emergency number a dial or text link goes to, if any. */
function dialled(href: string): EmergencyNumber | undefined {
  const digits = /^(?:tel|sms):\+?(\d+)/.exec(href)?.[1];
  return digits === undefined ? undefined : BY_NUMBER.get(digits);
}

/** A finding before it has a pointer: a code and a message. */
type Found = { code: ProblemCode; message: string };

/** A dial or text link to an emergency number in another form than the site's. */
function hrefProblem(href: string): Found | undefined {
  const number = dialled(href);
  if (!number || number.hrefs.includes(href)) return undefined;
  const why =
    number.number === '741741'
      ? ', the form that opens the message with HOME written on iPhone and Android alike'
      : '';
  return {
    code: 'emergency-number-wrong-href',
    message: `link "${href}" to ${number.number}: write ${number.hrefs.join(' or ')}${why}`,
  };
}

// "call or text [988](tel:988)" and "[call or text 988](tel:988)" tell the visitor to text, but the link only calls.
const textingByCall = (href: string): Found | undefined =>
  href.startsWith('tel:') && dialled(href)?.number === '988'
    ? {
        code: 'emergency-number-call-only',
        message: `"text 988" is a link that can only call: write ${CALL_OR_TEXT_988} so each can be tapped`,
      }
    : undefined;

const plain = (pieces: readonly TextPiece[]): string =>
  pieces
    .map((p) =>
      p.kind === 'text'
        ? p.text
        : p.kind === 'phone' || p.kind === 'email' || p.kind === 'promise'
          ? ''
          : plain(p.children),
    )
    .join('');

/** Problems of formatted text: numbers outside links, or in links that do not reach them. */
function textProblems(value: string, linkable: () => boolean): (Found | undefined)[] {
  const messages: (Found | undefined)[] = [];
  const walk = (pieces: readonly TextPiece[]) =>
    pieces.forEach((piece, i) => {
      if (piece.kind === 'bold') walk(piece.children);
      else if (piece.kind === 'text')
        for (const { number, before } of numbersIn(piece.text))
          messages.push(
            linkable()
              ? {
                  code: 'emergency-number-not-linked',
                  message: `emergency number ${number.number} is not a link: write ${number.write(before)} so it can be tapped`,
                }
              : {
                  code: 'emergency-number-in-plain-field',
                  message: `emergency number ${number.number} is not a link, and this field cannot hold one: leave the number out here and write ${number.write(before)} in the text beside it`,
                },
          );
      else if (piece.kind === 'link') {
        const label = plain(piece.children);
        for (const { number, before } of numbersIn(label))
          if (!number.hrefs.includes(piece.href))
            messages.push({
              code: 'emergency-number-wrong-link',
              message: `emergency number ${number.number} is in a link to ${piece.href}, which does not reach it: write ${number.write(before)}`,
            });
        const previous = pieces[i - 1];
        if (OFFERS_TEXTING.test(label) || (previous?.kind === 'text' && /\btext\s*$/i.test(previous.text)))
          messages.push(textingByCall(piece.href));
        messages.push(hrefProblem(piece.href));
      }
    });
  walk(parseText(value));
  return messages;
}

/** Problems of a field shown as its object's link (a button's label): every number in it is what the link reaches. */
function ownLinkProblems(value: string, href: string): Found[] {
  const label = plain(parseText(value));
  const messages = numbersIn(label)
    .filter(({ number }) => !number.hrefs.includes(href))
    .map(({ number }): Found => ({
      code: 'emergency-number-wrong-link',
      message: `emergency number ${number.number} is in a link to ${href}, which does not reach it: point the href at ${number.hrefs.join(' or ')}, or leave the number out of this label`,
    }));
  if (OFFERS_TEXTING.test(label) && textingByCall(href))
    messages.push({
      code: 'emergency-number-call-only',
      message: `"text 988" on a link that can only call: label it "Call 988", and add a link to sms:988 to text`,
    });
  return messages;
}

/**
 * Every emergency number in a document (a page, the site document, a form definition) or a block that a visitor
 * reads and cannot tap, and every dial or text link to one in another form than the site's. `rootUrl` is the schema
 * the value follows, which tells whether a field can hold a link; `kind` names the document, whose head-only fields
 * are left alone.
 */
export function emergencyNumberProblems(data: unknown, rootUrl: string, kind?: string): Problem[] {
  const problems: Problem[] = [];
  const headOnly = new Set((kind && HEAD_ONLY[kind]) ?? []);
  const add = (pointer: string, found: readonly (Found | undefined)[]) => {
    const seen = new Set<string>();
    for (const item of found)
      if (item && !seen.has(item.message)) {
        seen.add(item.message);
        problems.push({ code: item.code, pointer, message: item.message, at: 'value' });
      }
  };
  const visit = (value: unknown, pointer: string, key: string, ownHref: string | undefined) => {
    if (typeof value === 'string') {
      if (key === 'href') add(pointer, [hrefProblem(value)]);
      else if (!NOT_TEXT.has(key) && HAS_NUMBER.test(value))
        add(
          pointer,
          ownHref === undefined
            ? textProblems(value, () =>
                schemasAt(rootUrl, data, pointer).some((l) => l.url.endsWith(TEXT_DEF)),
              )
            : ownLinkProblems(value, ownHref),
        );
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${pointer}/${i}`, key, ownHref));
    else if (isObject(value)) {
      const href = typeof value.href === 'string' ? value.href : undefined;
      for (const [k, v] of Object.entries(value))
        if (pointer !== '' || !headOnly.has(k))
          visit(v, `${pointer}/${escapeSegment(k)}`, k, INSIDE_OWN_LINK.has(k) ? href : undefined);
    }
  };
  visit(data, '', '', undefined);
  return problems;
}

// Parses content text into pieces: plain text, {phone}/{email} tokens, {promise:<form id>} (the time that form
// promises, from its promiseMinutes), **bold** and [label](href) links. Pure and browser-safe; RichText renders the
// pieces.

export type TextPiece =
  | { kind: 'text'; text: string }
  | { kind: 'phone' }
  | { kind: 'email' }
  /** The promise of form `formId` in words ("15 minutes"), so page text never types a time the inbox is held to. */
  | { kind: 'promise'; formId: string }
  | { kind: 'bold'; children: TextPiece[] }
  | { kind: 'link'; href: string; children: TextPiece[] };

/** `{promise:consultation}`: the form id as site/forms/ names its files. */
export const PROMISE_TOKEN_PATTERN = /\{promise:([a-z0-9][a-z0-9-]*)\}/g;

const PATTERN = new RegExp(
  [
    String.raw`\{phone\}|\{email\}`,
    PROMISE_TOKEN_PATTERN.source,
    String.raw`\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)`,
  ].join('|'),
  'g',
);

/** What the tokens stand for: the page's phone line, the site's e-mail, and each form's promise in words. */
export interface TokenValues {
  phone: string;
  email: string;
  /** Undefined for a form that does not exist (the validator refuses it): the token is then shown as typed. */
  promise: (formId: string) => string | undefined;
}

export function parseText(input: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of input.matchAll(PATTERN)) {
    const at = match.index;
    if (at > last) pieces.push({ kind: 'text', text: input.slice(last, at) });
    const [whole, formId, bold, label, href] = match;
    if (whole === '{phone}') pieces.push({ kind: 'phone' });
    else if (whole === '{email}') pieces.push({ kind: 'email' });
    else if (formId !== undefined) pieces.push({ kind: 'promise', formId });
    else if (bold !== undefined) pieces.push({ kind: 'bold', children: parseText(bold) });
    else if (label !== undefined && href !== undefined)
      pieces.push({ kind: 'link', href, children: parseText(label) });
    last = at + whole.length;
  }
  if (last < input.length) pieces.push({ kind: 'text', text: input.slice(last) });
  return pieces;
}

/** The text as a person reads it, tokens replaced: for titles, aria labels and attributes. */
export function plainText(input: string, values: TokenValues): string {
  const flatten = (pieces: TextPiece[]): string =>
    pieces
      .map((p) => {
        switch (p.kind) {
          case 'text':
            return p.text;
          case 'phone':
            return values.phone;
          case 'email':
            return values.email;
          case 'promise':
            return values.promise(p.formId) ?? `{promise:${p.formId}}`;
          case 'bold':
          case 'link':
            return flatten(p.children);
        }
      })
      .join('');
  return flatten(parseText(input));
}

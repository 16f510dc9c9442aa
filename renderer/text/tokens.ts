// Parses content text into pieces: plain text, {phone}/{email} tokens, **bold** and [label](href) links.
// Pure and browser-safe; RichText renders the pieces.

export type TextPiece =
  | { kind: 'text'; text: string }
  | { kind: 'phone' }
  | { kind: 'email' }
  | { kind: 'bold'; children: TextPiece[] }
  | { kind: 'link'; href: string; children: TextPiece[] };

const PATTERN = /\{phone\}|\{email\}|\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function parseText(input: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of input.matchAll(PATTERN)) {
    const at = match.index;
    if (at > last) pieces.push({ kind: 'text', text: input.slice(last, at) });
    const [whole, bold, label, href] = match;
    if (whole === '{phone}') pieces.push({ kind: 'phone' });
    else if (whole === '{email}') pieces.push({ kind: 'email' });
    else if (bold !== undefined) pieces.push({ kind: 'bold', children: parseText(bold) });
    else if (label !== undefined && href !== undefined)
      pieces.push({ kind: 'link', href, children: parseText(label) });
    last = at + whole.length;
  }
  if (last < input.length) pieces.push({ kind: 'text', text: input.slice(last) });
  return pieces;
}

/** The text as a person reads it, tokens replaced: for titles, aria labels and attributes. */
export function plainText(input: string, values: { phone: string; email: string }): string {
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
          case 'bold':
          case 'link':
            return flatten(p.children);
        }
      })
      .join('');
  return flatten(parseText(input));
}

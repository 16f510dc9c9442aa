// What a visitor reads on a page, as lines, to say how two releases' pages differ (`npm run content -- diff`): the
// text of the body with scripts, styles, templates and hidden parts left out, one line per block-level element.
const DROPPED = /<(script|style|template|noscript|svg)\b[^>]*>[\s\S]*?<\/\1>/gi;
const HIDDEN = /<([a-z][a-z0-9-]*)\b[^>]*\s(?:hidden|aria-hidden="true")[^>]*>[\s\S]*?<\/\1>/gi;
const BLOCK =
  /<\/?(?:p|div|section|article|header|footer|nav|main|aside|h[1-6]|li|ul|ol|dt|dd|dl|tr|td|th|table|br|hr|summary|details|blockquote|figcaption|label|button|option|form|fieldset|legend)\b[^>]*>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] === '#')
      return String.fromCodePoint(
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
      );
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

/** The visible text of an HTML page, one trimmed line per block, empty lines dropped. */
export function visibleLines(html: string): string[] {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return decode(
    body
      .replace(DROPPED, '')
      .replace(HIDDEN, '')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** The lines only in `before` (removed) and only in `after` (added), each in its page's order. */
export function changedLines(before: string[], after: string[]): { removed: string[]; added: string[] } {
  const count = (lines: string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const only = (lines: string[], other: Map<string, number>) =>
    lines.filter((line) => {
      const left = other.get(line) ?? 0;
      if (left > 0) {
        other.set(line, left - 1);
        return false;
      }
      return true;
    });
  return { removed: only(before, count(after)), added: only(after, count(before)) };
}

// The first screen in the first round trip (docs/decisions/2026-11-28-first-screen-first-round-trip.md). A page's
// head carries only the CSS rules that can apply to its first screen (the header and the first block, everything
// before `#first-screen-end`); the whole stylesheet follows as a file, linked right after that marker
// (renderer/shell/DeferredStylesheet.tsx), cached across pages. Chromium paints nothing after an in-body stylesheet
// until it has loaded, so no block is ever seen without its CSS, and the first screen never waits for it.
//
// Correct cascade by construction: the inline rules are a subset of the file's, in the file's order, and the file
// comes after them, so once it is in, every element gets exactly what the one stylesheet gave it before.
import { parseHTML } from 'linkedom';

/** A top-level piece of a stylesheet: a style rule, or an at-rule with its rules inside (`@media`, `@supports`). */
type CssItem =
  | { kind: 'rule'; selector: string; text: string }
  | { kind: 'group'; prelude: string; items: CssItem[] }
  | { kind: 'other'; text: string };

/** The index after the block that opens at `open` (a `{`), skipping strings and comments. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const char = css[i];
    if (char === '"' || char === "'") {
      const close = css.indexOf(char, i + 1);
      i = close < 0 ? css.length : close;
    } else if (char === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      i = close < 0 ? css.length : close + 1;
    } else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i + 1;
  }
  return css.length;
}

/** Splits a stylesheet into its items. Minified CSS (Vite's output) and hand-written CSS alike. */
export function cssItems(css: string): CssItem[] {
  const items: CssItem[] = [];
  let i = 0;
  while (i < css.length) {
    const rest = css.slice(i);
    const lead = /^(\s|\/\*[\s\S]*?\*\/)+/.exec(rest);
    if (lead) {
      i += lead[0].length;
      continue;
    }
    const open = css.indexOf('{', i);
    const semicolon = css.indexOf(';', i);
    if (css[i] === '@' && semicolon >= 0 && (open < 0 || semicolon < open)) {
      // A statement at-rule (@charset, @import, @layer a, b;): kept as it is.
      items.push({ kind: 'other', text: css.slice(i, semicolon + 1) });
      i = semicolon + 1;
      continue;
    }
    if (open < 0) break;
    const end = blockEnd(css, open);
    const prelude = css.slice(i, open).trim();
    if (/^@(media|supports|container|layer)\b/.test(prelude))
      items.push({ kind: 'group', prelude, items: cssItems(css.slice(open + 1, end - 1)) });
    else if (prelude.startsWith('@')) items.push({ kind: 'other', text: css.slice(i, end) });
    else items.push({ kind: 'rule', selector: prelude, text: css.slice(i, end) });
    i = end;
  }
  return items;
}

/** The selectors of a selector list, split at its top-level commas (not those inside `:is()`, `:not()`...). */
export function selectorList(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const char = selector[i];
    if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(selector.slice(start).trim());
  return parts.filter(Boolean);
}

// States the static page is not in but a visitor can put it in (hover, focus, a popover open, a pressed button), and
// pseudo-elements: taken out before matching, so a rule for any state of a first-screen element counts as its rule.
const STATEFUL =
  /::?(?:hover|focus-visible|focus-within|focus|active|visited|link|any-link|checked|placeholder-shown|popover-open|open|target|before|after|placeholder|marker|selection|backdrop|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)(?![\w-])/g;

/** The selector an element matches in any state: stateful pseudo-classes and pseudo-elements removed. */
export function anyStateSelector(selector: string): string {
  // Where a pseudo stood alone (`.a > ::before`, `:hover`), "any element" takes its place.
  const bare = selector.replace(STATEFUL, (_pseudo, at: number) =>
    at === 0 || /[\s>+~(,]/.test(selector[at - 1]!) ? '*' : '',
  );
  return bare.replace(/:(?:is|where|not|has)\(\s*\*?\s*\)/g, '') || '*';
}

/**
 * The stylesheet's rules that can apply to the first screen of `html` (a whole prerendered page): every rule one of
 * whose selectors matches, in some state, an element before `#<markerId>` (the header, the first block and their
 * ancestors), in light and in dark mode. A selector the matcher cannot read counts as matching: a rule too many costs
 * bytes, a rule too few costs a flash of an unstyled first screen. Rules inside `@media` and `@supports` keep their
 * condition; `@keyframes` are kept when a kept rule names them, other at-rules (`@font-face`) whole.
 */
export function criticalCss(css: string, html: string, markerId: string): string {
  // Only the page up to the marker is parsed: every element of that document is the first screen's (an unclosed
  // element is closed by the parser), and matching is 3-4 times faster than on the whole page.
  const marker = new RegExp(`<[a-z]+ id="${markerId}"`).exec(html);
  if (!marker) return css;
  const { document } = parseHTML(html.slice(0, marker.index));
  const root = document.documentElement;
  const schemes = ['light', 'dark'];
  const known = new Map<string, boolean>();
  const applies = (selector: string): boolean => {
    const answer = known.get(selector) ?? matches(selector);
    known.set(selector, answer);
    return answer;
  };
  const matches = (selector: string): boolean =>
    selectorList(selector).some((one) => {
      const query = anyStateSelector(one);
      try {
        return schemes.some((scheme) => {
          root.setAttribute('data-mantine-color-scheme', scheme);
          return document.querySelector(query) !== null;
        });
      } catch {
        return true;
      }
    });
  const keep = (items: CssItem[], animations?: string): string =>
    items
      .map((item) => {
        if (item.kind === 'rule') return applies(item.selector) ? item.text : '';
        if (item.kind === 'group') {
          const inner = keep(item.items, animations);
          return inner ? `${item.prelude}{${inner}}` : '';
        }
        // Keyframes only if a kept rule animates with them (the second pass, once those rules are known).
        const keyframes = /^@(?:-webkit-)?keyframes\s+([\w-]+)/.exec(item.text);
        if (!keyframes) return item.text;
        return animations !== undefined && new RegExp(`[:\\s,]${keyframes[1]}(?![\\w-])`).test(animations)
          ? item.text
          : '';
      })
      .join('');
  const items = cssItems(css);
  // The first screen's markup, not the head: its inline stylesheet reads every variable.
  return withoutUnusedVariables(keep(items, keep(items)), document.body?.outerHTML ?? '');
}

/** The declarations of a rule's block, split at its own semicolons (not those inside strings or `url()`). */
function declarations(block: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < block.length; i++) {
    const char = block[i];
    if (char === '"' || char === "'") i = Math.max(i, block.indexOf(char, i + 1));
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ';' && depth === 0) {
      parts.push(block.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(block.slice(start));
  return parts.filter((part) => part.trim());
}

/**
 * `css` without the custom properties nothing reads: a declaration `--name: value` stays when `var(--name` is in the
 * kept CSS (a value that reads it, or another kept variable's) or in the first screen's markup (Mantine writes
 * `style="--button-bg: var(--mantine-color-...)"`). The theme's and Mantine's `:root` rules define hundreds that the
 * first screen never reads; the whole stylesheet, after it, defines them all again.
 */
export function withoutUnusedVariables(css: string, markup: string): string {
  const rules = [...css.matchAll(/([^{}]*)\{([^{}]*)\}/g)];
  let kept = css;
  // Until nothing more goes: dropping a variable can leave another one unread.
  for (;;) {
    const read = new Set([...`${kept}${markup}`.matchAll(/var\(\s*(--[\w-]+)/g)].map((match) => match[1]!));
    const next = kept.replace(/([^{}]*)\{([^{}]*)\}/g, (whole, selector: string, block: string) => {
      const used = declarations(block).filter((declaration) => {
        const name = /^\s*(--[\w-]+)\s*:/.exec(declaration)?.[1];
        return !name || read.has(name);
      });
      if (used.length === declarations(block).length) return whole;
      return used.length ? `${selector}{${used.join(';')}}` : '';
    });
    if (next === kept || rules.length === 0) return next;
    kept = next;
  }
}

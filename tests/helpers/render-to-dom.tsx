// Renders a React element inside what every block expects (a router, Mantine and the site context) and parses the
// markup into a DOM (linkedom), so that tests assert what a visitor gets: text, roles, attributes, structure.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { parseHTML } from 'linkedom';
import { siteTheme } from '../../renderer/theme.ts';

/** The server-rendered markup of `element` at `path`, parsed: the `<body>` that holds it, to query. */
export async function renderToDom(
  element: ReactNode,
  path = '/services/medical-detox',
): Promise<HTMLElement> {
  const rootRoute = createRootRoute({
    component: () => <MantineProvider theme={siteTheme()}>{element}</MantineProvider>,
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  const html = renderToString(<RouterProvider router={router} />);
  const { body } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document;
  for (const element of body.querySelectorAll('*')) if (!element.closest('svg')) lowerCaseAttributes(element);
  return body;
}

/**
 * A browser reads HTML attribute names in lower case (React writes popoverTarget, tabIndex, autoComplete); linkedom
 * keeps them as written, where `[popovertarget]` would not find them. (SVG's own names, viewBox, keep their case.)
 */
function lowerCaseAttributes(element: Element) {
  for (const name of element.getAttributeNames())
    if (name !== name.toLowerCase()) {
      const value = element.getAttribute(name) ?? '';
      element.removeAttribute(name);
      element.setAttribute(name.toLowerCase(), value);
    }
}

/** Elements laid out within a line of text; every other element starts a new run of text, as a block does. */
const INLINE = new Set(
  `a abbr b bdi bdo button cite code data del dfn em i img ins kbd label mark q s samp small span strong sub sup
  svg time u var wbr`.split(/\s+/),
);
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/**
 * What a visitor reads in `node`: its text (with what is visually hidden for screen readers), without styles and
 * scripts, a space where a block (a heading, a list item, a cell) begins or ends, and whitespace folded.
 */
export function visibleText(node: Node): string {
  const text = (current: Node): string => {
    if (current.nodeType === TEXT_NODE) return current.textContent ?? '';
    if (current.nodeType !== ELEMENT_NODE) return '';
    const name = (current as Element).localName;
    if (name === 'style' || name === 'script') return ' ';
    const inner = [...current.childNodes].map(text).join('');
    return INLINE.has(name) ? inner : ` ${inner} `;
  };
  return text(node).replace(/\s+/g, ' ').trim();
}

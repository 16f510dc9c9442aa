import { describe, expect, it } from 'vitest';
import {
  anyStateSelector,
  criticalCss,
  cssItems,
  selectorList,
  withoutUnusedVariables,
} from './critical-css.ts';

const page = (firstScreen: string, rest: string) =>
  `<!DOCTYPE html><html data-mantine-color-scheme="light"><head></head><body><header class="site">${firstScreen}` +
  `</header><main><span id="end" hidden></span>${rest}</main></body></html>`;

describe('criticalCss', () => {
  it('keeps the rules of the first screen, in the stylesheet order, and drops those of the blocks after it', () => {
    const css = '.site{color:red}.later{color:blue}.hero .lead{margin:0}.site a{color:green}';
    const html = page(
      '<div class="hero"><p class="lead">Help now</p><a href="/">Home</a></div>',
      '<p class="later">x</p>',
    );
    expect(criticalCss(css, html, 'end')).toBe('.site{color:red}.hero .lead{margin:0}.site a{color:green}');
  });

  it('keeps a rule for any state of a first-screen element, in dark mode too, and media conditions around it', () => {
    const css =
      '.b:hover{color:red}.b::before{content:""}.b:focus-visible>svg{fill:red}' +
      '[data-mantine-color-scheme=dark] .b{color:white}@media (min-width:48em){.b{padding:1rem}.later{padding:0}}' +
      '.later:hover{color:red}';
    const html = page('<button class="b"><svg></svg></button>', '<p class="later">x</p>');
    expect(criticalCss(css, html, 'end')).toBe(
      '.b:hover{color:red}.b::before{content:""}.b:focus-visible>svg{fill:red}' +
        '[data-mantine-color-scheme=dark] .b{color:white}@media (min-width:48em){.b{padding:1rem}}',
    );
  });

  it('keeps the keyframes a kept rule animates with, and a rule whose selector it cannot read', () => {
    const css =
      '@keyframes spin{to{rotate:1turn}}@keyframes fade{to{opacity:0}}.b{animation:spin 1s}.later{animation:fade 1s}' +
      '.b:unknown-state(x){color:red}';
    const html = page('<b class="b"></b>', '<p class="later">x</p>');
    expect(criticalCss(css, html, 'end')).toBe(
      '@keyframes spin{to{rotate:1turn}}.b{animation:spin 1s}.b:unknown-state(x){color:red}',
    );
  });

  it('keeps the whole stylesheet on a page without the marker', () => {
    expect(criticalCss('.a{color:red}', '<html><body><p class="b"></p></body></html>', 'end')).toBe(
      '.a{color:red}',
    );
  });
});

describe('the stylesheet reader', () => {
  it('splits rules, groups and statements, skipping comments and braces inside strings', () => {
    const items = cssItems('/* c */@layer a;.a{content:"}"}@media (x){.b{c:d}}@font-face{font-family:f}');
    expect(items).toEqual([
      { kind: 'other', text: '@layer a;' },
      { kind: 'rule', selector: '.a', text: '.a{content:"}"}' },
      { kind: 'group', prelude: '@media (x)', items: [{ kind: 'rule', selector: '.b', text: '.b{c:d}' }] },
      { kind: 'other', text: '@font-face{font-family:f}' },
    ]);
  });

  it('splits a selector list at its own commas only', () => {
    expect(selectorList('.a, .b:is(.c,.d) , [x=","]')).toEqual(['.a', '.b:is(.c,.d)', '[x=","]']);
  });

  it('matches any state: states and pseudo-elements leave, an empty compound becomes any element', () => {
    expect(anyStateSelector('.a:hover>.b::before')).toBe('.a>.b');
    expect(anyStateSelector('.a > :focus-visible')).toBe('.a > *');
    expect(anyStateSelector('.a:where(:not(:disabled))')).toBe('.a:where(:not(:disabled))');
  });
});

describe('withoutUnusedVariables', () => {
  it('keeps the variables the CSS or the markup reads, through other variables too, and drops the rest', () => {
    const css =
      ':root{--a:1px;--b:var(--c);--c:red;--unused:0;--d:blue}.x{margin:var(--a);color:var(--b)}' +
      '@media (x){:root{--unused:1}}';
    expect(withoutUnusedVariables(css, '<p style="--own:var(--d)"></p>')).toBe(
      ':root{--a:1px;--b:var(--c);--c:red;--d:blue}.x{margin:var(--a);color:var(--b)}@media (x){}',
    );
  });
});

// `npm run first-screen-variants [-- --page /services/medical-detox --runs 21 --variants served,hero-only]`: where a
// page's Largest Contentful Paint with applied throttling goes (issue 29; docs/decisions/2026-11-28-first-screen-first-round-trip.md).
// Serves edited copies of one built page beside it, through the real server from a copy of dist/client (the same
// headers, compression and Content-Security-Policy as the page itself), and measures each copy and the floor page the
// way the audit does (scripts/lib/applied-lcp.ts), in turns, RUNS times. Each edit takes one part away, so its cost
// is the difference of the medians; single loads here spread by ±100 ms, so read a difference only at 21 runs or
// more. Prints a line per variant, ending with `floor_ms=N served_ratio=N`. Builds nothing: run `npm run build` first.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { readArgs, wholeNumber } from '../core/cli.ts';
import { withoutUnusedVariables } from '../core/critical-css.ts';
import { htmlFile } from '../core/page-paths.ts';
import { compressedCopies } from '../core/precompress.ts';
import { ROOT } from '../content/paths.ts';
import { FIRST_SCREEN_END } from '../renderer/head.ts';
import { launchBrowser } from '../tests/helpers/browser.ts';
import { FLOOR_PAGE, lcpInTurns, median } from './lib/applied-lcp.ts';
import { startServerProcess } from './lib/server-process.ts';

type Edit = (document: Document) => void;

const remove = (document: Document, selector: string) =>
  document.querySelectorAll(selector).forEach((element) => element.remove());

/** Everything after the first screen's marker, up to the end of the body. */
function cutAfterFirstScreen(document: Document) {
  for (let node: Node | null = document.getElementById(FIRST_SCREEN_END); node && node !== document.body;) {
    while (node.nextSibling) node.nextSibling.remove();
    node = node.parentNode;
  }
}

/**
 * The theme's custom properties that nothing else in the document reads, through other variables too (the prerender's
 * own pruning of the critical CSS, core/critical-css.ts): what pruning them could at best save.
 */
function unreadThemeVariables(document: Document) {
  for (const style of document.querySelectorAll('head style:not([data-tsr-inline-css])')) {
    const css = style.textContent ?? '';
    style.textContent = '';
    style.textContent = withoutUnusedVariables(css, document.documentElement.outerHTML);
  }
}

const HERO_ONLY: Edit[] = [cutAfterFirstScreen, (d) => remove(d, 'script'), (d) => remove(d, 'header')];

/** The edits, each named for what it takes away; `served` is the page as built, byte for byte. */
const VARIANTS: Record<string, Edit[]> = {
  served: [],
  'no-menus': [(d) => remove(d, 'details.mobile-menu > :not(summary)'), (d) => remove(d, 'ul.nav-desktop')],
  'no-unread-theme-variables': [unreadThemeVariables],
  // Paints as the parser goes instead of once the first screen is whole (renderer/head.ts says why it waits).
  'no-render-blocking': [(d) => remove(d, 'link[rel=expect]')],
  'no-header': [(d) => remove(d, 'header')],
  'hero-only': HERO_ONLY,
  'hero-only-no-unread-theme-variables': [...HERO_ONLY, unreadThemeVariables],
};

const { values } = readArgs(process.argv.slice(2), {
  page: { type: 'string', default: '/' },
  runs: { type: 'string' },
  variants: { type: 'string' },
});
const runs = wholeNumber('--runs', values.runs, 21, 1, 200);
const names = values.variants?.split(',') ?? Object.keys(VARIANTS);
const unknown = names.filter((name) => !(name in VARIANTS));
if (unknown.length > 0)
  throw new Error(`Unknown variants: ${unknown.join(', ')} (known: ${Object.keys(VARIANTS).join(', ')})`);

const source = join(ROOT, 'dist', 'client');
const pageFile = htmlFile(values.page);
if (!existsSync(join(source, pageFile)))
  throw new Error(`No ${pageFile} in dist/client: run npm run build first`);
const tmp = mkdtempSync(join(tmpdir(), 'first-screen-variants-'));
// The server looks for what it serves beside its client folder (the inbox, the releases), so the copy is `client`.
const dir = join(tmp, 'client');
try {
  cpSync(source, dir, { recursive: true });
  const built = readFileSync(join(source, pageFile), 'utf8');
  const write = (name: string, html: string) => {
    const file = join(dir, `variant-${name}.html`);
    const { br, gzip } = compressedCopies(file, Buffer.from(html));
    writeFileSync(file, html);
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzip);
    return { name, path: `/variant-${name}`, brotli: br.length };
  };
  const targets = names.map((name) => {
    if (name === 'served') return write(name, built);
    const { document } = parseHTML(built);
    for (const edit of VARIANTS[name]!) edit(document as unknown as Document);
    return write(name, `<!DOCTYPE html>${document.documentElement.outerHTML}`);
  });
  targets.push(write('floor', FLOOR_PAGE));
  const server = await startServerProcess({ env: { CLIENT_DIR: dir } });
  const browser = await launchBrowser();
  let measured: Map<string, number[]>;
  try {
    measured = await lcpInTurns(
      browser,
      targets.map(({ name, path }) => ({ name, url: `${server.url}${path}` })),
      runs,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
  const floor = median(measured.get('floor')!);
  console.log(
    `${values.page}, LCP with applied throttling, median of ${runs} (single loads in brackets, fastest first):`,
  );
  for (const { name, brotli } of targets) {
    const list = measured.get(name)!;
    const sorted = [...list].sort((a, b) => a - b).join(' ');
    console.log(
      `  ${name.padEnd(38)} ${median(list)} ms, ${(median(list) / floor).toFixed(2)}× (${brotli} B br; ${sorted})`,
    );
  }
  const served = measured.get('served');
  console.log(`floor_ms=${floor} served_ratio=${served ? (median(served) / floor).toFixed(2) : 'none'}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

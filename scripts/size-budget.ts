// npm run budget: what each page makes a visitor download before it is usable. Every route is opened in Chromium
// against the real server and woken as a visitor wakes it (its scripts run at the first interaction); every script
// and stylesheet it requests, and the CSS inlined in the page, is counted at its gzip size. And the first screen: the
// bytes of the response, headers included, before the end of the page's first block, as served with brotli and with
// gzip, must fit in TCP's first round trip (scripts/lib/first-screen-bytes.ts).
// Fails, naming the route and its largest chunk, when a page is over budget, and when a page loads any byte of the
// staff inbox (a request under /staff/, or the inbox's code in a page or asset of the site).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, contentPaths } from '../content/paths.ts';
import { launchBrowser, visit } from '../tests/helpers/browser.ts';
import { startServerProcess } from './lib/server-process.ts';
import { siteIndex } from '../content/validate/link-rules.ts';
import { FIRST_ROUND_TRIP_BYTES, firstScreenBytes } from './lib/first-screen-bytes.ts';
import { FIRST_SCREEN_END } from '../renderer/head.ts';

/**
 * Budgets in bytes of gzip (JS at most 140 KB, aiming at 120; CSS at most 15 KB): a phone on a slow network gets the
 * page's code in about a second. Budgets are goals: they are not moved to let a check pass. The first screen: at most
 * FIRST_ROUND_TRIP_BYTES (docs/decisions/2026-11-28-first-screen-first-round-trip.md).
 */
export const BUDGET = { js: 140 * 1024, css: 15 * 1024, firstScreen: FIRST_ROUND_TRIP_BYTES } as const;

const CLIENT = join(ROOT, 'dist', 'client');
const gzipSize = (urlPath: string): number =>
  gzipSync(readFileSync(join(CLIENT, urlPath)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

type Row = {
  route: string;
  js: number;
  css: number;
  largest: { file: string; size: number };
  /** Bytes before the first screen's end, brotli and gzip; null on a page without a first block (the 404 page). */
  firstScreen: { br: number | null; gzip: number | null };
};
/** The marker after a page's first block, as the server sends it (renderer/shell/PageView.tsx). */
const MARKER = `id="${FIRST_SCREEN_END}"`;
const firstScreenOver = (row: Row) =>
  Math.max(row.firstScreen.br ?? 0, row.firstScreen.gzip ?? 0) > BUDGET.firstScreen;

/** The staff inbox's address space: a visitor's page never requests anything under it. */
const STAFF_PREFIX = '/staff/';
// Strings only the inbox's code carries (inbox/: its API path, its request header, its layout classes, the passkey
// client's ceremony): the studio's own check (tests/studio/site-budget.test.ts) scans the site the same way.
const INBOX_MARKERS = ['/staff/api', 'X-Staff-Request', 'inbox-lead', 'startRegistration'];
/** Every file of the built site holding one of the inbox's markers, as `file: marker`; a marker the inbox's own build
 * no longer holds is reported too, since it would find nothing. */
function inboxCodeInSite(): string[] {
  const inbox = join(ROOT, 'dist', 'inbox', 'assets');
  const own = readdirSync(inbox).map((file) => readFileSync(join(inbox, file), 'utf8'));
  const stale = INBOX_MARKERS.filter((marker) => !own.some((text) => text.includes(marker))).map(
    (marker) => `INBOX_MARKERS names ${marker}, which dist/inbox no longer holds`,
  );
  const files = readdirSync(CLIENT, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.(html|js|css)$/.test(file),
  );
  return [
    ...stale,
    ...files.flatMap((file) => {
      const text = readFileSync(join(CLIENT, file), 'utf8');
      return INBOX_MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`);
    }),
  ];
}
const staffRequests: string[] = [];

// The production server on the build, with a throwaway in-memory lead store (no form is sent).
const site = await startServerProcess();
const browser = await launchBrowser();
const rows: Row[] = [];
try {
  for (const route of [...[...siteIndex(contentPaths(ROOT)).pages.keys()].sort(), '/404']) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const files = new Map<string, 'script' | 'stylesheet'>();
    page.on('request', (request) => {
      const type = request.resourceType();
      const url = new URL(request.url());
      if (url.origin === site.url && url.pathname.startsWith(STAFF_PREFIX))
        staffRequests.push(`${route} requested ${url.pathname}`);
      if ((type === 'script' || type === 'stylesheet') && url.origin === site.url)
        files.set(url.pathname, type);
    });
    await visit(page, `${site.url}${route}`);
    await page.waitForLoadState('networkidle');
    const inlineCss = await page.$$eval('head style', (styles) =>
      styles.map((style) => style.textContent ?? ''),
    );
    await context.close();
    let js = 0;
    let css = 0;
    let largest = { file: '', size: 0 };
    for (const text of inlineCss) {
      const size = gzipSync(text, { level: 9 }).length;
      css += size;
      if (size > largest.size) largest = { file: 'inline <style> in the page', size };
    }
    for (const [file, type] of files) {
      const size = gzipSize(file);
      if (type === 'script') js += size;
      else css += size;
      if (size > largest.size) largest = { file, size };
    }
    const firstScreen = {
      br: await firstScreenBytes(`${site.url}${route}`, 'br', MARKER),
      gzip: await firstScreenBytes(`${site.url}${route}`, 'gzip', MARKER),
    };
    if (route !== '/404' && (firstScreen.br === null || firstScreen.gzip === null))
      throw new Error(`${route} was not served compressed with its first screen's marker ${MARKER}`);
    rows.push({ route, js, css, largest, firstScreen });
  }
} finally {
  await browser.close();
  await site.stop();
}

const over = rows.filter((row) => row.js > BUDGET.js || row.css > BUDGET.css || firstScreenOver(row));
console.log(
  `first-load weight per page (gzip), budget JS ${kb(BUDGET.js)}, CSS ${kb(BUDGET.css)}; ` +
    `first screen (headers and body to the end of the first block, br / gzip) ${BUDGET.firstScreen} bytes`,
);
const bytes = (value: number | null) => (value === null ? '-' : String(value)).padStart(6);
for (const row of rows)
  console.log(
    `${row.route.padEnd(38)} js ${kb(row.js).padStart(9)}  css ${kb(row.css).padStart(8)}  ` +
      `first screen ${bytes(row.firstScreen.br)} /${bytes(row.firstScreen.gzip)}  ${over.includes(row) ? 'OVER' : 'ok'}`,
  );
const worst = rows.reduce((a, b) => (b.js > a.js ? b : a));
const firstScreens = rows.flatMap((row) => [row.firstScreen.br ?? 0, row.firstScreen.gzip ?? 0]);
console.log(
  `max_js_kb=${(worst.js / 1024).toFixed(1)} max_css_kb=${(Math.max(...rows.map((r) => r.css)) / 1024).toFixed(1)} ` +
    `max_first_screen_bytes=${Math.max(...firstScreens)}`,
);
const inboxInSite = [...staffRequests, ...inboxCodeInSite()];
for (const problem of inboxInSite) console.error(`the staff inbox reaches a visitor's page: ${problem}`);
if (inboxInSite.length === 0) console.log('no visitor page loads any of the staff inbox');
if (over.length > 0 || inboxInSite.length > 0) {
  for (const row of over) {
    if (row.js > BUDGET.js || row.css > BUDGET.css)
      console.error(
        `${row.route} is over budget: JS ${kb(row.js)}, CSS ${kb(row.css)}; its largest chunk is ${row.largest.file} (${kb(row.largest.size)})`,
      );
    if (firstScreenOver(row))
      console.error(
        `${row.route}: its first screen is ${row.firstScreen.br} bytes with brotli and ${row.firstScreen.gzip} ` +
          `with gzip, headers included; the first round trip carries ${BUDGET.firstScreen}`,
      );
  }
  process.exit(1);
}

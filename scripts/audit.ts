// `npm run audit [-- --strict-performance]`: Lighthouse (mobile, simulated throttling) in Debian's Chromium on a
// home, a service, a treatment and a crisis page of the built site, served by the real server on a free loopback
// port. Prints every score and the Core Web Vitals per page against the budgets below and exits 1 when
// accessibility, best practices or SEO is under budget; the performance budgets decide the exit code only with
// --strict-performance. Builds nothing: run `npm run build` first. Too slow for every test run, so not in `npm test`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { ROOT } from './lib/content-schemas.ts';
import { startServerProcess } from './lib/server-process.ts';

/** The budgets, in one place. Performance and the three metrics are issue 6's targets. */
const BUDGETS = {
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
  performance: 95,
  /** Largest Contentful Paint, milliseconds. */
  lcp: 1500,
  /** Total Blocking Time, milliseconds. */
  tbt: 50,
  /** Cumulative Layout Shift. */
  cls: 0.01,
} as const;

/** A page of each kind the issue names. */
const AUDITED_PAGES = [
  '/',
  '/services/medical-detox',
  '/treatment/fentanyl-addiction',
  '/crisis/emergency-help',
] as const;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
/** The categories whose budget always decides the exit code. */
const GATING: readonly Category[] = ['accessibility', 'best-practices', 'seo'];

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
// As STACK-NOTES.md found for this machine: new headless mode, no sandbox (containers), no GPU, /tmp instead of a
// small /dev/shm, and no background traffic to Google that would blur the measurements.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
];
const CLIENT_DIR = join(ROOT, 'dist', 'client');
const REPORT_DIR = join(ROOT, 'test-results', 'lighthouse');

interface PageResult {
  path: string;
  scores: Record<Category, number>;
  lcp: number;
  tbt: number;
  cls: number;
  /** Audits that cost points in a gating category: `category: audit id (title)`. */
  failing: string[];
}

/** The production server on the built site, with a throwaway in-memory lead store. */
const startServer = () => startServerProcess({ env: { LEADS_DB: ':memory:', LOG_LEVEL: 'warn' } });

function pageResult(path: string, lhr: Result): PageResult {
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = GATING.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category}: ${ref.id} (${lhr.audits[ref.id]?.title ?? ''})`),
  );
  return {
    path,
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, score(category)])) as Record<
      Category,
      number
    >,
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    failing,
  };
}

/** A value with its pass mark: `100 ✓` or `87 ✗`. */
const mark = (text: string, pass: boolean) => `${text} ${pass ? '✓' : '✗'}`;

function table(results: PageResult[]): string {
  const header = ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP ms', 'TBT ms', 'CLS'];
  const rows = results.map((r) => [
    r.path,
    mark(String(r.scores.performance), r.scores.performance >= BUDGETS.performance),
    mark(String(r.scores.accessibility), r.scores.accessibility >= BUDGETS.accessibility),
    mark(String(r.scores['best-practices']), r.scores['best-practices'] >= BUDGETS['best-practices']),
    mark(String(r.scores.seo), r.scores.seo >= BUDGETS.seo),
    mark(String(Math.round(r.lcp)), r.lcp <= BUDGETS.lcp),
    mark(String(Math.round(r.tbt)), r.tbt <= BUDGETS.tbt),
    mark(r.cls.toFixed(3), r.cls <= BUDGETS.cls),
  ]);
  const budget = [
    'budget',
    `≥ ${BUDGETS.performance}`,
    `≥ ${BUDGETS.accessibility}`,
    `≥ ${BUDGETS['best-practices']}`,
    `≥ ${BUDGETS.seo}`,
    `≤ ${BUDGETS.lcp}`,
    `≤ ${BUDGETS.tbt}`,
    `≤ ${BUDGETS.cls}`,
  ];
  const all = [header, ...rows, budget];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), line(budget)].join(
    '\n',
  );
}

async function main(): Promise<number> {
  const strictPerformance = process.argv.includes('--strict-performance');
  if (!existsSync(join(CLIENT_DIR, 'index.html'))) {
    console.error('No built site in dist/client: run `npm run build` first.');
    return 1;
  }
  if (!existsSync(CHROME_PATH)) {
    console.error(`No Chromium at ${CHROME_PATH}: install Debian's chromium or set CHROME_PATH.`);
    return 1;
  }

  const server = await startServer();
  let chrome: LaunchedChrome | undefined;
  const results: PageResult[] = [];
  try {
    chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
    mkdirSync(REPORT_DIR, { recursive: true });
    for (const path of AUDITED_PAGES) {
      console.log(`Lighthouse: ${path}`);
      // Lighthouse's default configuration is the mobile form factor with simulated throttling (a mid-range phone
      // on a slow 4G connection); both are stated so that a change of default does not change the budget's meaning.
      const run = await lighthouse(`${server.url}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        formFactor: 'mobile',
        throttlingMethod: 'simulate',
      });
      if (!run) throw new Error(`Lighthouse returned no result for ${path}`);
      const { lhr } = run;
      if (lhr.runtimeError)
        throw new Error(`Lighthouse could not audit ${path}: ${lhr.runtimeError.message}`);
      const name = path === '/' ? 'home' : path.slice(1).replace(/\//g, '_');
      writeFileSync(join(REPORT_DIR, `${name}.json`), JSON.stringify(lhr));
      results.push(pageResult(path, lhr));
    }
  } finally {
    chrome?.kill();
    await server.stop();
  }

  console.log(`\n${table(results)}\n`);
  console.log(`Full reports: ${REPORT_DIR}`);
  const gatingFailures = results.flatMap((r) =>
    GATING.filter((category) => r.scores[category] < BUDGETS[category]).map(
      (category) => `${r.path}: ${category} ${r.scores[category]} < ${BUDGETS[category]}`,
    ),
  );
  const performanceFailures = results.flatMap((r) => [
    ...(r.scores.performance < BUDGETS.performance
      ? [`${r.path}: performance ${r.scores.performance} < ${BUDGETS.performance}`]
      : []),
    ...(r.lcp > BUDGETS.lcp ? [`${r.path}: LCP ${Math.round(r.lcp)} ms > ${BUDGETS.lcp} ms`] : []),
    ...(r.tbt > BUDGETS.tbt ? [`${r.path}: TBT ${Math.round(r.tbt)} ms > ${BUDGETS.tbt} ms`] : []),
    ...(r.cls > BUDGETS.cls ? [`${r.path}: CLS ${r.cls.toFixed(3)} > ${BUDGETS.cls}`] : []),
  ]);
  for (const r of results) for (const audit of r.failing) console.log(`${r.path}  ${audit}`);
  if (gatingFailures.length) console.error(`\nUnder budget:\n  ${gatingFailures.join('\n  ')}`);
  if (performanceFailures.length)
    console[strictPerformance ? 'error' : 'log'](
      `\nPerformance under budget${strictPerformance ? '' : ' (reported; pass --strict-performance to fail on it)'}:\n  ` +
        performanceFailures.join('\n  '),
    );
  const failed = gatingFailures.length > 0 || (strictPerformance && performanceFailures.length > 0);
  console.log(failed ? '\nAudit failed.' : '\nAudit passed.');
  return failed ? 1 : 0;
}

process.exitCode = await main();

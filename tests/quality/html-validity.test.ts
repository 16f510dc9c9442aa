// HTML validity gate: the Nu Html Checker (npm vnu-jar, on the machine's Java) on every prerendered page of the build,
// the not-found page included. Zero errors. One checker run for all files (Java starts once), one test per file.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_END } from '../../renderer/head.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT_DIR = join(ROOT, 'dist', 'client');
const VNU_JAR = join(ROOT, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');
const JAVA = process.env.JAVA ?? 'java';

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  message: string;
  extract?: string;
  firstLine?: number;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
}

/** Every .html file of the build, relative to it, with forward slashes; build internals (dot-folders) left out. */
function builtPages(): string[] {
  if (!existsSync(join(CLIENT_DIR, 'index.html')))
    throw new Error('No built site: run `npm run build` first.');
  return readdirSync(CLIENT_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html') && !file.split(sep).some((part) => part.startsWith('.')))
    .map((file) => file.split(sep).join('/'))
    .sort();
}

const pages = builtPages();
const messagesByPage = new Map<string, VnuMessage[]>();

/**
 * Valid markup and CSS the checker does not know yet, each matched narrowly and let through; any other message still
 * fails the gate. The checker also reads the CSS inlined in each page, hence the messages about Mantine's stylesheet.
 */
const WHAT_THE_CHECKER_DOES_NOT_KNOW: { message: RegExp; extract?: RegExp }[] = [
  // CSS Inline Layout 3 (text-box), which Mantine's buttons and badges use to trim text to its cap height.
  { message: /^CSS: “text-box-(trim|edge)”: Property “text-box-(trim|edge)” doesn't exist\.$/ },
  // CSS scroll-driven animations, which reveal the floating widget at its scroll threshold without JavaScript.
  { message: /^CSS: “animation-(timeline|range)”: Property “animation-(timeline|range)” doesn't exist\.$/ },
  // Mantine's Loader writes a unitless 0 delay: a browser that drops the declaration uses the initial value, 0s, so
  // it changes nothing.
  { message: /^CSS: “animation-delay”: “0” is not a “animation-delay” value\.$/ },
  // HTML allows `blocking` on a link whose rel is stylesheet or expect; the checker knows only stylesheet. Ours is
  // the render-blocking <link rel="expect"> of renderer/head.ts.
  {
    message:
      /^A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”\.$/,
    extract: new RegExp(`<link rel="expect" href="#${FIRST_SCREEN_END}" blocking="render"/>`),
  },
];
const isKnownGap = (message: VnuMessage) =>
  WHAT_THE_CHECKER_DOES_NOT_KNOW.some(
    (gap) => gap.message.test(message.message) && (!gap.extract || gap.extract.test(message.extract ?? '')),
  );

/** `line:column  message  «extract»`: where the error is, what it is, and the markup around it. */
const describeMessage = (message: VnuMessage): string =>
  `${message.lastLine ?? '?'}:${message.firstColumn ?? message.lastColumn ?? '?'}  ${message.message}` +
  (message.extract ? `  «${message.extract.replace(/\s+/g, ' ').slice(0, 160)}»` : '');

beforeAll(async () => {
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(
      JAVA,
      [
        '-jar',
        VNU_JAR,
        '--errors-only',
        '--stdout',
        '--format',
        'json',
        ...pages.map((page) => join(CLIENT_DIR, page)),
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    ));
  } catch (error) {
    // The checker exits 1 when it found errors; its report is still on stdout.
    const report = (error as { stdout?: unknown }).stdout;
    if (typeof report !== 'string' || !report.startsWith('{')) throw error;
    stdout = report;
  }
  const { messages } = JSON.parse(stdout) as { messages: VnuMessage[] };
  for (const message of messages.filter((m) => !isKnownGap(m))) {
    const page = message.url
      ? relative(CLIENT_DIR, fileURLToPath(message.url)).split(sep).join('/')
      : '(none)';
    messagesByPage.set(page, [...(messagesByPage.get(page) ?? []), message]);
  }
}, 120_000);

describe('the Nu Html Checker', () => {
  it('checked every page of the build', () => {
    expect(pages).toContain('index.html');
    expect(pages).toContain('404.html');
    // A message about no page at all (a checker failure) would otherwise pass unnoticed.
    expect(messagesByPage.get('(none)')?.map(describeMessage) ?? []).toEqual([]);
  });

  it.each(pages)('%s has no errors', (page) => {
    expect((messagesByPage.get(page) ?? []).map(describeMessage)).toEqual([]);
  });
});

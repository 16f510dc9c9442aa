// HTML validity gate: the Nu Html Checker (npm vnu-jar, on the machine's Java) on every prerendered page of the build,
// the not-found page included. Zero errors. One checker run for all files (Java starts once), one test per file.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

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
 * The checker also reads the CSS inlined in each page. Two known messages about Mantine's stylesheet are let through;
 * any other CSS error still fails the gate.
 */
const CSS_THE_CHECKER_DOES_NOT_KNOW = [
  // Valid CSS the checker's CSS validator does not know yet: CSS Inline Layout 3 (text-box), which Mantine's buttons
  // and badges use to trim text to its cap height.
  /^CSS: “text-box-(trim|edge)”: Property “text-box-(trim|edge)” doesn't exist\.$/,
  // Mantine's Loader writes a unitless 0 delay: a browser that drops the declaration uses the initial value, 0s, so
  // it changes nothing.
  /^CSS: “animation-delay”: “0” is not a “animation-delay” value\.$/,
];
const isKnownCssGap = (message: VnuMessage) =>
  CSS_THE_CHECKER_DOES_NOT_KNOW.some((pattern) => pattern.test(message.message));

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
  for (const message of messages.filter((m) => !isKnownCssGap(m))) {
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

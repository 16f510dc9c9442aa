// One Lighthouse run of the audit (scripts/audit.ts), tried again when Lighthouse asks for it.
import lighthouse, { type Result } from 'lighthouse';

/** The Lighthouse categories the audit reads. */
export type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';

/**
 * Tries of one run. Now and then the trace of a load comes back without its navigation start, and Lighthouse answers
 * with a runtime error that asks to be run again: on 2026-11-25 (Chromium 156), about one run in twenty of a page sent
 * with Cross-Origin-Opener-Policy, whose arrival swaps the renderer process, and none of the others. A run without
 * figures is tried again, never one with figures; a page that fails every try is a real failure.
 */
const TRIES = 3;

/**
 * Lighthouse's report on `url`. Its default configuration is the mobile form factor with simulated throttling (a
 * mid-range phone on a slow 4G connection); both are stated so that a change of default does not change the budget's
 * meaning. (Applied throttling: scripts/lib/applied-lcp.ts.)
 */
export async function audit(url: string, port: number, categories: readonly Category[]): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    const run = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
      formFactor: 'mobile',
      throttlingMethod: 'simulate',
    });
    if (!run) throw new Error(`Lighthouse returned no result for ${url}`);
    const error = run.lhr.runtimeError;
    if (!error) return run.lhr;
    if (attempt === TRIES)
      throw new Error(`Lighthouse could not audit ${url} in ${TRIES} tries: ${error.message}`);
    console.log(`  ${url}: ${error.code}, running it again (Lighthouse's advice for this error)`);
  }
}

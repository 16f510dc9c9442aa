// Site-wide link rules: every internal link leads to a page or a redirect, every #anchor exists on its target,
// redirects point at real pages without chains or loops, the program catalogue lists real pages, and what a
// related-programs block prefers or picks is in the catalogue.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pagePath } from '../../core/page-paths.ts';
import { isObject, pointerOf } from '../json-pointer.ts';
import type { ContentPaths } from '../paths.ts';
import { suggest, unknownNameProblem } from './messages.ts';
import type { Problem, ProblemCode } from './problems.ts';

/** Ids the shell renders on every page, besides the blocks' own. */
export const SHELL_ANCHORS = ['main'];

export type SiteIndex = {
  /** Page path to the anchors (block ids and aliases) on it. */
  pages: Map<string, Set<string>>;
  /** Redirect source path to its target (path with optional #anchor). */
  redirects: Map<string, string>;
  /** Paths listed in the program catalogue. */
  programs: Set<string>;
};

const problem = (code: ProblemCode, pointer: string, message: string): Problem => ({
  code,
  pointer,
  message,
  at: 'value',
});
const readJsonOr = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** The anchors a page document defines: its blocks' ids and aliases. */
export function pageAnchors(page: unknown): Set<string> {
  const anchors = new Set(SHELL_ANCHORS);
  const blocks = isObject(page) && Array.isArray(page.blocks) ? page.blocks : [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (typeof block.id === 'string') anchors.add(block.id);
    if (Array.isArray(block.aliases))
      for (const alias of block.aliases) if (typeof alias === 'string') anchors.add(alias);
  }
  return anchors;
}

const pageFiles = (pagesDir: string) =>
  existsSync(pagesDir)
    ? readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.json'))
        .map((f) => join(pagesDir, f))
    : [];

/**
 * Reads every page, the redirects and the catalogue once. Unreadable documents count as empty (their own errors say
 * why). `read`, when given, is every page document already parsed (absolute path and value), so a run parses each once.
 */
export function siteIndex(paths: ContentPaths, read?: readonly { file: string; data: unknown }[]): SiteIndex {
  const documents = read ?? pageFiles(paths.pagesDir).map((file) => ({ file, data: readJsonOr(file) }));
  const pages = new Map<string, Set<string>>();
  for (const { file, data } of documents)
    pages.set(pagePath(relative(paths.root, file).split(sep).join('/')), pageAnchors(data));
  const redirects = new Map<string, string>();
  const table = readJsonOr(paths.redirectsFile);
  if (isObject(table) && Array.isArray(table.redirects))
    for (const rule of table.redirects)
      if (isObject(rule) && typeof rule.to === 'string' && Array.isArray(rule.from))
        for (const from of rule.from) if (typeof from === 'string') redirects.set(from, rule.to);
  const programs = new Set<string>();
  const catalogue = readJsonOr(paths.programsFile);
  if (isObject(catalogue) && Array.isArray(catalogue.programs))
    for (const program of catalogue.programs)
      if (isObject(program) && typeof program.path === 'string') programs.add(program.path);
  return { pages, redirects, programs };
}

const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;
const LINK_KEYS = new Set(['href', 'path']);

/** Every internal link in a document, with the pointer of the string that holds it. */
function internalLinks(root: unknown): { pointer: string; href: string }[] {
  const found: { pointer: string; href: string }[] = [];
  // The path is kept as parts and joined only for a link found: most strings hold none.
  const walk = (value: unknown, path: (string | number)[], key: string) => {
    if (typeof value === 'string') {
      if (LINK_KEYS.has(key)) {
        if (value.startsWith('/')) found.push({ pointer: pointerOf(path), href: value });
      } else if (value.includes('](/'))
        for (const match of value.matchAll(MARKDOWN_LINK))
          if (match[1]?.startsWith('/')) found.push({ pointer: pointerOf(path), href: match[1] });
      return;
    }
    // Plain loops: this visits every value of every document, and entries() would allocate a pair for each.
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i], path, key);
        path.pop();
      }
    } else if (isObject(value))
      for (const k in value) {
        path.push(k);
        walk(value[k], path, k);
        path.pop();
      }
  };
  walk(root, [], '');
  return found;
}

/** Where a link lands: a page path and anchor, following one redirect; undefined when nothing serves it. */
function landing(href: string, index: SiteIndex): { page: string; anchor?: string } | undefined {
  const [path = '', anchor] = href.split('#');
  if (index.pages.has(path)) return { page: path, anchor };
  const target = index.redirects.get(path);
  if (target === undefined) return undefined;
  const [targetPath = '', targetAnchor] = target.split('#');
  return index.pages.has(targetPath) ? { page: targetPath, anchor: anchor ?? targetAnchor } : undefined;
}

/** The fix that points a link at `to` instead of `from`, where the string holding it stands. */
const relink = (pointer: string, from: string, to: string | undefined) =>
  to === undefined ? {} : { suggestion: to, fix: { kind: 'replace-link' as const, pointer, from, to } };

/**
 * Links in any document that lead nowhere, or to an anchor their target does not have; each with the closest page,
 * redirect or anchor as its fix, when one is close.
 */
export function linkProblems(data: unknown, index: SiteIndex): Problem[] {
  const problems: Problem[] = [];
  for (const { pointer, href } of internalLinks(data)) {
    const [path = '', anchor] = href.split('#');
    const lands = landing(href, index);
    if (!lands) {
      const meant = suggest(path, [...index.pages.keys(), ...index.redirects.keys()]);
      problems.push({
        ...problem(
          'broken-link',
          pointer,
          `link "${href}" leads nowhere: ${path} is neither a page under pages/ nor a redirect`,
        ),
        ...relink(pointer, href, meant === undefined || anchor === undefined ? meant : `${meant}#${anchor}`),
      });
      continue;
    }
    if (lands.anchor !== undefined && !index.pages.get(lands.page)?.has(lands.anchor)) {
      const meant = suggest(lands.anchor, [...(index.pages.get(lands.page) ?? [])]);
      problems.push({
        ...problem(
          'missing-anchor',
          pointer,
          `link "${href}": the page ${lands.page} has no section with id "${lands.anchor}"`,
        ),
        ...relink(pointer, href, meant === undefined ? undefined : `${path}#${meant}`),
      });
    }
  }
  return problems;
}

const CATALOGUE = 'site/programs.json';

/** Why `path` cannot be a related program: undefined when the catalogue lists it. */
function notInCatalogue(path: string, pointer: string, index: SiteIndex): Problem | undefined {
  if (index.programs.has(path)) return undefined;
  if (index.pages.has(path))
    return problem(
      'program-not-in-catalogue',
      pointer,
      `"${path}" is a page but not in the program catalogue (${CATALOGUE}): add it there, with its card's title and description, to show it here`,
    );
  return unknownNameProblem(
    'unknown-program',
    pointer,
    'unknown program',
    path,
    [...index.programs],
    `programs in ${CATALOGUE}`,
  );
}

/**
 * A related-programs block's own links: what it prefers and picks is in the catalogue (the cards' titles and
 * descriptions come from there), a pick is never the page itself, and picks leave no room for preferences.
 */
export function relatedProgramsProblems(
  block: Record<string, unknown>,
  base: string,
  index: SiteIndex,
  currentPath?: string,
): Problem[] {
  const problems: Problem[] = [];
  for (const key of ['prefer', 'picks'] as const) {
    const list = block[key];
    if (!Array.isArray(list)) continue;
    list.forEach((path, k) => {
      if (typeof path !== 'string') return;
      const pointer = `${base}/${key}/${k}`;
      const reason =
        key === 'picks' && path === currentPath
          ? problem('pick-is-this-page', pointer, `"${path}" is this page; pick other programs`)
          : notInCatalogue(path, pointer, index);
      if (reason) problems.push(reason);
    });
  }
  if (Array.isArray(block.picks) && block.prefer !== undefined)
    problems.push(
      problem(
        'prefer-with-picks',
        `${base}/prefer`,
        'prefer does nothing when picks are given: the picks are shown as they are; remove prefer',
      ),
    );
  return problems;
}

/** The redirect table's own rules: sources are not pages and appear once; targets are pages (no chains, no loops). */
export function redirectProblems(data: unknown, index: SiteIndex): Problem[] {
  const problems: Problem[] = [];
  if (!isObject(data) || !Array.isArray(data.redirects)) return problems;
  const seen = new Map<string, string>();
  data.redirects.forEach((rule, i) => {
    if (!isObject(rule) || !Array.isArray(rule.from)) return;
    rule.from.forEach((from, k) => {
      if (typeof from !== 'string') return;
      const pointer = `/redirects/${i}/from/${k}`;
      if (index.pages.has(from))
        problems.push(
          problem(
            'redirect-hides-page',
            pointer,
            `"${from}" is a page (pages${from}.json); a redirect would hide it`,
          ),
        );
      const first = seen.get(from);
      if (first)
        problems.push(problem('duplicate-redirect', pointer, `"${from}" is already redirected at ${first}`));
      else seen.set(from, pointer);
    });
    if (typeof rule.to !== 'string') return;
    const [path = '', anchor] = rule.to.split('#');
    const pointer = `/redirects/${i}/to`;
    if (index.redirects.has(path)) {
      const next = index.redirects.get(path);
      const loops = rule.from.includes(next?.split('#')[0]);
      problems.push(
        loops
          ? problem('redirect-loop', pointer, `redirect loop: "${rule.to}" redirects back to "${next}"`)
          : problem(
              'redirect-chain',
              pointer,
              `redirect chain: "${rule.to}" itself redirects to "${next}"; point straight at the final page`,
            ),
      );
    } else if (!index.pages.has(path))
      problems.push(
        problem('redirect-target-not-a-page', pointer, `"${rule.to}" is not a page under pages/`),
      );
    else if (anchor !== undefined && !index.pages.get(path)?.has(anchor))
      problems.push(
        problem(
          'redirect-target-missing-anchor',
          pointer,
          `the page ${path} has no section with id "${anchor}"`,
        ),
      );
  });
  return problems;
}

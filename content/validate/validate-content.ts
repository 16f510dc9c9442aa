// Content errors are compile errors: every problem in a page, site or form document becomes one line with
// file, line and column, JSON pointer, block type and a plain message, with a suggestion where one helps.
// Node-only: used by `npm run validate`, the build and the dev server's overlay. The checks live beside this
// file, one concern each; this one runs them in order and places every problem in the source.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseWithPointers } from 'json-source-map';
import {
  BLOCKS_SCHEMA_FILE,
  FORMS_DIR,
  PAGES_DIR,
  PROGRAMS_FILE,
  REDIRECTS_FILE,
  SITE_FILE,
  SCHEMA_FILES,
  blockSchemaFile,
  blockTypes,
  contentAjv,
  documentValidators,
  schemaId,
  type DocumentKind,
} from '../../../core/content-schemas.ts';
import { pagePath } from '../../../core/page-paths.ts';
import { blockCrossProblems, documentProblems, repoPath } from './document-rules.ts';
import { isObject, within, type Problem } from './json-pointer.ts';
import { emergencyNumberProblems } from './emergency-numbers.ts';
import { duplicateKeys, lineColumn, offsetOf, syntaxProblem } from './json-positions.ts';
import { pageAnchors, siteIndex, type SiteIndex } from './link-rules.ts';
import { schemaProblems } from './schema-problems.ts';

export type ContentKind = DocumentKind;

export type ContentError = {
  /** Repo-relative, with forward slashes. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based, in characters (a tab is one column). */
  column: number;
  /** JSON pointer of the value at fault ('' is the whole document). */
  pointer: string;
  /** The `type` of the enclosing /blocks/N element, when it is a known block type. */
  blockType?: string;
  message: string;
  severity: 'error';
};

/** A problem in one block, with its pointer relative to the block (for the block conformance suite). */
export type BlockProblem = Pick<ContentError, 'pointer' | 'blockType' | 'message' | 'severity'>;

const BLOCK_POINTER = /^\/blocks\/(\d+)(?=\/|$)/;

/** Which schema a content file follows, from where it lives. */
export function kindOf(file: string): ContentKind | undefined {
  const rel = repoPath(file);
  if (rel.startsWith('pages/') && rel.endsWith('.json')) return 'page';
  if (rel === 'site/site.json') return 'site';
  if (/^site\/forms\/[^/]+\.json$/.test(rel)) return 'form';
  if (rel === 'site/programs.json') return 'programs';
  if (rel === 'site/redirects.json') return 'redirects';
  return undefined;
}

function blockTypeAt(kind: ContentKind, data: unknown, pointer: string): string | undefined {
  const match = kind === 'page' ? BLOCK_POINTER.exec(pointer) : null;
  if (!match || !isObject(data) || !Array.isArray(data.blocks)) return undefined;
  const block: unknown = data.blocks[Number(match[1])];
  return isObject(block) && typeof block.type === 'string' && blockTypes().includes(block.type)
    ? block.type
    : undefined;
}

/**
 * Every problem of one content document, given its absolute path and text. Links are checked against `index`
 * (every page's anchors, the redirects, the catalogue); by default it is read from disk, with this document's own
 * anchors taken from `text`, which may not be saved yet.
 */
export function validateDocumentText(
  file: string,
  text: string,
  kind?: ContentKind,
  index?: SiteIndex,
): ContentError[] {
  return validateDocument(contentDocument(file, text), kind, index);
}

/** A content document as read: its text without a byte-order mark and, when that is valid JSON, its value. */
export type ContentDocument = { file: string; source: string; data: unknown };

// The native parser is several times faster; the position-keeping parser runs only when there is an error to place.
function contentDocument(file: string, text: string): ContentDocument {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { file, source, data: JSON.parse(source) };
  } catch {
    return { file, source, data: undefined }; // JSON.parse never gives undefined: it marks a syntax error.
  }
}

/** Every content document, read and parsed once: a run's validation and SEO lint share them. */
export function readContent(): ContentDocument[] {
  return contentDocuments().map((file) => contentDocument(file, readFileSync(file, 'utf8')));
}

function validateDocument(
  { file, source, data }: ContentDocument,
  kind?: ContentKind,
  index?: SiteIndex,
): ContentError[] {
  const rel = repoPath(file);
  const docKind = kind ?? kindOf(file);
  // Indexing the lines costs a pass over the text: done only for a document that has an error to place.
  let place: ReturnType<typeof lineColumn> | undefined;
  const error = (pos: number, pointer: string, message: string, blockType?: string): ContentError => ({
    file: rel,
    ...(place ??= lineColumn(source))(pos),
    pointer,
    ...(blockType ? { blockType } : {}),
    message,
    severity: 'error',
  });
  if (!docKind)
    return [
      error(
        0,
        '',
        'not a content document: pages/**/*.json, site/site.json, site/programs.json, site/redirects.json and site/forms/*.json are',
      ),
    ];

  if (data === undefined)
    try {
      parseWithPointers(source);
    } catch (err) {
      const { pos, message } = syntaxProblem(source, err);
      return [error(pos, '', message)];
    }
  const rootUrl = `${schemaId(SCHEMA_FILES[docKind])}#`;
  const validate = documentValidators()[docKind];

  let links = index;
  if (!links) {
    links = siteIndex();
    if (docKind === 'page') links.pages.set(pagePath(rel), pageAnchors(data));
  }
  const problems = [
    ...schemaProblems(validate, data, rootUrl),
    ...documentProblems(file, docKind, data, links),
  ];
  const pointers = problems.length > 0 ? parseWithPointers(source).pointers : {};
  const errors = problems.map((pr) =>
    error(offsetOf(pointers, pr), pr.pointer, pr.message, blockTypeAt(docKind, data, pr.pointer)),
  );
  for (const dup of duplicateKeys(source))
    errors.push(
      error(
        dup.pos,
        dup.pointer,
        `property "${dup.key}" appears twice; only the last one counts`,
        blockTypeAt(docKind, data, dup.pointer),
      ),
    );
  return errors.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Problems of a single block, pointers relative to the block: what the block conformance suite checks. */
export function validateBlock(block: unknown): BlockProblem[] {
  const type =
    isObject(block) && typeof block.type === 'string' && blockTypes().includes(block.type)
      ? block.type
      : undefined;
  let problems: Problem[];
  if (type) {
    const url = `${schemaId(blockSchemaFile(type))}#`;
    const validate = contentAjv().getSchema(url.slice(0, -1));
    if (!validate) throw new Error(`schema of block ${type} is not registered`);
    problems = [...schemaProblems(validate, block, url), ...emergencyNumberProblems(block, url)];
  } else {
    // An unknown or missing type: check it as the only element of a page's block list, as a page would.
    const url = `${schemaId(BLOCKS_SCHEMA_FILE)}#`;
    const validate = contentAjv().getSchema(url.slice(0, -1));
    if (!validate) throw new Error('the block union schema is not registered');
    problems = schemaProblems(validate, [block], url)
      .filter((pr) => within(pr.pointer, '/0'))
      .map((pr) => ({ ...pr, pointer: pr.pointer.slice(2) }));
  }
  problems.push(...blockCrossProblems(block, '', siteIndex));
  return problems.map((pr) => ({
    pointer: pr.pointer,
    ...(type ? { blockType: type } : {}),
    message: pr.message,
    severity: 'error',
  }));
}

function jsonFilesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.json'))
    .map((d) => join(d.parentPath, d.name))
    .sort();
}

/** Every content document: the pages, the site document and the form definitions. */
export function contentDocuments(): string[] {
  return [
    ...jsonFilesUnder(PAGES_DIR),
    ...[SITE_FILE, PROGRAMS_FILE, REDIRECTS_FILE].filter((file) => existsSync(file)),
    ...jsonFilesUnder(FORMS_DIR),
  ];
}

const missing = (file: string, message: string): ContentError => ({
  file,
  line: 1,
  column: 1,
  pointer: '',
  message,
  severity: 'error',
});

/** Every problem in every content document, plus what the set of documents lacks as a whole. */
export function validateAll(documents: readonly ContentDocument[] = readContent()): ContentError[] {
  const errors: ContentError[] = [];
  if (!existsSync(SITE_FILE)) errors.push(missing('site/site.json', 'the site document is missing'));
  if (!existsSync(join(PAGES_DIR, 'index.json')))
    errors.push(
      missing(
        'pages/index.json',
        'the home page is missing: every page links to /, which is pages/index.json',
      ),
    );
  for (const [file, what] of [
    [PROGRAMS_FILE, 'the program catalogue'],
    [REDIRECTS_FILE, 'the redirect table'],
  ] as const)
    if (!existsSync(file)) errors.push(missing(repoPath(file), `${what} is missing`));
  const routes = new Map<string, string>();
  const index = siteIndex(documents.filter((document) => kindOf(document.file) === 'page'));
  for (const document of documents) {
    errors.push(...validateDocument(document, undefined, index));
    const { file } = document;
    if (kindOf(file) !== 'page') continue;
    const rel = repoPath(file);
    const route = pagePath(rel);
    const other = routes.get(route);
    if (other) errors.push(missing(rel, `serves the same URL ${route} as ${other}; remove one of them`));
    else routes.set(route, rel);
  }
  return errors;
}

/** One line: `file:line:col  pointer (type)  message`. */
export function formatContentError(e: ContentError): string {
  return `${e.file}:${e.line}:${e.column}  ${e.pointer || '(root)'}${e.blockType ? ` (${e.blockType})` : ''}  ${e.message}`;
}

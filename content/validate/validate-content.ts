// Content errors are compile errors: every problem in a page, site or form document becomes one value with
// file, line and column, JSON pointer, block type, a stable code and a plain message, with a suggestion and a fix
// where one helps. The content root is a parameter (`contentPaths(root)`): the command lines pass the checkout.
// Node-only: used by `npm run validate`, the build, the dev server's overlay and the studio. The checks live beside
// this file, one concern each; this one runs them in order and places every problem in the source.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseWithPointers } from 'json-source-map';
import { pagePath } from '../../core/page-paths.ts';
import { isObject, within } from '../json-pointer.ts';
import { kindOf as kindOfPath, type DocumentKind } from '../kinds.ts';
import { contentPaths, type ContentPaths } from '../paths.ts';
import {
  BLOCKS_SCHEMA_FILE,
  SCHEMA_FILES,
  blockSchemaFile,
  blockTypes,
  contentAjv,
  documentValidators,
  schemaId,
} from '../schemas.ts';
import { blockCrossProblems, contentPath, documentProblems } from './document-rules.ts';
import { emergencyNumberProblems } from './emergency-numbers.ts';
import { duplicateKeys, lineColumn, offsetOf, syntaxProblem } from './json-positions.ts';
import { pageAnchors, siteIndex, type SiteIndex } from './link-rules.ts';
import type { ContentProblem, Problem, ProblemCode } from './problems.ts';
import { schemaProblems } from './schema-problems.ts';

export type { ContentProblem } from './problems.ts';

/** A problem in one block, with its pointer relative to the block (for the block conformance suite). */
export type BlockProblem = Omit<ContentProblem, 'file' | 'line' | 'column'>;

const BLOCK_POINTER = /^\/blocks\/(\d+)(?=\/|$)/;

/** Which schema a content file follows, from where it lives under the content root. */
export const kindOf = (paths: ContentPaths, file: string) => kindOfPath(contentPath(paths, file));

function blockTypeAt(kind: DocumentKind, data: unknown, pointer: string): string | undefined {
  const match = kind === 'page' ? BLOCK_POINTER.exec(pointer) : null;
  if (!match || !isObject(data) || !Array.isArray(data.blocks)) return undefined;
  const block: unknown = data.blocks[Number(match[1])];
  return isObject(block) && typeof block.type === 'string' && blockTypes().includes(block.type)
    ? block.type
    : undefined;
}

/**
 * Every problem of one content document under `paths.root`, given its absolute path and text. Links are checked
 * against `index` (every page's anchors, the redirects, the catalogue); by default it is read from disk, with this
 * document's own anchors taken from `text`, which may not be saved yet.
 */
export function validateDocumentText(
  paths: ContentPaths,
  file: string,
  text: string,
  index?: SiteIndex,
): ContentProblem[] {
  return validateDocument(paths, contentDocument(file, text), index);
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
export function readContent(paths: ContentPaths): ContentDocument[] {
  return contentDocuments(paths).map((file) => contentDocument(file, readFileSync(file, 'utf8')));
}

/** A problem placed in the source: the place first, then what the problem is. */
function placed(
  file: string,
  at: { line: number; column: number },
  { code, pointer, message, suggestion, fix }: Omit<Problem, 'at'>,
  block: string | undefined,
): ContentProblem {
  return {
    code,
    file,
    pointer,
    ...at,
    ...(block ? { block } : {}),
    message,
    ...(suggestion === undefined ? {} : { suggestion }),
    ...(fix === undefined ? {} : { fix }),
  };
}

function validateDocument(
  paths: ContentPaths,
  { file, source, data }: ContentDocument,
  index?: SiteIndex,
): ContentProblem[] {
  const rel = contentPath(paths, file);
  const docKind = kindOfPath(rel);
  // Indexing the lines costs a pass over the text: done only for a document that has an error to place.
  let place: ReturnType<typeof lineColumn> | undefined;
  const error = (pos: number, problem: Omit<Problem, 'at'>, block?: string): ContentProblem =>
    placed(rel, (place ??= lineColumn(source))(pos), problem, block);
  if (!docKind)
    return [
      error(0, {
        code: 'not-a-content-document',
        pointer: '',
        message:
          'not a content document: pages/**/*.json, site/site.json, site/programs.json, site/redirects.json and site/forms/*.json are',
      }),
    ];

  if (data === undefined)
    try {
      parseWithPointers(source);
    } catch (err) {
      const { pos, message } = syntaxProblem(source, err);
      return [error(pos, { code: 'invalid-json', pointer: '', message })];
    }
  const rootUrl = `${schemaId(SCHEMA_FILES[docKind])}#`;
  const validate = documentValidators()[docKind];

  let links = index;
  if (!links) {
    links = siteIndex(paths);
    if (docKind === 'page') links.pages.set(pagePath(rel), pageAnchors(data));
  }
  const problems = [
    ...schemaProblems(validate, data, rootUrl),
    ...documentProblems(paths, file, docKind, data, links),
  ];
  const pointers = problems.length > 0 ? parseWithPointers(source).pointers : {};
  const errors = problems.map((pr) =>
    error(offsetOf(pointers, pr), pr, blockTypeAt(docKind, data, pr.pointer)),
  );
  for (const dup of duplicateKeys(source))
    errors.push(
      error(
        dup.pos,
        {
          code: 'duplicate-property',
          pointer: dup.pointer,
          message: `property "${dup.key}" appears twice; only the last one counts`,
        },
        blockTypeAt(docKind, data, dup.pointer),
      ),
    );
  return errors.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Problems of a single block, pointers relative to the block: what the block conformance suite checks. The forms
 * and the catalogue it may name are those under `paths.root`.
 */
export function validateBlock(block: unknown, paths: ContentPaths): BlockProblem[] {
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
      .map((pr) => ({
        ...pr,
        pointer: pr.pointer.slice(2),
        ...(pr.fix ? { fix: { ...pr.fix, pointer: pr.fix.pointer.slice(2) } } : {}),
      }));
  }
  problems.push(...blockCrossProblems(paths, block, '', () => siteIndex(paths)));
  return problems.map(({ code, pointer, message, suggestion, fix }) => ({
    code,
    pointer,
    ...(type ? { block: type } : {}),
    message,
    ...(suggestion === undefined ? {} : { suggestion }),
    ...(fix === undefined ? {} : { fix }),
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
export function contentDocuments(paths: ContentPaths): string[] {
  return [
    ...jsonFilesUnder(paths.pagesDir),
    ...[paths.siteFile, paths.programsFile, paths.redirectsFile].filter((file) => existsSync(file)),
    ...jsonFilesUnder(paths.formsDir),
  ];
}

/** A problem of a file as a whole, placed at its start. */
export const fileProblem = (code: ProblemCode, file: string, message: string): ContentProblem => ({
  code,
  file,
  pointer: '',
  line: 1,
  column: 1,
  message,
});
const missing = (file: string, message: string) => fileProblem('missing-document', file, message);

/**
 * Every problem in every content document under `paths.root`, plus what the set of documents lacks as a whole.
 * `documents` are the documents already read (readContent), when they are.
 */
export function validateAll(
  paths: ContentPaths,
  documents: readonly ContentDocument[] = readContent(paths),
): ContentProblem[] {
  const errors: ContentProblem[] = [];
  if (!existsSync(paths.siteFile)) errors.push(missing('site/site.json', 'the site document is missing'));
  if (!existsSync(join(paths.pagesDir, 'index.json')))
    errors.push(
      missing(
        'pages/index.json',
        'the home page is missing: every page links to /, which is pages/index.json',
      ),
    );
  for (const [file, what] of [
    [paths.programsFile, 'the program catalogue'],
    [paths.redirectsFile, 'the redirect table'],
  ] as const)
    if (!existsSync(file)) errors.push(missing(contentPath(paths, file), `${what} is missing`));
  const routes = new Map<string, string>();
  const index = siteIndex(
    paths,
    documents.filter((document) => kindOf(paths, document.file) === 'page'),
  );
  for (const document of documents) {
    errors.push(...validateDocument(paths, document, index));
    const rel = contentPath(paths, document.file);
    if (kindOfPath(rel) !== 'page') continue;
    const route = pagePath(rel);
    const other = routes.get(route);
    if (other)
      errors.push(
        fileProblem('duplicate-route', rel, `serves the same URL ${route} as ${other}; remove one of them`),
      );
    else routes.set(route, rel);
  }
  return errors;
}

/**
 * Every problem of the content under `root`: of every document there, or only of `files` (absolute paths) when
 * given, each checked against the whole site as it is on disk.
 */
export function validateContent({
  root,
  files,
}: {
  root: string;
  files?: readonly string[];
}): ContentProblem[] {
  const paths = contentPaths(root);
  if (!files) return validateAll(paths);
  const index = siteIndex(paths);
  return files.flatMap((file) => validateDocumentText(paths, file, readFileSync(file, 'utf8'), index));
}

/** One line: `file:line:col  pointer (type)  message`. */
export function formatContentError(e: ContentProblem): string {
  return `${e.file}:${e.line}:${e.column}  ${e.pointer || '(root)'}${e.block ? ` (${e.block})` : ''}  ${e.message}`;
}

/** Every problem of the content at `paths`, the whole site read, as the build words each: what a build refuses. */
export const contentProblems = (paths: ContentPaths): string[] =>
  validateAll(paths, readContent(paths)).map((problem) => formatContentError(problem));

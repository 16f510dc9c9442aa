// Rules a schema cannot state: they look at other files (form ids, where the document lives) or compare values
// within a document (unique anchors and field names). The link rules have their own file.
import { existsSync, readdirSync } from 'node:fs';
import { basename, posix, relative, sep } from 'node:path';
import { pagePath } from '../../core/page-paths.ts';
import { isObject, parentOf } from '../json-pointer.ts';
import type { DocumentKind } from '../kinds.ts';
import type { ContentPaths } from '../paths.ts';
import { SCHEMA_FILES, schemaId } from '../schemas.ts';
import { emergencyNumberProblems } from './emergency-numbers.ts';
import { linkProblems, redirectProblems, relatedProgramsProblems, type SiteIndex } from './link-rules.ts';
import { unknownNameProblem } from './messages.ts';
import {
  formBlockPromiseProblems,
  formPromiseProblems,
  pageTextPromiseProblems,
  promiseTokenProblems,
} from './promise-rules.ts';
import type { Problem } from './problems.ts';

/** How errors name a file, and how the page rules read where a page lives: relative to the content root. */
export const contentPath = (paths: ContentPaths, file: string) =>
  relative(paths.root, file).split(sep).join('/');

/** Form ids: the file names under site/forms/. */
export function formIds(paths: ContentPaths): string[] {
  if (!existsSync(paths.formsDir)) return [];
  return readdirSync(paths.formsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/**
 * A block's rules that read other documents: its form exists; what a related-programs block names is in the
 * catalogue. `index` is called only for a block that needs it; `currentPath` is the page the block is on, when known.
 */
export function blockCrossProblems(
  paths: ContentPaths,
  block: unknown,
  base: string,
  index: () => SiteIndex,
  currentPath?: string,
): Problem[] {
  if (!isObject(block)) return [];
  if (block.type === 'related-programs') return relatedProgramsProblems(block, base, index(), currentPath);
  if (block.type !== 'form') return [];
  const ids = formIds(paths);
  const problems: Problem[] = formBlockPromiseProblems(paths, block, base);
  for (const key of ['formId', 'secondFormId'] as const) {
    const formId = block[key];
    if (typeof formId !== 'string' || ids.includes(formId)) continue;
    const pointer = `${base}/${key}`;
    problems.push(
      ids.length
        ? unknownNameProblem('unknown-form', pointer, 'unknown form', formId, ids, 'forms in site/forms/')
        : {
            code: 'unknown-form',
            pointer,
            message: `unknown form "${formId}": site/forms/ has no form definitions`,
            at: 'value',
          },
    );
  }
  return problems;
}

/** Each form once on a page, so its fields' ids (the form id and the field name) are the page's only ones. */
function repeatedFormProblems(blocks: unknown[]): Problem[] {
  const seen = new Map<string, string>();
  const problems: Problem[] = [];
  blocks.forEach((block, i) => {
    if (!isObject(block) || block.type !== 'form') return;
    for (const key of ['formId', 'secondFormId'] as const) {
      const formId = block[key];
      if (typeof formId !== 'string') continue;
      const pointer = `/blocks/${i}/${key}`;
      const first = seen.get(formId);
      if (first)
        problems.push({
          code: 'repeated-form',
          pointer,
          message: `form "${formId}" is already shown at ${first}; a page shows each form once`,
          at: 'value',
        });
      else seen.set(formId, pointer);
    }
  });
  return problems;
}

/** Every anchor (id and aliases) once per page, so /#contact lands in one place. */
function anchorProblems(blocks: unknown[]): Problem[] {
  const seen = new Map<string, string>();
  const problems: Problem[] = [];
  blocks.forEach((block, i) => {
    if (!isObject(block)) return;
    const anchors: [string, unknown][] = [[`/blocks/${i}/id`, block.id]];
    if (Array.isArray(block.aliases))
      block.aliases.forEach((a, k) => anchors.push([`/blocks/${i}/aliases/${k}`, a]));
    for (const [pointer, anchor] of anchors) {
      if (typeof anchor !== 'string') continue;
      const first = seen.get(anchor);
      if (first && parentOf(first) !== parentOf(pointer))
        problems.push({
          code: 'duplicate-anchor',
          pointer,
          message: `anchor "${anchor}" is already used at ${first}; ids and aliases must be unique on a page`,
          at: 'value',
        });
      else if (!first) seen.set(anchor, pointer);
    }
  });
  return problems;
}

// The path is written as if the schemas were in the content root's schemas/ folder, as they are in the checkout.
function schemaPathProblem(rel: string, kind: DocumentKind, data: unknown): Problem[] {
  if (!isObject(data) || typeof data.$schema !== 'string') return [];
  const expected = posix.relative(posix.dirname(rel), `schemas/${basename(SCHEMA_FILES[kind])}`);
  if (data.$schema === expected) return [];
  return [
    {
      code: 'wrong-schema-path',
      pointer: '/$schema',
      message: `must be "${expected}", the path from this file to the ${kind} schema, so editors can check it`,
      at: 'value',
    },
  ];
}

const SEGMENT = /^[a-z0-9][a-z0-9-]*$/;

export function documentProblems(
  paths: ContentPaths,
  file: string,
  kind: DocumentKind,
  data: unknown,
  index: SiteIndex,
): Problem[] {
  const rel = contentPath(paths, file);
  const problems = schemaPathProblem(rel, kind, data);
  problems.push(
    ...(kind === 'redirects'
      ? redirectProblems(data, index)
      : kind === 'form'
        ? []
        : linkProblems(data, index)),
  );
  if (kind === 'page' || kind === 'site' || kind === 'form')
    problems.push(...emergencyNumberProblems(data, `${schemaId(SCHEMA_FILES[kind])}#`, kind));
  if (kind === 'page' || kind === 'site')
    problems.push(...promiseTokenProblems(data, `${schemaId(SCHEMA_FILES[kind])}#`, formIds(paths)));
  if (kind === 'page') {
    const segments = rel.startsWith('pages/') ? rel.slice('pages/'.length, -'.json'.length).split('/') : [];
    const bad = segments.find((s) => !SEGMENT.test(s));
    if (bad !== undefined)
      problems.push({
        code: 'invalid-page-file-name',
        pointer: '',
        message: `"${bad}" cannot be part of a URL: name page files and folders with lower-case letters, digits and hyphens`,
        at: 'value',
      });
    const blocks = isObject(data) && Array.isArray(data.blocks) ? data.blocks : [];
    const path = rel.startsWith('pages/') ? pagePath(rel) : undefined;
    blocks.forEach((block, i) =>
      problems.push(...blockCrossProblems(paths, block, `/blocks/${i}`, () => index, path)),
    );
    problems.push(
      ...anchorProblems(blocks),
      ...repeatedFormProblems(blocks),
      ...pageTextPromiseProblems(paths, blocks),
    );
  }
  if (kind === 'site' && isObject(data) && isObject(data.widget)) {
    const ids = formIds(paths);
    for (const key of ['insuranceFormId', 'consultationFormId'] as const) {
      const formId = data.widget[key];
      if (typeof formId === 'string' && !ids.includes(formId))
        problems.push(
          unknownNameProblem(
            'unknown-form',
            `/widget/${key}`,
            'unknown form',
            formId,
            ids,
            'forms in site/forms/',
          ),
        );
    }
  }
  if (kind === 'form') problems.push(...formPromiseProblems(data));
  if (kind === 'form' && isObject(data) && Array.isArray(data.fields)) {
    const seen = new Set<string>();
    data.fields.forEach((field, i) => {
      if (!isObject(field) || typeof field.name !== 'string') return;
      if (seen.has(field.name))
        problems.push({
          code: 'duplicate-field-name',
          pointer: `/fields/${i}/name`,
          message: `field name "${field.name}" is used twice`,
          at: 'value',
        });
      seen.add(field.name);
    });
  }
  return problems;
}

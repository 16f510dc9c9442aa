// The content a change set works on: the live release's documents (server/releases/), each with a version the client
// sends back unread, and the set's documents laid over them. Checked with the build's own validator
// (content/validate/) on a temporary content root holding the whole site, so links and forms are checked as a build
// would check them.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { kindOf } from '../../content/kinds.ts';
import { contentPaths } from '../../content/paths.ts';
import { contentProblems, validateDocumentText } from '../../content/validate/validate-content.ts';
import type { ProblemCode } from '../../content/validate/problems.ts';
import { withContentRoot } from '../releases/documents.ts';
import type { ChangeDocument } from '../store/contract/change-store.ts';
import type { ReleaseDocument, ReleaseStore } from '../store/contract/release-store.ts';

/** A document path a change set may hold: a content document of pages/ or site/, no climbing out. */
export const isDocumentPath = (path: string): boolean =>
  /^(pages|site)\/[\w./-]+\.json$/.test(path) &&
  !path.split('/').includes('..') &&
  kindOf(path) !== undefined;

/** The version of the set's copy of a document; opaque to clients. */
export const copyVersion = (version: number): string => `c${version}`;
/** The version of a live document (by its text, so a publish that did not touch it does not move it); opaque. */
export const liveVersion = (text: string | null): string =>
  text === null ? 'live.none' : `live.${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

export interface LiveContent {
  releaseId: number;
  documents: Map<string, string>;
}

/** The live release's id and documents. Throws when nothing is live (a server always has a release). */
export async function liveContent(releases: ReleaseStore): Promise<LiveContent> {
  const live = await releases.live();
  if (!live) throw new Error('no release is live');
  const documents = await releases.documents(live.releaseId);
  return { releaseId: live.releaseId, documents: new Map(documents.map(({ path, text }) => [path, text])) };
}

/** The site as the set would make it: live documents, with the set's texts over them (a deletion removes one). */
export function overlay(
  live: ReadonlyMap<string, string>,
  documents: readonly Pick<ChangeDocument, 'path' | 'text'>[],
): ReleaseDocument[] {
  const site = new Map(live);
  for (const { path, text } of documents) {
    if (text === null) site.delete(path);
    else site.set(path, text);
  }
  return [...site]
    .map(([path, text]) => ({ path, text }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface DocumentError {
  /** The validator's stable code (content/validate/problems.ts): the editor places and words a problem by it. */
  code: ProblemCode;
  pointer: string;
  message: string;
  suggestion?: string;
}

/** The validator's problems of `path` (its text as in `site`), with the whole site around it; none: []. */
export function documentErrors(site: readonly ReleaseDocument[], path: string): DocumentError[] {
  const text = site.find((document) => document.path === path)?.text;
  if (text === undefined) return [];
  return withContentRoot(site, (root) =>
    validateDocumentText(contentPaths(root), join(root, ...path.split('/')), text).map(
      ({ code, pointer, message, suggestion }) => ({
        code,
        pointer,
        message,
        ...(suggestion === undefined ? {} : { suggestion }),
      }),
    ),
  );
}

/**
 * Why `site` (a whole site, the live one with a set over it) would not publish, in a sentence naming its first five
 * problems as the build words them ("file:line:col  pointer  message"), a link left leading nowhere by a deletion,
 * say; undefined when it would. The build's own whole-site check.
 */
export function wouldNotPublish(site: readonly ReleaseDocument[]): string | undefined {
  const problems = withContentRoot(site, (root) => contentProblems(contentPaths(root)));
  if (problems.length === 0) return undefined;
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  const more = problems.length > 5 ? '; …' : '';
  return `it would not publish: ${count} on the site with it: ${problems.slice(0, 5).join('; ')}${more}`;
}

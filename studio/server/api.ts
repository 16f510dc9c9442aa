// The studio's JSON API under /studio-api/: list, read, check and write documents. Every write carries the version
// (sha-256 of the text) it started from and is refused when the file has changed since; an invalid document is never
// written.
import { existsSync, readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import express, { type Request, type Response } from 'express';
import { siteIndex } from '../../content/validate/link-rules.ts';
import { checkDocument, gateChecks } from './checks.ts';
import { changedBy } from './changed-by.ts';
import { menus, pageAction } from './page-actions.ts';
import { studioSiteData } from './site-data.ts';
import { CONTENT, documentPath, listDocuments, versionOf } from './documents.ts';
import { changedHunks, lineDiff } from './line-diff.ts';
import { documentText } from './minimal-edit.ts';
import { referencesTo } from './references.ts';
import { isObject } from '../../content/json-pointer.ts';

const readText = (file: string): string | undefined =>
  existsSync(file) ? readFileSync(file, 'utf8') : undefined;

function writeAtomically(file: string, text: string) {
  mkdirSync(dirname(file), { recursive: true });
  // Written beside the file, then renamed over it: a reader never sees half a document. The temporary name is not
  // `.json`, so the file list and the build never pick it up.
  const temporary = join(dirname(file), `.${basename(file)}.studio-tmp`);
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

function named(req: Request, res: Response): { name: string; file: string } | undefined {
  const name = typeof req.query.name === 'string' ? req.query.name : undefined;
  const file = documentPath(name);
  if (!name || !file) {
    res
      .status(403)
      .json({ error: 'the studio opens and writes only content documents under pages/ and site/' });
    return undefined;
  }
  return { name, file };
}

const asObject = (body: unknown): Record<string, unknown> => (isObject(body) ? body : {});

type SaveResult = { status: 200 | 409 | 422; body: unknown };

/** Writes `document` to `file` if it is valid and the file is still at `baseVersion` (null: must not exist yet). */
async function save(
  name: string,
  file: string,
  document: unknown,
  baseVersion: unknown,
): Promise<SaveResult> {
  const errors = checkDocument(name, document);
  if (errors.length > 0) return { status: 422, body: { errors } };
  const before = readText(file);
  const conflict = (): SaveResult => ({
    status: 409,
    body: {
      error: 'the file changed on disk since it was opened',
      version: before === undefined ? null : versionOf(before),
      changedBy: changedBy(name, file),
    },
  });
  if ((before === undefined ? null : versionOf(before)) !== baseVersion) return conflict();
  const text = await documentText(file, before, document);
  // Checked again after formatting (which waits): a save that raced this one must not be overwritten.
  const now = readText(file);
  if (now !== before) return conflict();
  if (text !== before) writeAtomically(file, text);
  return { status: 200, body: { version: versionOf(text) } };
}

export function studioApi() {
  const api = express.Router();
  api.use(express.json({ limit: '2mb' }));

  api.get('/files', (_req, res) => {
    res.json(listDocuments());
  });

  api.get('/file', (req, res) => {
    const target = named(req, res);
    if (!target) return;
    const text = readText(target.file);
    if (text === undefined) res.status(404).json({ error: 'no such file' });
    else res.json({ text, version: versionOf(text) });
  });

  // The open document's version, asked every few seconds: the editor learns of a change on disk, and from whom.
  api.get('/version', (req, res) => {
    const target = named(req, res);
    if (!target) return;
    const text = readText(target.file);
    const version = text === undefined ? null : versionOf(text);
    // Who changed it is asked of git only when it did change (`known`: the version the editor has).
    const known = version === req.query.known;
    res.json({ version, changedBy: known ? '' : changedBy(target.name, target.file) });
  });

  api.post('/validate', (req, res) => {
    const body: unknown = req.body;
    const file = isObject(body) ? body.file : undefined;
    if (!isObject(body) || typeof file !== 'string' || !documentPath(file)) {
      res.status(403).json({ error: 'the studio checks only content documents under pages/ and site/' });
      return;
    }
    res.json({ errors: checkDocument(file, body.document) });
  });

  // The rest of the gate (spelling, repeated paragraphs) and validate's warnings, asked for when typing pauses.
  api.post('/checks', async (req, res) => {
    const body: unknown = req.body;
    const file = isObject(body) ? body.file : undefined;
    if (!isObject(body) || typeof file !== 'string' || !documentPath(file)) {
      res.status(403).json({ error: 'the studio checks only content documents under pages/ and site/' });
      return;
    }
    res.json(await gateChecks(file, body.document));
  });

  api.post('/diff', async (req, res) => {
    const body: unknown = req.body;
    const name = isObject(body) && typeof body.file === 'string' ? body.file : '';
    const file = documentPath(name);
    if (!isObject(body) || !file) {
      res.status(403).json({ error: 'not a content document under pages/ and site/' });
      return;
    }
    const before = readText(file) ?? '';
    const text = await documentText(file, before === '' ? undefined : before, body.document);
    const lines = lineDiff(before, text);
    res.json({
      hunks: changedHunks(lines),
      changed: lines.filter((line) => line.kind !== 'same').length,
    });
  });

  api.put('/file', async (req, res) => {
    const target = named(req, res);
    if (!target) return;
    const body: unknown = req.body;
    if (!isObject(body) || !('document' in body) || !('baseVersion' in body)) {
      res.status(400).json({ error: 'send { "document": ..., "baseVersion": ... }' });
      return;
    }
    const result = await save(target.name, target.file, body.document, body.baseVersion);
    res.status(result.status).json(result.body);
  });

  api.get('/index', (_req, res) => {
    const index = siteIndex(CONTENT);
    res.json({
      pages: [...index.pages].map(([path, anchors]) => ({ path, anchors: [...anchors].sort() })),
      redirects: [...index.redirects].map(([from, to]) => ({ from, to })),
    });
  });

  api.get('/references', (req, res) => {
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    const anchor = typeof req.query.anchor === 'string' ? req.query.anchor : undefined;
    res.json({ references: referencesTo(path, anchor) });
  });

  // A page moves to a new address: written there, removed here, and (when asked) the old address redirected.
  api.post('/rename', async (req, res) => {
    const result = await pageAction({ ...asObject(req.body), action: 'move' }, writeAtomically);
    res.status(result.status).json(result.body);
  });

  api.get('/site-data', (_req, res) => {
    res.json(studioSiteData());
  });
  api.get('/menus', (_req, res) => {
    res.json({ menus: menus() });
  });
  api.post('/menu', async (req, res) => {
    const result = await pageAction({ ...asObject(req.body), action: 'menu' }, writeAtomically);
    res.status(result.status).json(result.body);
  });
  api.post('/delete', async (req, res) => {
    const result = await pageAction({ ...asObject(req.body), action: 'delete' }, writeAtomically);
    res.status(result.status).json(result.body);
  });

  api.use((_req, res) => {
    res.status(404).json({ error: 'no such studio API' });
  });
  return api;
}

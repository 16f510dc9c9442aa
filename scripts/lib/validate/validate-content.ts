// Content errors are compile errors: every problem in a page, site or form document becomes one line with
// file, line and column, JSON pointer, block type and a plain message, with a suggestion where one helps.
// Node-only: used by `npm run validate`, the build and the dev server's overlay.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ErrorObject } from 'ajv';
import { parse as parseWithPointers, type Mapping } from 'json-source-map';
import { closest, distance } from 'fastest-levenshtein';
import {
  BLOCKS_SCHEMA_FILE,
  FORMS_DIR,
  PAGES_DIR,
  PROGRAMS_FILE,
  REDIRECTS_FILE,
  ROOT,
  SITE_FILE,
  SCHEMA_FILES,
  blockSchemaFile,
  blockTypes,
  contentAjv,
  contentSchemas,
  documentValidators,
  schemaId,
  type DocumentKind,
  type DocumentValidator,
} from '../../../core/content-schemas.ts';
import { pagePath } from '../../../core/page-paths.ts';
import { linkProblems, pageAnchors, redirectProblems, siteIndex, type SiteIndex } from './link-rules.ts';

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

export { PAGES_DIR, SITE_FILE, FORMS_DIR };

/** A problem before it is placed in the source: `at: 'key'` points at a property's name instead of its value. */
type Problem = {
  pointer: string;
  message: string;
  at: 'value' | 'key';
  /** For a missing required property: its name. */
  missing?: string;
  /** An unknown property that is most likely a misspelling of this one (at the same object). */
  meant?: { object: string; property: string };
};
export type Json = { [key: string]: unknown };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const toPosix = (p: string) => p.split(sep).join('/');
const repoPath = (file: string) => toPosix(relative(ROOT, file));

// ---------------------------------------------------------------------------------------------------------
// Suggestions

/** The candidate the value most likely meant, or undefined when none is close. */
export function suggest(value: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0 || value === '') return undefined;
  const lower = value.toLowerCase();
  const sameButCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameButCase) return sameButCase;
  const best = closest(lower, candidates);
  const d = distance(lower, best.toLowerCase());
  if (d <= Math.max(2, Math.floor(value.length / 3)) && d < value.length) return best;
  // 'protocol' for 'protocol-cards': a prefix of three or more characters is a strong hint too.
  if (lower.length >= 3) return candidates.find((c) => c.startsWith(lower) || lower.startsWith(c));
  return undefined;
}

function unknownWithSuggestion(what: string, value: string, candidates: readonly string[], listName: string) {
  const hint = suggest(value, candidates);
  if (hint) return `${what} "${value}"; did you mean "${hint}"?`;
  return candidates.length
    ? `${what} "${value}"; ${listName}: ${candidates.join(', ')}`
    : `${what} "${value}"`;
}

// ---------------------------------------------------------------------------------------------------------
// JSON pointers and source positions

const escapeSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeSegment = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
const segmentsOf = (pointer: string) =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
const parentOf = (pointer: string) => pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
const within = (pointer: string, base: string) => pointer === base || pointer.startsWith(`${base}/`);

function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const seg of segmentsOf(pointer)) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

/** Line and column (both 1-based, tab = one column) of a character offset. */
function lineColumn(text: string): (pos: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (pos) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: pos - (starts[lo] ?? 0) + 1 };
  };
}

/** Where a problem sits in the text: its key or value, or the nearest enclosing value that exists. */
function offsetOf(pointers: Record<string, Mapping>, problem: Problem): number {
  const own = pointers[problem.pointer];
  if (own) return (problem.at === 'key' && own.key ? own.key : own.value).pos;
  for (let p = problem.pointer; p !== '';) {
    p = parentOf(p);
    const mapping = pointers[p];
    if (mapping) return mapping.value.pos;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------------------
// JSON syntax

const POSITION = /position (\d+)/;

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON syntax error, placed where the mistake most likely is, with a plain message. */
function syntaxProblem(text: string, error: unknown): { pos: number; message: string } {
  if (text.trim() === '') return { pos: 0, message: 'invalid JSON: the file is empty' };
  const raw = error instanceof Error ? error.message : String(error);
  const match = POSITION.exec(raw);
  if (match && isCompleteJson(text.slice(0, Number(match[1]))))
    return { pos: Number(match[1]), message: 'invalid JSON: unexpected text after the end of the document' };
  if (!match) {
    const end = text.trimEnd().length;
    return {
      pos: Math.max(0, end - 1),
      message: 'invalid JSON: the file ends too early; a closing }, ] or " is missing',
    };
  }
  const pos = Number(match[1]);
  const token = text[pos] ?? '';
  let prevPos = pos - 1;
  while (prevPos >= 0 && /\s/.test(text[prevPos] ?? '')) prevPos--;
  const prev = text[prevPos] ?? '';
  if ((token === '}' || token === ']') && prev === ',')
    return {
      pos: prevPos,
      message: `invalid JSON: remove this comma; JSON allows no comma before "${token}"`,
    };
  if (token === "'") return { pos, message: 'invalid JSON: use double quotes ("), not single quotes' };
  if (token === '/') return { pos, message: 'invalid JSON: comments are not allowed' };
  if (/["{[\d-]/.test(token) && /["}\]\de]/.test(prev) && prev !== '')
    return { pos, message: 'invalid JSON: a comma is missing before this' };
  if (/[A-Za-z_$]/.test(token))
    return { pos, message: `invalid JSON: unexpected ${token}…; text and property names need double quotes` };
  return { pos, message: `invalid JSON: unexpected "${token}"` };
}

/** Keys repeated in one object: JSON.parse keeps the last silently, so a content edit can vanish. */
function duplicateKeys(text: string): { pointer: string; pos: number; key: string }[] {
  // Runs on every document, so it is written for speed: strings are skipped with indexOf, and a container's
  // pointer is built only when a duplicate is found in it.
  type Frame = {
    parent: Frame | undefined;
    segment: string;
    keys: Set<string> | undefined;
    key: string;
    index: number;
  };
  const pointerOf = (frame: Frame | undefined): string =>
    frame?.parent ? `${pointerOf(frame.parent)}/${escapeSegment(frame.segment)}` : '';
  const found: { pointer: string; pos: number; key: string }[] = [];
  let top: Frame | undefined;
  let expectKey = false;
  const open = (keys: Set<string> | undefined) => {
    const segment = top === undefined ? '' : top.keys ? top.key : String(top.index);
    top = { parent: top, segment, keys, key: '', index: 0 };
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = text.indexOf('"', i + 1);
      while (j > 0 && isEscaped(text, j)) j = text.indexOf('"', j + 1);
      if (j < 0) break;
      if (expectKey && top?.keys) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key))
          found.push({ pointer: `${pointerOf(top)}/${escapeSegment(key)}`, pos: i, key });
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      open(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      open(undefined);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      top = top?.parent;
    } else if (c === 0x2c /* , */) {
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return found;
}

/** Whether the character at `pos` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, pos: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(pos - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

// ---------------------------------------------------------------------------------------------------------
// Schemas, found by instance path (ajv reports schema paths relative to whichever file it was in)

/** A schema node and its address: file URL, '#', JSON pointer inside that file. */
export type Located = { schema: Json; url: string };

let schemasById: Map<string, unknown> | undefined;
/** The schemas as written, by the id contentAjv registers them under: reading them needs no compiling. */
function schemaById(id: string): unknown {
  schemasById ??= new Map(contentSchemas().map(({ file, schema }) => [schemaId(file), schema]));
  return schemasById.get(id);
}

function resolveUrl(url: string): Located | undefined {
  const [resource = '', fragment = ''] = url.split('#');
  const root = schemaById(resource);
  const node = valueAt(root, decodeURIComponent(fragment));
  return isObject(node) ? { schema: node, url: `${resource}#${fragment}` } : undefined;
}

/** Follows $ref until the schema itself. */
export function derefSchema(located: Located): Located {
  let current = located;
  for (let hops = 0; typeof current.schema.$ref === 'string' && hops < 32; hops++) {
    const target = resolveUrl(new URL(current.schema.$ref, current.url).href);
    if (!target) break;
    current = target;
  }
  return current;
}

const schemaList = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The schema and every schema that also applies to the same value (allOf, anyOf, oneOf, then, else). */
function expand(located: Located, value: unknown): Located[] {
  const self = derefSchema(located);
  const out = [self];
  const discriminator = isObject(self.schema.discriminator)
    ? self.schema.discriminator.propertyName
    : undefined;
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    schemaList(self.schema[keyword]).forEach((_, k) => {
      const branch = derefSchema({
        schema: schemaList(self.schema[keyword])[k] ?? {},
        url: `${self.url}/${keyword}/${k}`,
      });
      if (keyword === 'oneOf' && typeof discriminator === 'string' && isObject(value)) {
        const tag = isObject(branch.schema.properties) ? branch.schema.properties[discriminator] : undefined;
        if (!isObject(tag) || tag.const !== value[discriminator]) return;
      }
      out.push(...expand(branch, value));
    });
  }
  for (const keyword of ['then', 'else'] as const)
    if (isObject(self.schema[keyword]))
      out.push(...expand({ schema: self.schema[keyword], url: `${self.url}/${keyword}` }, value));
  return out;
}

function child(located: Located, segment: string, parentValue: unknown): Located | undefined {
  const { schema, url } = located;
  if (Array.isArray(parentValue))
    return isObject(schema.items) ? { schema: schema.items, url: `${url}/items` } : undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const own = properties[segment];
  if (isObject(own)) return { schema: own, url: `${url}/properties/${escapeSegment(segment)}` };
  if (isObject(schema.additionalProperties))
    return { schema: schema.additionalProperties, url: `${url}/additionalProperties` };
  return undefined;
}

/** Every schema that applies to the value at `pointer`, walking from the schema at `rootUrl`. */
function schemasAt(rootUrl: string, data: unknown, pointer: string): Located[] {
  const root = resolveUrl(rootUrl);
  if (!root) return [];
  let current = expand(root, data);
  let value = data;
  for (const seg of segmentsOf(pointer)) {
    const next = valueAt(value, `/${escapeSegment(seg)}`);
    current = current.flatMap((loc) => {
      const c = child(loc, seg, value);
      return c ? expand(c, next) : [];
    });
    value = next;
  }
  return current;
}

const propertyNames = (schemas: Located[]) => [
  ...new Set(schemas.flatMap((l) => (isObject(l.schema.properties) ? Object.keys(l.schema.properties) : []))),
];

// ---------------------------------------------------------------------------------------------------------
// Plain messages

const PATTERN_HINTS: Record<string, string> = {
  [String.raw`^/[a-z0-9/_-]*[a-z0-9_-]$`]:
    'must be a site path such as /old-page: lower-case letters, digits and hyphens, with no trailing slash',
  [String.raw`^/[a-z0-9/_-]*(#[a-z][a-z0-9-]*)?$`]:
    'must be a page path such as /services/medical-detox, optionally with an #anchor such as /#contact',
  '^[a-z][a-z0-9-]*$':
    'must start with a lower-case letter and use only lower-case letters, digits and hyphens',
  [String.raw`^(\{phone\}|/[a-z0-9/#_-]*|tel:\+?[0-9]+|sms:[0-9]+(\?&?body=[A-Za-z0-9%]+)?|mailto:\S+@\S+|https://\S+)$`]:
    'must be a site path such as /services/medical-detox or /#contact, {phone}, or a tel:, sms:, mailto: or https:// address',
  [String.raw`^\(\d{3}\) \d{3}-\d{4}$`]: 'must be written like (555) 010-0123',
  [String.raw`^\+1\d{10}$`]: 'must be written like +15550100123',
  [String.raw`\{count\}`]: 'must contain {count}, which becomes the number of links not shown',
  '^[a-z][A-Za-z0-9]*$':
    'must start with a lower-case letter and use only letters and digits, such as fullName',
  '^https://[^/]+$': 'must be an https:// address with no path and no trailing slash',
  '^/': 'must be a site path starting with /',
};

/** Plain English for a schema pattern, when one is known. */
export function patternHint(pattern: string): string | undefined {
  return PATTERN_HINTS[pattern];
}

const FORMAT_HINTS: Record<string, string> = {
  email: 'must be an e-mail address, such as admissions@example.com',
  uri: 'must be a full address, such as https://www.example.com',
  date: 'must be a date written YYYY-MM-DD',
};

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list (array)',
  null: 'null',
};

function typeMatches(schema: Json, value: unknown): boolean {
  const actual = jsonType(value);
  if ('const' in schema) return schema.const === value;
  const declared =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (!declared) return true;
  return declared.includes(actual) || (actual === 'integer' && declared.includes('number'));
}

/** Short description of what a oneOf branch accepts, for values that match none of them. */
function describeBranch(schema: Json): string {
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  if (schema.type === 'object' && required.length)
    return `an object with ${required.map((r) => `"${r}"`).join(' and ')}`;
  return typeof schema.type === 'string' ? (TYPE_WORDS[schema.type] ?? schema.type) : 'another value';
}

const BLOCK_POINTER = /^\/blocks\/(\d+)(?=\/|$)/;

function messageFor(e: ErrorObject, data: unknown, rootUrl: string): Problem[] {
  const at = e.instancePath;
  const value = valueAt(data, at);
  const p = e.params as Record<string, unknown>;
  const problem = (message: string, pointer = at, where: Problem['at'] = 'value'): Problem[] => [
    { pointer, message, at: where },
  ];
  switch (e.keyword) {
    case 'if':
      return []; // Its then/else branch reports the actual problem.
    case 'required': {
      const missing = String(p.missingProperty);
      const discriminated = schemasAt(rootUrl, data, at).some(
        (l) => isObject(l.schema.discriminator) && l.schema.discriminator.propertyName === missing,
      );
      const types = discriminated ? `; block types: ${blockTypes().join(', ')}` : '';
      return [
        { pointer: at, message: `must have required property '${missing}'${types}`, at: 'value', missing },
      ];
    }
    case 'discriminator': {
      const tag = String(p.tag);
      if (p.tagValue === undefined) return []; // The `required` error beside it says so.
      const pointer = `${at}/${escapeSegment(tag)}`;
      if (typeof p.tagValue !== 'string') return problem(`must be a block type name, such as "faq"`, pointer);
      return problem(
        unknownWithSuggestion('unknown block type', p.tagValue, blockTypes(), 'known types'),
        pointer,
      );
    }
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const allowed = propertyNames(schemasAt(rootUrl, data, at));
      const message = unknownWithSuggestion('unknown property', key, allowed, 'allowed properties');
      const meant = suggest(key, allowed);
      return [
        {
          pointer: `${at}/${escapeSegment(key)}`,
          message,
          at: 'key',
          ...(meant ? { meant: { object: at, property: meant } } : {}),
        },
      ];
    }
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      const strings = allowed.filter((a): a is string => typeof a === 'string');
      if (typeof value === 'string' && strings.length === allowed.length)
        return problem(unknownWithSuggestion('unknown value', value, strings, 'allowed values'));
      return problem(`must be one of: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    }
    case 'const':
      return problem(`must be ${JSON.stringify(p.allowedValue)}`);
    case 'type': {
      const wanted = String(p.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ');
      return problem(`must be ${wanted}, not ${TYPE_WORDS[jsonType(value)] ?? jsonType(value)}`);
    }
    case 'minLength':
      if (p.limit === 1) return problem('must not be empty');
      return problem(`${e.message} (it has ${typeof value === 'string' ? [...value].length : '?'})`);
    case 'maxLength':
      return problem(`${e.message} (it has ${typeof value === 'string' ? [...value].length : '?'})`);
    case 'minItems':
      if (p.limit === 1) return problem('must have at least 1 item');
      return problem(`${e.message} (it has ${Array.isArray(value) ? value.length : '?'})`);
    case 'minimum':
      return problem(`must be at least ${String(p.limit)}`);
    case 'maximum':
      return problem(`must be at most ${String(p.limit)}`);
    case 'pattern':
      return problem(patternHint(String(p.pattern)) ?? e.message ?? 'has the wrong form');
    case 'format':
      return problem(FORMAT_HINTS[String(p.format)] ?? e.message ?? 'has the wrong form');
    case 'uniqueItems': {
      const [first, second] = [Number(p.j), Number(p.i)].sort((a, b) => a - b);
      return problem(`repeats item ${first}; each value may appear only once`, `${at}/${second}`);
    }
    case 'not': {
      // `else: { not: { required: [x] } }` beside `if: { properties: { k: { const: v } } }`: x only when k is v.
      for (const loc of schemasAt(rootUrl, data, at)) {
        const cond =
          isObject(loc.schema.if) && isObject(loc.schema.if.properties)
            ? loc.schema.if.properties
            : undefined;
        const forbidden =
          isObject(loc.schema.else) && isObject(loc.schema.else.not)
            ? loc.schema.else.not.required
            : undefined;
        const [key, condition] = Object.entries(cond ?? {})[0] ?? [];
        if (Array.isArray(forbidden) && key && isObject(condition) && 'const' in condition)
          return forbidden.map((name) => ({
            pointer: `${at}/${escapeSegment(String(name))}`,
            message: `property "${String(name)}" is only allowed when ${key} is ${JSON.stringify(condition.const)}`,
            at: 'key' as const,
          }));
      }
      return problem('is not allowed here');
    }
    default:
      return problem(e.message ?? `fails the ${e.keyword} rule`);
  }
}

/** A value that matches none of a oneOf's branches: report the problems of the branch it was meant to be. */
function oneOfProblems(e: ErrorObject, data: unknown, rootUrl: string): Problem[] {
  const at = e.instancePath;
  const value = valueAt(data, at);
  const keyword = e.keyword as 'oneOf' | 'anyOf';
  const owner = schemasAt(rootUrl, data, at).find(
    (l) => Array.isArray(l.schema[keyword]) && !l.schema.discriminator,
  );
  if (!owner)
    return [{ pointer: at, message: e.message ?? 'matches none of the allowed forms', at: 'value' }];
  const branches = schemaList(owner.schema[keyword]).map((schema, k) => {
    const url = `${owner.url}/${keyword}/${k}`;
    return { url, schema: derefSchema({ schema, url }).schema };
  });
  const fitting = branches.filter((b) => typeMatches(b.schema, value));
  if (fitting.length === 0) {
    const words = branches.map((b) => describeBranch(b.schema));
    const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
    return [{ pointer: at, message: `must be ${list}`, at: 'value' }];
  }
  const keys = isObject(value) ? Object.keys(value) : [];
  const scored = fitting.map((b) => {
    const names = isObject(b.schema.properties) ? Object.keys(b.schema.properties) : [];
    const keyScore = keys.reduce((s, k) => s + (names.includes(k) ? 2 : suggest(k, names) ? 1 : 0), 0);
    const validate = contentAjv().getSchema(b.url);
    validate?.(value);
    const problems = refine(validate?.errors ?? [], value, b.url).map((pr) => ({
      ...pr,
      pointer: at + pr.pointer,
      ...(pr.meant ? { meant: { ...pr.meant, object: at + pr.meant.object } } : {}),
    }));
    return { keyScore, problems };
  });
  scored.sort((a, b) => b.keyScore - a.keyScore || a.problems.length - b.problems.length);
  const best = scored[0]?.problems ?? [];
  return best.length
    ? best
    : [{ pointer: at, message: e.message ?? 'matches more than one allowed form', at: 'value' }];
}

/** ajv's errors, less the noise: one problem per mistake, in plain words. */
function refine(errors: readonly ErrorObject[], data: unknown, rootUrl: string): Problem[] {
  type Item = { error: ErrorObject } | { problems: Problem[]; pointer: string };
  const pending: Item[] = [];
  const pointerOf = (item: Item) => ('error' in item ? item.error.instancePath : item.pointer);
  for (const error of errors) {
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf') {
      // ajv lists every branch's errors just before the oneOf error itself: drop them, keep the best branch's.
      while (pending.length && within(pointerOf(pending[pending.length - 1] as Item), error.instancePath))
        pending.pop();
      pending.push({ problems: oneOfProblems(error, data, rootUrl), pointer: error.instancePath });
    } else {
      pending.push({ error });
    }
  }
  const seen = new Set<string>();
  const problems = pending.flatMap((item) =>
    'error' in item ? messageFor(item.error, data, rootUrl) : item.problems,
  );
  // 'titel' reported as "did you mean title?" already says that title is missing.
  const meant = new Set(
    problems.flatMap((pr) => (pr.meant ? [`${pr.meant.object}\n${pr.meant.property}`] : [])),
  );
  return problems
    .filter((pr) => !(pr.missing !== undefined && meant.has(`${pr.pointer}\n${pr.missing}`)))
    .filter((pr) => {
      const key = `${pr.pointer}\n${pr.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function schemaProblems(validate: DocumentValidator, data: unknown, rootUrl: string): Problem[] {
  validate(data);
  return refine(validate.errors ?? [], data, rootUrl);
}

// ---------------------------------------------------------------------------------------------------------
// Checks across documents

/** Form ids: the file names under site/forms/. */
export function formIds(): string[] {
  if (!existsSync(FORMS_DIR)) return [];
  return readdirSync(FORMS_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

function blockCrossProblems(block: unknown, base: string): Problem[] {
  if (!isObject(block) || block.type !== 'form' || typeof block.formId !== 'string') return [];
  const ids = formIds();
  if (ids.includes(block.formId)) return [];
  const message = ids.length
    ? unknownWithSuggestion('unknown form', block.formId, ids, 'forms in site/forms/')
    : `unknown form "${block.formId}": site/forms/ has no form definitions`;
  return [{ pointer: `${base}/formId`, message, at: 'value' }];
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
          pointer,
          message: `anchor "${anchor}" is already used at ${first}; ids and aliases must be unique on a page`,
          at: 'value',
        });
      else if (!first) seen.set(anchor, pointer);
    }
  });
  return problems;
}

function schemaPathProblem(file: string, kind: ContentKind, data: unknown): Problem[] {
  if (!isObject(data) || typeof data.$schema !== 'string') return [];
  const expected = toPosix(relative(dirname(file), SCHEMA_FILES[kind]));
  if (data.$schema === expected) return [];
  return [
    {
      pointer: '/$schema',
      message: `must be "${expected}", the path from this file to the ${kind} schema, so editors can check it`,
      at: 'value',
    },
  ];
}

const SEGMENT = /^[a-z0-9][a-z0-9-]*$/;

function documentProblems(file: string, kind: ContentKind, data: unknown, index: SiteIndex): Problem[] {
  const problems = schemaPathProblem(file, kind, data);
  const cross =
    kind === 'redirects' ? redirectProblems(data, index) : kind === 'form' ? [] : linkProblems(data, index);
  problems.push(...cross.map((problem) => ({ ...problem, at: 'value' as const })));
  if (kind === 'page') {
    const rel = repoPath(file);
    const segments = rel.startsWith('pages/') ? rel.slice('pages/'.length, -'.json'.length).split('/') : [];
    const bad = segments.find((s) => !SEGMENT.test(s));
    if (bad !== undefined)
      problems.push({
        pointer: '',
        message: `"${bad}" cannot be part of a URL: name page files and folders with lower-case letters, digits and hyphens`,
        at: 'value',
      });
    const blocks = isObject(data) && Array.isArray(data.blocks) ? data.blocks : [];
    blocks.forEach((block, i) => problems.push(...blockCrossProblems(block, `/blocks/${i}`)));
    problems.push(...anchorProblems(blocks));
  }
  if (kind === 'site' && isObject(data) && isObject(data.widget)) {
    const ids = formIds();
    for (const key of ['insuranceFormId', 'consultationFormId'] as const) {
      const formId = data.widget[key];
      if (typeof formId === 'string' && !ids.includes(formId))
        problems.push({
          pointer: `/widget/${key}`,
          message: unknownWithSuggestion('unknown form', formId, ids, 'forms in site/forms/'),
          at: 'value',
        });
    }
  }
  if (kind === 'form' && isObject(data) && Array.isArray(data.fields)) {
    const seen = new Set<string>();
    data.fields.forEach((field, i) => {
      if (!isObject(field) || typeof field.name !== 'string') return;
      if (seen.has(field.name))
        problems.push({
          pointer: `/fields/${i}/name`,
          message: `field name "${field.name}" is used twice`,
          at: 'value',
        });
      seen.add(field.name);
    });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Entry points

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
    problems = schemaProblems(validate, block, url);
  } else {
    // An unknown or missing type: check it as the only element of a page's block list, as a page would.
    const url = `${schemaId(BLOCKS_SCHEMA_FILE)}#`;
    const validate = contentAjv().getSchema(url.slice(0, -1));
    if (!validate) throw new Error('the block union schema is not registered');
    problems = schemaProblems(validate, [block], url)
      .filter((pr) => within(pr.pointer, '/0'))
      .map((pr) => ({ ...pr, pointer: pr.pointer.slice(2) }));
  }
  problems.push(...blockCrossProblems(block, ''));
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

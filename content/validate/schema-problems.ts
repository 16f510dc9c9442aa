// ajv reports every failed keyword, and for a oneOf every branch's failures too; an editor wants one problem per
// mistake, so the branch the value was meant to be is chosen and the rest dropped.
import type { ErrorObject } from 'ajv';
import { contentAjv, type DocumentValidator } from '../schemas.ts';
import { isObject, valueAt, within, type JsonObject } from '../json-pointer.ts';
import type { Problem } from './problems.ts';
import { TYPE_WORDS, jsonType, messageFor, suggest } from './messages.ts';
import { derefSchema, schemaList, schemasAt } from './schema-walk.ts';

function typeMatches(schema: JsonObject, value: unknown): boolean {
  const actual = jsonType(value);
  if ('const' in schema) return schema.const === value;
  const declared =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (!declared) return true;
  return declared.includes(actual) || (actual === 'integer' && declared.includes('number'));
}

/** Short description of what a oneOf branch accepts, for values that match none of them. */
function describeBranch(schema: JsonObject): string {
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  if (schema.type === 'object' && required.length)
    return `an object with ${required.map((r) => `"${r}"`).join(' and ')}`;
  return typeof schema.type === 'string' ? (TYPE_WORDS[schema.type] ?? schema.type) : 'another value';
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
    return [
      {
        code: 'no-matching-alternative',
        pointer: at,
        message: e.message ?? 'matches none of the allowed forms',
        at: 'value',
      },
    ];
  const branches = schemaList(owner.schema[keyword]).map((schema, k) => {
    const url = `${owner.url}/${keyword}/${k}`;
    return { url, schema: derefSchema({ schema, url }).schema };
  });
  const fitting = branches.filter((b) => typeMatches(b.schema, value));
  if (fitting.length === 0) {
    const words = branches.map((b) => describeBranch(b.schema));
    const list = words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
    return [{ code: 'no-matching-alternative', pointer: at, message: `must be ${list}`, at: 'value' }];
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
      ...(pr.fix ? { fix: { ...pr.fix, pointer: at + pr.fix.pointer } } : {}),
    }));
    return { keyScore, problems };
  });
  scored.sort((a, b) => b.keyScore - a.keyScore || a.problems.length - b.problems.length);
  const best = scored[0]?.problems ?? [];
  return best.length
    ? best
    : [
        {
          code: 'ambiguous-alternative',
          pointer: at,
          message: e.message ?? 'matches more than one allowed form',
          at: 'value',
        },
      ];
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

export function schemaProblems(validate: DocumentValidator, data: unknown, rootUrl: string): Problem[] {
  validate(data);
  return refine(validate.errors ?? [], data, rootUrl);
}

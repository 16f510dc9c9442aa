// Plain words for each ajv keyword, with a "did you mean" where a close name exists: the people editing
// content are not expected to read JSON Schema.
import type { ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import { fieldLabel } from '../labels.ts';
import { blockTypes } from '../schemas.ts';
import { escapeSegment, isObject, valueAt } from '../json-pointer.ts';
import { replaceWith, type Problem, type ProblemCode } from './problems.ts';
import { propertyNames, schemasAt } from './schema-walk.ts';

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

/** The message for a name not among `candidates`, and the candidate it most likely meant. */
export function unknownName(
  what: string,
  value: string,
  candidates: readonly string[],
  listName: string,
): { message: string; suggestion?: string } {
  const hint = suggest(value, candidates);
  if (hint) return { message: `${what} "${value}"; did you mean "${hint}"?`, suggestion: hint };
  return {
    message: candidates.length
      ? `${what} "${value}"; ${listName}: ${candidates.join(', ')}`
      : `${what} "${value}"`,
  };
}

/** A problem with a name not among `candidates`, with the fix that writes the name it most likely meant. */
export function unknownNameProblem(
  code: ProblemCode,
  pointer: string,
  ...[what, value, candidates, listName]: Parameters<typeof unknownName>
): Problem {
  const { message, suggestion } = unknownName(what, value, candidates, listName);
  return { code, pointer, message, at: 'value', ...replaceWith(pointer, suggestion) };
}

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

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list (array)',
  null: 'null',
};

export function messageFor(e: ErrorObject, data: unknown, rootUrl: string): Problem[] {
  const at = e.instancePath;
  const value = valueAt(data, at);
  const p = e.params as Record<string, unknown>;
  const problem = (code: ProblemCode, message: string, pointer = at): Problem[] => [
    { code, pointer, message, at: 'value' },
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
        {
          code: 'missing-required',
          pointer: at,
          message: `“${fieldLabel(missing)}” (${missing}) is required${types}`,
          at: 'value',
          missing,
        },
      ];
    }
    case 'discriminator': {
      const tag = String(p.tag);
      if (p.tagValue === undefined) return []; // The `required` error beside it says so.
      const pointer = `${at}/${escapeSegment(tag)}`;
      if (typeof p.tagValue !== 'string')
        return problem('invalid-block-type', `must be a block type name, such as "faq"`, pointer);
      return [
        unknownNameProblem(
          'unknown-block-type',
          pointer,
          'unknown block type',
          p.tagValue,
          blockTypes(),
          'known types',
        ),
      ];
    }
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const allowed = propertyNames(schemasAt(rootUrl, data, at));
      const { message, suggestion: meant } = unknownName(
        'unknown property',
        key,
        allowed,
        'allowed properties',
      );
      const pointer = `${at}/${escapeSegment(key)}`;
      return [
        {
          code: 'unknown-property',
          pointer,
          message,
          at: 'key',
          ...(meant
            ? {
                meant: { object: at, property: meant },
                suggestion: meant,
                fix: { kind: 'rename-property', pointer, to: meant },
              }
            : {}),
        },
      ];
    }
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      const strings = allowed.filter((a): a is string => typeof a === 'string');
      if (typeof value === 'string' && strings.length === allowed.length)
        return [unknownNameProblem('unknown-value', at, 'unknown value', value, strings, 'allowed values')];
      return problem('not-one-of', `must be one of: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
    }
    case 'const':
      return problem('wrong-constant', `must be ${JSON.stringify(p.allowedValue)}`);
    case 'type': {
      const wanted = String(p.type)
        .split(',')
        .map((t) => TYPE_WORDS[t] ?? t)
        .join(' or ');
      return problem(
        'wrong-type',
        `must be ${wanted}, not ${TYPE_WORDS[jsonType(value)] ?? jsonType(value)}`,
      );
    }
    case 'minLength': {
      if (p.limit === 1) return problem('too-short', 'must not be empty');
      const length = typeof value === 'string' ? [...value].length : 0;
      return problem(
        'too-short',
        length === 0
          ? `is empty: write at least ${String(p.limit)} characters`
          : `is too short: ${length} character${length === 1 ? '' : 's'}, at least ${String(p.limit)}`,
      );
    }
    case 'maxLength':
      return problem(
        'too-long',
        `is too long: ${typeof value === 'string' ? [...value].length : '?'} characters, at most ${String(p.limit)}`,
      );
    case 'minItems': {
      if (p.limit === 1) return problem('too-few-items', 'must have at least 1 item');
      const count = Array.isArray(value) ? value.length : 0;
      return problem(
        'too-few-items',
        `has ${count} item${count === 1 ? '' : 's'}; it needs at least ${String(p.limit)}`,
      );
    }
    case 'maxItems':
      return problem(
        'too-many-items',
        `has ${Array.isArray(value) ? value.length : '?'} items; at most ${String(p.limit)} are allowed`,
      );
    case 'minimum':
      return problem('too-small', `must be at least ${String(p.limit)}`);
    case 'maximum':
      return problem('too-large', `must be at most ${String(p.limit)}`);
    case 'pattern':
      return problem('wrong-pattern', patternHint(String(p.pattern)) ?? e.message ?? 'has the wrong form');
    case 'format':
      return problem('wrong-format', FORMAT_HINTS[String(p.format)] ?? e.message ?? 'has the wrong form');
    case 'uniqueItems': {
      const [first, second] = [Number(p.j), Number(p.i)].sort((a, b) => a - b);
      return problem(
        'repeated-item',
        `repeats item ${first}; each value may appear only once`,
        `${at}/${second}`,
      );
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
            code: 'property-not-allowed-here' as const,
            pointer: `${at}/${escapeSegment(String(name))}`,
            message: `property "${String(name)}" is only allowed when ${key} is ${JSON.stringify(condition.const)}`,
            at: 'key' as const,
          }));
      }
      return problem('not-allowed', 'is not allowed here');
    }
    default:
      return problem('schema-rule', e.message ?? `fails the ${e.keyword} rule`);
  }
}

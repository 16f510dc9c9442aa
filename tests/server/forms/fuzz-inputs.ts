// The inputs of the fuzz test (fuzz.test.ts), from a seed: submissions whose fate is known by construction (valid,
// invalid in one known field, a filled honeypot, a repeated or reused Idempotency-Key) and hostile requests whose fate
// is not (odd content types, encodings, bodies, methods, paths, headers). Each submission names its own page in
// `source` (/fuzz/<tag>), so the store can be searched for exactly what each request left there.
import { gzipSync } from 'node:zlib';
import type { FormDefinition, FormField } from '../../../generated/content-types.ts';
import { HONEYPOT_FIELD, maxLengthOf } from '../../../core/form-rules.ts';
import { loadForms } from '../../../server/content.ts';

/** mulberry32: a small seeded generator, so every run sends the same requests. */
export function seeded(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = int(i + 1);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  };
  return { next, int, pick, bytes, shuffle };
}
export type Random = ReturnType<typeof seeded>;

export const FORMS = loadForms();
export const FORM_IDS = [...FORMS.keys()];

/**
 * Markup no answer may hold as it was sent: an HTML answer with `<x-fz` in it echoed input unescaped. It rides in
 * names, unknown property names, source pages and query strings.
 */
export const MARKUP = `<x-fz>"'&`;
export const MARKUP_SIGN = '<x-fz';

/** A unique word of letters for submission `n` (names hold no digits). */
export function tagOf(n: number): string {
  let tag = '';
  let rest = n + 26 * 26;
  while (rest > 0) {
    tag = String.fromCharCode(97 + (rest % 26)) + tag;
    rest = Math.floor(rest / 26);
  }
  return `Fz${tag}`;
}

const GIVEN = [
  'Jane',
  'José',
  'Zoë',
  'Nguyễn',
  'Anne-Marie',
  'Seán',
  'Łukasz',
  'Aïcha',
  '李',
  'Đức',
  'Ali\u200cReza',
];
const FAMILY = ["O'Brien", 'Smith-Jones', 'Müller', 'García Márquez', 'Ødegaard', '王', 'van der Berg', 'Ng'];
const PHONES = [
  (a: string, b: string) => `(555) ${a}-${b}`,
  (a: string, b: string) => `555-${a}-${b}`,
  (a: string, b: string) => `555.${a}.${b}`,
  (a: string, b: string) => `555${a}${b}`,
  (a: string, b: string) => `+1 555 ${a} ${b}`,
  (a: string, b: string) => `1-555-${a}-${b}`,
];
const digits = (random: Random, count: number) =>
  Array.from({ length: count }, () => random.int(10)).join('');

/** A value the field's rules accept, made unique by `tag` where the field is free text; undefined to leave it out. */
function validValue(random: Random, field: FormField, tag: string): string | undefined {
  if (!field.required && random.next() < 0.3) return random.pick([undefined, '']);
  const padded = (value: string) => (random.next() < 0.1 ? `  ${value} ` : value);
  switch (field.type) {
    case 'text': {
      const name = `${random.pick(GIVEN)} ${tag} ${random.pick(FAMILY)}`;
      const spelt = random.next() < 0.2 ? name.normalize('NFD') : name;
      return padded(random.next() < 0.05 ? `${spelt} ${MARKUP}` : spelt);
    }
    // A phone number or an e-mail address with spaces around it is not one: only free text is padded.
    case 'tel':
      return random.pick(PHONES)(`0${digits(random, 2)}`, digits(random, 4));
    case 'email':
      return `${tag.toLowerCase()}.${random.int(1000)}@example.com`;
    case 'date':
      return `${1940 + random.int(66)}-${String(1 + random.int(12)).padStart(2, '0')}-${String(1 + random.int(28)).padStart(2, '0')}`;
    case 'select':
      return random.pick(field.options ?? []).value;
    case 'textarea':
      return `My ${random.pick(['brother', 'mother', 'friend'])} ${tag} needs help.\nCall after 5 pm.\tThank you`;
  }
}

export type Body = Record<string, unknown>;

/** A submission of `def` its rules accept, in a random property order, with its own source page. */
export function validBody(random: Random, def: FormDefinition, n: number): Body {
  const tag = tagOf(n);
  const entries: [string, unknown][] = [];
  for (const field of def.fields) {
    const value = validValue(random, field, tag);
    if (value !== undefined) entries.push([field.name, value]);
  }
  entries.push(['source', `/fuzz/${tag}${random.next() < 0.1 ? `?q=${MARKUP}` : ''}`]);
  if (random.next() < 0.5) entries.push([HONEYPOT_FIELD, random.pick(['', ' '])]);
  return Object.fromEntries(random.shuffle(entries));
}

const HIDDEN = ['\u0000', '\u0007', '\u001b[2J', '\u007f', '\u0085', '\u009b', '\u202e', '\u202a', '\u2066'];
const HIDDEN_LINE = [...HIDDEN, '\u2069', '\u200e', '\u200f', '\u061c', '\u2028', '\u2029', '\n', '\t', '\r'];

/** One way to break a submission, in `field` (the property the answer's errors must name). */
export interface Mutation {
  field: string;
  /** Only as JSON: a urlencoded body cannot carry it (a number, a lone surrogate). */
  jsonOnly: boolean;
  apply: (body: Body) => void;
}

/** A mutation the rules refuse, by construction: each is invalid for its field whatever the rest holds. */
export function invalidMutation(random: Random, def: FormDefinition, n: number): Mutation {
  const field = random.pick(def.fields);
  const set = (value: unknown, jsonOnly = false): Mutation => ({
    field: field.name,
    jsonOnly,
    apply: (body) => void (body[field.name] = value),
  });
  const choices: (() => Mutation)[] = [
    () => {
      const hidden = random.pick(field.type === 'textarea' ? HIDDEN : HIDDEN_LINE);
      return set(`Jane${hidden}Doe`);
    },
    () => set('Jane\ud800Doe', true),
    () => set(random.pick<unknown>([42, null, true, [], {}, ['a', 'b']]), true),
    () => ({
      field: `${MARKUP}extra${tagOf(n)}`,
      jsonOnly: false,
      apply: (body) => void (body[`${MARKUP}extra${tagOf(n)}`] = 'x'),
    }),
    () => ({
      field: 'source',
      jsonOnly: false,
      apply: (body) =>
        void (body.source = random.pick([
          '//evil.example/x',
          'https://evil.example/',
          '/a b',
          '/a\u0000b',
          `/${'x'.repeat(300)}`,
        ])),
    }),
  ];
  if (field.required)
    choices.push(
      () => set(random.pick(['', '   '])),
      () => ({ field: field.name, jsonOnly: false, apply: (body) => void delete body[field.name] }),
    );
  if (field.type !== 'select' && field.type !== 'date')
    choices.push(() => set('x'.repeat(maxLengthOf(field) + 1)));
  if (field.type === 'tel') choices.push(() => set(random.pick(['call me', '555-1234', '(555 123-4567'])));
  if (field.type === 'email') choices.push(() => set(random.pick(['nope@', 'jane doe@example.com', 'jane'])));
  if (field.type === 'date') choices.push(() => set(random.pick(['1987-02-30', '02/28/1990', '1990-13-01'])));
  if (field.type === 'select') choices.push(() => set(random.pick(['not-an-option', 'AETNA'])));
  return random.pick(choices)();
}

// Built once: compressing five megabytes for each request that sends it would cost the run more than the server.
const GZIP_BOMB = gzipSync(Buffer.alloc(5_000_000, 'a'));

/** An odd body around a lead with its own source page: the content type and encoding decide what the server makes of it. */
export function hostileBody(random: Random, lead: Body, plain: boolean): string | Buffer {
  // Never the honeypot: a filled one is answered like a stored lead, which this body's fate must not depend on.
  const names = Object.keys(lead).filter((name) => name !== HONEYPOT_FIELD);
  const odd = () =>
    random.pick<unknown>([
      '',
      null,
      1e309,
      [],
      { nested: { deeper: 'x' } },
      'x'.repeat(random.int(5000)),
      '\u0000\u0001\u001f',
      '\ud800',
      '😀'.repeat(100),
      MARKUP,
      "'; DROP TABLE leads; --",
      '=cmd|"/c calc"!A0',
    ]);
  if (plain)
    return random.pick<() => string>([
      () =>
        new URLSearchParams({
          ...(lead as Record<string, string>),
          [random.pick(names)]: String(odd()),
        }).toString(),
      () => 'a=1&'.repeat(random.int(300)),
      () => 'fullName=a&fullName=b&source=%2F',
      () => '%%%&&&===',
      () => random.bytes(random.int(200)).toString('latin1'),
      () => `fullName=${'x'.repeat(20_000)}`,
    ])();
  return random.pick<() => string | Buffer>([
    () => JSON.stringify({ ...lead, [random.pick(names)]: odd() }),
    () => JSON.stringify(lead).slice(0, random.int(120)),
    () => `{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"fullName":"a"}`,
    () => '['.repeat(random.int(20_000)),
    () => `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
    () => '\ufeff{"fullName":"a"}',
    () => random.bytes(random.int(400)),
    () => Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
    () => 'null',
    () => JSON.stringify(lead),
  ])();
}

export const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=utf-16',
  'application/json; charset=latin-9',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/*',
  'text/plain',
  'multipart/form-data; boundary=----x',
  '',
  ';',
  `application/json; x=${'a'.repeat(3000)}`,
];

/** An encoding header and the body as it goes on the wire. */
export function encode(random: Random, body: string | Buffer): { coding?: string; wire: string | Buffer } {
  switch (random.pick(['', '', '', 'gzip', 'gzip-bomb', 'gzip-broken', 'deflate', 'br', 'x-unknown'])) {
    case 'gzip':
      return { coding: 'gzip', wire: gzipSync(body) };
    case 'gzip-bomb':
      return { coding: 'gzip', wire: GZIP_BOMB };
    case 'gzip-broken':
      return { coding: 'gzip', wire: Buffer.concat([gzipSync(body).subarray(0, 10), random.bytes(20)]) };
    case 'deflate':
      return { coding: 'deflate', wire: body };
    case 'br':
      return { coding: 'br', wire: body };
    case 'x-unknown':
      return { coding: 'x-unknown', wire: body };
    default:
      return { wire: body };
  }
}

/** Request targets around the form API and the pages. */
export function oddTarget(random: Random): string {
  const form = random.pick(FORM_IDS);
  return random.pick<() => string>([
    () => `/api/forms/${form}`,
    () => `/api/forms/${form}?x=${encodeURIComponent(MARKUP)}`,
    () => `/api/forms/${form}/extra`,
    () => `/api/forms/${form}%00`,
    () => '/api/forms/%E0%A4%A',
    () => '/api/forms/..%2F..%2Fsecret.txt',
    () => `/api/forms/${'a'.repeat(random.int(8000))}`,
    () => '/api//forms//insurance-verification',
    () => `http://evil.example/api/forms/${form}`,
  ])();
}

/** Raw bytes no HTTP client library would write. */
export function rawRequest(random: Random, lead: Body): string | Buffer {
  const form = random.pick(FORM_IDS);
  const body = JSON.stringify(lead);
  const head = `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n`;
  return random.pick<() => string | Buffer>([
    () => `${head}Content-Length: 5000\r\n\r\n${body}`,
    () => `${head}Content-Length: 3\r\n\r\n${body}`,
    () => `${head}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    () =>
      `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n`,
    () => `${head}Content-Length: -1\r\n\r\n`,
    () => `${head}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    () => `POST /api/forms/${form} HTTP/9.9\r\nHost: x\r\n\r\n`,
    () => `POST /api/forms/${form}\r\n\r\n`,
    () => `POST /api/forms/${form} HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n`,
    () => `POST /api/forms/\u0000 HTTP/1.1\r\nHost: x\r\n\r\n`,
    () =>
      `GET http://evil.example/blog?${encodeURIComponent(MARKUP)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    () => `GET /\\evil.example/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    () => `GET //evil.example/%2e%2e/%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    () => `\r\n\r\n\r\n`,
    () => random.bytes(random.int(2000)),
    () => `BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n`,
    () =>
      `POST /api/forms/${form} HTTP/1.0\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=1`,
  ])();
}

// The plan of the fuzz test (fuzz.test.ts): from a seed, what each of its requests is and what it was built to be, so
// that the test can hold each answer and the store to it. The inputs themselves come from fuzz-inputs.ts.
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '../../../core/form-rules.ts';
import * as input from './fuzz-inputs.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';

export type Kind = 'valid' | 'repeat' | 'conflict' | 'invalid' | 'honeypot' | 'hostile' | 'page' | 'raw';
export interface Outgoing {
  method: string;
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Bytes for the socket, instead of a request through node:http. */
  raw?: string | Buffer;
  address?: string;
}
export interface Planned {
  kind: Kind;
  formId?: string;
  /** The submission of each request (its `source` finds it in the store), for the submission kinds. */
  bodies: input.Body[];
  requests: Outgoing[];
  /** The field the errors must name (invalid). */
  field?: string;
  /** The answer a page request must get, when it is known. */
  status?: number;
}

export interface PlannerOptions {
  seed: number;
  /** The server's own origin, which the enhanced form sends as Origin. */
  origin: string;
  /** The ETag of `/` as it is sent without Accept-Encoding, for conditional requests. */
  etag: string;
  /** The few addresses that send far more than the others (X-Forwarded-For). */
  noisy: readonly string[];
}

/** Plans request group `n` (one request, or a repeat or a conflict of several); the same seed plans the same run. */
export function createPlanner({ seed, origin, etag, noisy }: PlannerOptions): (n: number) => Planned {
  const random = input.seeded(seed);

  function address(): string {
    if (random.next() < 0.1) return random.pick(noisy);
    const i = random.int(1000);
    return i % 2 ? `2001:db8:${i.toString(16)}::1` : `198.18.${i >> 8}.${i & 255}`;
  }

  /** A submission as the enhanced form (JSON) or a browser without JavaScript (urlencoded) sends it. */
  function submission(
    formId: string,
    body: input.Body,
    plain: boolean,
    from: string,
    key?: string,
  ): Outgoing {
    const headers: Record<string, string> = {
      'Content-Type': plain
        ? FORM_TYPE
        : random.pick(['application/json', 'application/json; charset=utf-8']),
      'X-Forwarded-For': from,
    };
    if (!plain || random.next() < 0.5) headers.Origin = origin;
    if (key !== undefined) headers[IDEMPOTENCY_HEADER] = key;
    const wire = plain
      ? new URLSearchParams(body as Record<string, string>).toString()
      : JSON.stringify(body);
    return { method: 'POST', target: `/api/forms/${formId}`, headers, body: wire, address: from };
  }

  function plan(n: number): Planned {
    const formId = random.pick(input.FORM_IDS);
    const def = input.FORMS.get(formId);
    if (!def) throw new Error(formId);
    const plain = random.next() < 0.3;
    const from = address();
    const key = `fz-${seed}-${n}`;
    const roll = random.next();
    if (roll < 0.28) {
      const body = input.validBody(random, def, n);
      const withKey = random.next() < 0.5 ? key : undefined;
      return {
        kind: 'valid',
        formId,
        bodies: [body],
        requests: [submission(formId, body, plain, from, withKey)],
      };
    }
    if (roll < 0.33) {
      const body = input.validBody(random, def, n);
      const copies = 2 + random.int(2);
      const requests = Array.from({ length: copies }, () => submission(formId, body, plain, from, key));
      return { kind: 'repeat', formId, bodies: requests.map(() => body), requests };
    }
    if (roll < 0.36) {
      const first = input.validBody(random, def, n);
      const second = input.validBody(random, def, n + 1_000_000);
      const requests = [
        submission(formId, first, plain, from, key),
        submission(formId, second, plain, from, key),
      ];
      return { kind: 'conflict', formId, bodies: [first, second], requests };
    }
    if (roll < 0.6) {
      const body = input.validBody(random, def, n);
      const mutation = input.invalidMutation(random, def, n);
      mutation.apply(body);
      const json = mutation.jsonOnly || !plain;
      const requests = [submission(formId, body, !json, from, random.next() < 0.3 ? key : undefined)];
      return { kind: 'invalid', formId, bodies: [body], requests, field: mutation.field };
    }
    if (roll < 0.65) {
      const body = input.validBody(random, def, n);
      body[HONEYPOT_FIELD] = random.pick(['https://spam.example', 'x', ' y ']);
      const copies = random.next() < 0.3 ? 2 : 1;
      const requests = Array.from({ length: copies }, () => submission(formId, body, plain, from, key));
      return { kind: 'honeypot', formId, bodies: requests.map(() => body), requests };
    }
    if (roll < 0.85) return hostile(n, formId, def, from);
    if (roll < 0.96) return page(n, formId);
    const raw = input.rawRequest(random, input.validBody(random, def, n));
    return { kind: 'raw', bodies: [], requests: [{ method: 'RAW', target: '', headers: {}, raw }] };
  }

  function hostile(
    n: number,
    formId: string,
    def: NonNullable<ReturnType<typeof input.FORMS.get>>,
    from: string,
  ): Planned {
    const lead = input.validBody(random, def, n);
    const type = random.pick(input.CONTENT_TYPES);
    const { coding, wire } = input.encode(
      random,
      input.hostileBody(random, lead, type.includes('urlencoded')),
    );
    const headers: Record<string, string> = { 'Content-Type': type, 'X-Forwarded-For': from };
    if (coding) headers['Content-Encoding'] = coding;
    if (random.next() < 0.6)
      headers.Origin = random.pick([origin, origin, 'null', 'https://evil.example', '']);
    if (random.next() < 0.3)
      headers[IDEMPOTENCY_HEADER] = random.pick(['', 'short', 'x'.repeat(200), `fz-h-${n}`]);
    if (random.next() < 0.03) headers['X-Huge'] = 'h'.repeat(20_000 + random.int(20_000));
    if (random.next() < 0.03) for (let i = 0; i < 150; i += 1) headers[`X-Many-${i}`] = String(i);
    const method = random.pick(['POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND']);
    const target = random.next() < 0.7 ? `/api/forms/${formId}` : input.oddTarget(random);
    return {
      kind: 'hostile',
      formId,
      bodies: [lead],
      requests: [{ method, target, headers, body: wire, address: from }],
    };
  }

  function page(n: number, formId: string): Planned {
    const marked = encodeURIComponent(input.MARKUP);
    const [target, status, headers = {}] = random.pick<[string, number | undefined, Record<string, string>?]>(
      [
        ['/', 200, { 'Accept-Encoding': random.pick(['', 'gzip', 'br', 'gzip, deflate, br', 'identity']) }],
        ['/', 304, { 'If-None-Match': etag }],
        ['/services/medical-detox/', 301],
        [`/blog?q=${marked}`, 301],
        [`http://evil.example/blog?q=${marked}`, 301],
        [
          `/forms/${formId}/received?from=${encodeURIComponent(random.pick([input.MARKUP, `/fuzz/${input.MARKUP}`, '//evil.example', 'javascript:alert(1)']))}`,
          200,
        ],
        [`/${marked}`, 404],
        [`/nowhere/${input.tagOf(n)}?q=${marked}`, 404],
        ['/robots.txt', 200],
        ['/assets/app-abc123.js', 200],
        ['/%2e%2e/secret.txt', 404],
        ['//evil.example/%00', 404],
      ],
    );
    const method = random.pick(['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'DELETE']);
    const known = method === 'GET' || method === 'HEAD' ? status : undefined;
    return { kind: 'page', bodies: [], requests: [{ method, target, headers }], status: known };
  }

  return plan;
}

// Over ten thousand requests from a fixed seed (printed; FUZZ_SEED replays another), against the real app in this
// process with the per-address rate limit on, checked against oracles rather than only "no 5xx": what is invalid is
// never stored, what is valid is stored exactly once per Idempotency-Key and as it was sent (in NFC, trimmed), a
// filled honeypot never; no HTML answer echoes input unescaped; no Location leaves the site; every answer of the app
// carries the security headers; the log, at trace level, holds no value of any lead; the server's heap is within a
// stated bound after the run. What each request is: fuzz-plan.ts, from the inputs of fuzz-inputs.ts.
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxyFrom } from '../../../server/config.ts';
import { SECURITY_HEADER_NAMES, createdId, postForm, postJson, validLead } from '../../helpers/fixtures.ts';
import * as input from './fuzz-inputs.ts';
import { FORM_TYPE, createPlanner, type Kind, type Outgoing, type Planned } from './fuzz-plan.ts';
import type { StoredLead } from '../../../server/store/contract/lead-store.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';
import { rawExchange } from '../../helpers/http.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const INPUTS = 10_000;
const CONCURRENCY = 16;
// A limit against a hung run, never a measurement; the run takes well under a minute on two cores.
const BUDGET_MS = 90_000;
// Most addresses send a handful of posts; the three noisy ones (two of them in one IPv6 /56) send hundreds.
const PER_ADDRESS_LIMIT = 150;
const NOISY = ['203.0.113.7', '2001:db8:ffff:ff00::1', '2001:db8:ffff:ff42::9'];
// What the server may keep after the run, beyond what it held before (the heap of this process, after a full GC):
// the decoy ledger (at most 10,000 keys), the rate-limit counts, and V8's compiled code. Measured at about 5 MB; a
// leak of a few kilobytes per request would pass 32 MB.
const HEAP_GROWTH_LIMIT_MB = 32;
// Statuses the app answers with, which must carry the security headers; each must be reached by the run.
const REACHED = [200, 201, 301, 303, 304, 400, 403, 404, 413, 415, 422, 429];

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapUsedMb = () => {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

let server: InProcessServer;
let origin: string;
beforeAll(async () => {
  server = await startInProcessServer({
    rateLimit: PER_ADDRESS_LIMIT,
    trustProxy: trustProxyFrom('loopback'),
    logLevel: 'trace',
  });
  origin = server.url;
});
afterAll(() => server.stop());

interface Observed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request; status 0 when the server closed without an answer, -1 when node:http refused to send it. */
function send(out: Outgoing, port: number): Promise<Observed> {
  if (out.raw !== undefined)
    return rawExchange(origin, out.raw, { timeoutMs: 1000, stopAtHead: true }).then(
      ({ status, headers }) => ({
        status,
        headers,
        body: '',
      }),
    );
  return new Promise((resolve) => {
    const fail = (status: number) => resolve({ status, headers: {}, body: '' });
    try {
      const req = request(
        { host: '127.0.0.1', port, path: out.target, method: out.method, headers: out.headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', () => fail(res.statusCode ?? 0));
        },
      );
      req.on('error', () => fail(0));
      req.setTimeout(5000, () => req.destroy());
      req.end(out.method === 'GET' || out.method === 'HEAD' ? undefined : out.body);
    } catch {
      fail(-1);
    }
  });
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
/** Node's own answer to a request its parser refused, before the app ran: a status line and Connection: close. */
const fromParser = (seen: Observed) =>
  [400, 414, 431, 505].includes(seen.status) &&
  Object.keys(seen.headers).every((name) =>
    ['connection', 'content-length', 'transfer-encoding'].includes(name),
  );

/** Checks every answer and the store against what each request was built to be; returns the broken promises. */
async function verify(plans: Planned[], results: Observed[][]) {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  const acknowledged = new Map<string, { ids: Set<string>; body: input.Body; formId: string }>();
  const refusedSources = new Set<string>();
  const sentValues: unknown[] = [];
  plans.forEach((planned, index) => {
    const observed = results[index] ?? [];
    const fields = new Map((input.FORMS.get(planned.formId ?? '')?.fields ?? []).map((f) => [f.name, f]));
    for (const body of planned.bodies)
      for (const [name, value] of Object.entries(body))
        // Choices from a fixed list are no one's own words; the page a person came from is.
        if (fields.get(name)?.type !== 'select') sentValues.push(value);
    const honeypotIds = new Set<string>();
    observed.forEach((seen, at) => {
      const out = planned.requests[at] as Outgoing;
      const label = `#${index} ${planned.kind} ${out.method} ${out.target.slice(0, 50)} → ${seen.status}`;
      statuses.set(seen.status, (statuses.get(seen.status) ?? 0) + 1);
      if (seen.status >= 500) problems.push(`5xx: ${label}`);
      if (seen.status > 0 && !fromParser(seen))
        for (const name of SECURITY_HEADER_NAMES)
          if (!seen.headers[name]) problems.push(`no ${name}: ${label}`);
      const location = one(seen.headers.location);
      if (location !== undefined && !/^\/(?![/\\])/.test(location))
        problems.push(`off-site ${location}: ${label}`);
      if (
        /^text\/html/.test(one(seen.headers['content-type']) ?? '') &&
        seen.body.includes(input.MARKUP_SIGN)
      )
        problems.push(`unescaped input: ${label}`);
      if (seen.status === 429) {
        if (!seen.headers['retry-after']) problems.push(`429 without Retry-After: ${label}`);
        // Raw requests carry no X-Forwarded-For: they all count against this machine's own address.
        if (planned.kind !== 'raw' && !NOISY.includes(out.address ?? ''))
          problems.push(`429 for a quiet address: ${label}`);
      }
      if (planned.status !== undefined && seen.status !== planned.status)
        problems.push(`expected ${planned.status}: ${label}`);
      const firstOk = [201, 303].includes(observed[0]?.status ?? 0);
      const allowed: Record<Kind, number[] | undefined> = {
        valid: [201, 303, 429],
        repeat: [201, 303, 429],
        honeypot: [201, 303, 429],
        conflict: at === 0 || !firstOk ? [201, 303, 429] : [422, 429],
        invalid: [400, 429],
        hostile: undefined,
        page: undefined,
        raw: undefined,
      };
      const expected = allowed[planned.kind];
      if (expected && !expected.includes(seen.status))
        problems.push(`expected ${expected.join('/')}: ${label}`);
      if (planned.kind === 'invalid' && seen.status === 400 && out.headers['Content-Type'] !== FORM_TYPE) {
        const errors = (JSON.parse(seen.body) as { errors?: Record<string, string> }).errors ?? {};
        if (!Object.hasOwn(errors, planned.field ?? ''))
          problems.push(`errors do not name ${planned.field}: ${label}`);
      }
      const body = planned.bodies[at];
      const source = typeof body?.source === 'string' ? body.source : undefined;
      if (!source?.startsWith('/fuzz/') || !body) return;
      const id = seen.status === 201 ? (JSON.parse(seen.body) as { id: string }).id : undefined;
      if (planned.kind === 'honeypot' && id) honeypotIds.add(id);
      if ((seen.status !== 201 && seen.status !== 303) || planned.kind === 'honeypot')
        return void refusedSources.add(source);
      const entry = acknowledged.get(source) ?? {
        ids: new Set<string>(),
        body,
        formId: planned.formId ?? '',
      };
      if (id) entry.ids.add(id);
      acknowledged.set(source, entry);
    });
    if (honeypotIds.size > 1) problems.push(`#${index} honeypot repeat answered ${[...honeypotIds]}`);
  });

  // The store holds exactly the acknowledged submissions, once each, as they were sent (in NFC, trimmed).
  const bySource = new Map<string, StoredLead[]>();
  for (const lead of await server.store.listLeads())
    bySource.set(lead.source, [...(bySource.get(lead.source) ?? []), lead]);
  for (const [source, leads] of bySource)
    if (!acknowledged.has(source)) problems.push(`stored, never acknowledged: ${source} (${leads.length})`);
  for (const [source, { ids, body, formId }] of acknowledged) {
    const leads = bySource.get(source) ?? [];
    const lead = leads[0];
    if (leads.length !== 1 || !lead) {
      problems.push(`${leads.length} leads for ${source}`);
      continue;
    }
    if (ids.size > 1 || (ids.size === 1 && !ids.has(lead.id)))
      problems.push(`answered ids ${[...ids]} for ${source}`);
    for (const field of input.FORMS.get(formId)?.fields ?? []) {
      const value = body[field.name];
      const expected = typeof value === 'string' && value.trim() ? value.normalize('NFC').trim() : undefined;
      if (lead.data[field.name] !== expected)
        problems.push(`${source} ${field.name} stored as ${lead.data[field.name]}`);
    }
  }
  if (acknowledged.size < 1000) problems.push(`only ${acknowledged.size} submissions stored`);
  if (refusedSources.size < 1000) problems.push(`only ${refusedSources.size} submissions refused`);
  expectNoPersonalData(server.logs, [...sentValues, ...acknowledged.keys(), ...refusedSources]);
  return { statuses, problems };
}

describe('fuzzing the server, with oracles', () => {
  it(`keeps every promise over ${INPUTS} seeded requests`, async () => {
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
    const port = Number(new URL(origin).port);
    const etag = one((await send({ method: 'GET', target: '/', headers: {} }, port)).headers.etag) ?? '';
    expect(etag).toBeTruthy();
    const heapBefore = heapUsedMb();

    const plan = createPlanner({ seed: SEED, origin, etag, noisy: NOISY });
    const plans: Planned[] = [];
    for (let count = 0, n = 0; count < INPUTS; n += 1) {
      const next = plan(n);
      plans.push(next);
      count += next.requests.length;
    }
    const results: Observed[][] = new Array<Observed[]>(plans.length);
    const deadline = Date.now() + BUDGET_MS;
    let started = 0;
    const lane = async () => {
      while (started < plans.length && Date.now() < deadline) {
        const index = started++;
        const { kind, requests } = plans[index] as Planned;
        // Copies of a repeat go at once (a double click); a conflict's second body only after the first is answered.
        results[index] =
          kind === 'repeat' || kind === 'honeypot'
            ? await Promise.all(requests.map((out) => send(out, port)))
            : await requests.reduce<Promise<Observed[]>>(
                async (done, out) => [...(await done), await send(out, port)],
                Promise.resolve([]),
              );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    const sent = results.reduce((sum, seen) => sum + (seen?.length ?? 0), 0);
    expect(sent, 'requests sent within the budget').toBeGreaterThanOrEqual(INPUTS);

    const ran = Date.now();
    console.log(`fuzz ran ${sent} requests in ${((ran - deadline + BUDGET_MS) / 1000).toFixed(1)} s`);
    const { statuses, problems } = await verify(plans, results);
    console.log(`fuzz checked in ${((Date.now() - ran) / 1000).toFixed(1)} s`);
    console.log(
      `fuzz statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    expect(problems.slice(0, 40), `${problems.length} broken promises`).toEqual([]);
    for (const status of REACHED) expect(statuses.get(status), `status ${status} reached`).toBeGreaterThan(0);
    const posts = plans.flatMap((planned) => planned.requests).filter((out) => out.method === 'POST').length;
    expect(statuses.get(429) ?? 0, 'most posts pass the rate limit').toBeLessThan(posts * 0.2);
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);

    // What the server keeps once the test lets go of its own records of the run.
    results.length = 0;
    plans.length = 0;
    server.logs.length = 0;
    const heapAfter = heapUsedMb();
    console.log(`fuzz heap ${heapBefore.toFixed(1)} MB before, ${heapAfter.toFixed(1)} MB after`);
    expect(heapAfter - heapBefore).toBeLessThan(HEAP_GROWTH_LIMIT_MB);

    // Still takes a real lead; then, with its database gone, every answer is a 503 with the headers and a phone.
    const id = await createdId(await postJson(server.api, validLead));
    expect((await server.store.getLead(id))?.data.memberId).toBe(validLead.memberId);
    await server.store.close();
    for (const response of [await postJson(server.api, validLead), await postForm(server.api, validLead)]) {
      expect(response.status).toBe(503);
      for (const name of SECURITY_HEADER_NAMES) expect(response.headers.get(name), name).toBeTruthy();
      expect(await response.text()).toMatch(/call us|tel:/);
    }
  }, 150_000);
});

// `npm run bench:inbox [-- --leads 100000 --requests 200]`: how fast the admissions inbox answers with a year of leads.
// Stores that many leads (every value sealed, search terms written, as the form API stores them) in a throwaway
// database, starts the real server on it as its own process, signs a staff member in with a passkey (the tests'
// software authenticator), then asks for the first page of the list and for searches (a name, a name's first letters,
// a full phone number, its last four digits), one request at a time over one keep-alive connection. Each request is
// audited, as in production. Then the desk: the "needs action" queue's first page (every lead still due, soonest
// first), and the fan-out of one change (a claim, then its release) to LISTS open event streams, timed from the request
// until every stream has the `change` event. Ends with
// `list_p95_ms=N search_p95_ms=N queue_p95_ms=N fanout_p95_ms=N`. Goals: the first three under 200 ms, the last under
// 1000 ms.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readArgs, wholeNumber } from '../core/cli.ts';
import { loadForms } from '../server/content.ts';
import { openLeadStore } from '../server/store/sqlite/lead-store.ts';
import { StaffClient } from '../tests/server/staff/staff-client.ts';
import { startServerProcess } from './lib/server-process.ts';
import { percentile } from './lib/stats.ts';

const FIRST = ['Maria', 'James', 'Ana', 'Robert', 'Linda', 'Michael', 'Sofia', 'David', 'Grace', 'Daniel'];
const LAST = ['Garcia', 'Smith', 'Nguyen', 'Johnson', 'Lopez', 'Brown', 'Kim', 'Davis', 'Martinez', 'Wilson'];
const IN_FLIGHT = 500;
/** Open lists (event streams) a change goes to. */
const LISTS = 50;

/** Opens `count` event streams as `client`; each resolves `waitFor(id)` once it has read a `change` for that id. */
async function openStreams(client: StaffClient, count: number) {
  const controller = new AbortController();
  const streams = await Promise.all(
    Array.from({ length: count }, async () => {
      const response = await fetch(`${client.base}/staff/api/events`, {
        headers: { Cookie: client.cookie ?? '' },
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const waiting = new Map<string, () => void>();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
          if (done) return;
          text += decoder.decode(value, { stream: true });
          for (const [id, resolve] of waiting)
            if (text.includes(`"id":"${id}"`)) {
              waiting.delete(id);
              resolve();
            }
          if (text.length > 100_000) text = text.slice(-10_000);
        }
      })();
      return { waitFor: (id: string) => new Promise<void>((resolve) => waiting.set(id, resolve)) };
    }),
  );
  return { streams, close: () => controller.abort() };
}

/** The n-th lead: one of a hundred names (so a name matches about a thousand leads), a phone of its own. */
function leadValues(n: number): { formId: string; fields: Record<string, string> } {
  const first = FIRST[n % FIRST.length] ?? 'Maria';
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length] ?? 'Garcia';
  const phone = `(555) ${String(100 + (n % 900)).padStart(3, '0')}-${String(n % 10_000).padStart(4, '0')}`;
  if (n % 2 === 0)
    return {
      formId: 'insurance-verification',
      fields: {
        fullName: `${first} ${last}`,
        phone,
        dateOfBirth: '1985-06-15',
        insuranceProvider: 'aetna',
        memberId: `M${n}`,
      },
    };
  return {
    formId: 'consultation',
    fields: {
      firstName: first,
      lastName: last,
      phone,
      email: `${first}.${last}.${n}@example.com`.toLowerCase(),
      concernFor: 'self',
      urgency: n % 3 === 0 ? 'immediate' : 'flexible',
      message: 'I would like to talk about treatment options.',
    },
  };
}

async function seed(dbFile: string, count: number): Promise<number> {
  const started = performance.now();
  const store = openLeadStore(dbFile, { forms: loadForms() });
  try {
    for (let done = 0; done < count; done += IN_FLIGHT) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT, count - done) }, (_, i) => {
        const { formId, fields } = leadValues(done + i);
        return store.insertLead({ formId, source: '/', fields });
      });
      await Promise.all(batch);
    }
  } finally {
    await store.close();
  }
  return performance.now() - started;
}

async function timed(client: StaffClient, path: string, search?: object): Promise<number> {
  const started = performance.now();
  const response = await (search ? client.post(path, search) : client.get(path));
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return performance.now() - started;
}

const summary = (name: string, samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const [p50, p95] = [percentile(sorted, 0.5), percentile(sorted, 0.95)].map(
    (ms) => Math.round(ms * 10) / 10,
  );
  console.log(`${name}: ${sorted.length} requests, p50 ${p50} ms, p95 ${p95} ms`);
  return p95;
};

const { values } = readArgs(process.argv.slice(2), {
  leads: { type: 'string' },
  requests: { type: 'string' },
});
const leads = wholeNumber('--leads', values.leads, 100_000, 1, 1_000_000);
const requests = wholeNumber('--requests', values.requests, 200, 10, 10_000);
const dir = mkdtempSync(join(tmpdir(), 'bench-inbox-'));
try {
  const clientDir = join(dir, 'client');
  mkdirSync(clientDir);
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Bench</title>');
  writeFileSync(join(clientDir, '404.html'), '<!doctype html><title>404</title>');
  const dbFile = join(dir, 'leads.db');
  const seedMs = await seed(dbFile, leads);
  console.log(`stored ${leads} leads in ${(seedMs / 1000).toFixed(1)} s`);

  const inviting = openLeadStore(dbFile, { writerThread: false });
  const { token } = await inviting.staff.createInvite(
    'bench@example.com',
    ['admissions', 'admin'],
    Date.now() + 3_600_000,
  );
  await inviting.close();

  const server = await startServerProcess({
    // The read limit is for people: the benchmark reads far more leads than a shift does.
    env: { LEADS_DB: dbFile, CLIENT_DIR: clientDir, LOG_LEVEL: 'warn', STAFF_READ_LIMIT: '1000000000' },
  });
  try {
    // localhost, not 127.0.0.1: a passkey is bound to a host name.
    const client = new StaffClient(server.url.replace('127.0.0.1', 'localhost'));
    const enrolled = await client.enrol(token);
    if (enrolled.status !== 200) throw new Error(`enrolment answered ${enrolled.status}`);

    const searches = ['Maria Garcia', 'nguy', '5551231234', '1234', 'james'];
    for (let i = 0; i < 10; i++) await timed(client, '/leads?limit=50');
    const list: number[] = [];
    const search: number[] = [];
    for (let i = 0; i < requests; i++) {
      list.push(await timed(client, '/leads?limit=50'));
      const q = searches[i % searches.length] ?? '';
      search.push(await timed(client, '/leads/search', { limit: 50, q }));
    }
    const listP95 = summary('first page of the list', list);
    const searchP95 = summary('search (name, first letters, phone, last four)', search);

    const queue: number[] = [];
    for (let i = 0; i < requests; i++) queue.push(await timed(client, '/leads?view=needs-action&limit=50'));
    const queueP95 = summary('"needs action" queue, first page', queue);

    const first = await client.get('/leads?view=needs-action&limit=20');
    const ids = ((await first.json()) as { leads: { id: string }[] }).leads.map((lead) => lead.id);
    const { streams, close } = await openStreams(client, LISTS);
    const fanout: number[] = [];
    try {
      for (let i = 0; i < Math.min(requests, 100); i++) {
        const id = ids[i % ids.length] ?? '';
        const started = performance.now();
        const heard = Promise.all(streams.map((stream) => stream.waitFor(id)));
        const action = i % 2 === 0 ? 'claim' : 'release';
        const answer = await client.post(`/leads/${id}/${action}`);
        if (answer.status !== 200) throw new Error(`${action} answered ${answer.status}`);
        await heard;
        fanout.push(performance.now() - started);
        // The next change to this id must not be taken for this one.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      close();
    }
    const fanoutP95 = summary(`one change to ${LISTS} open lists`, fanout);
    console.log(
      `list_p95_ms=${listP95} search_p95_ms=${searchP95} queue_p95_ms=${queueP95} fanout_p95_ms=${fanoutP95}`,
    );
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

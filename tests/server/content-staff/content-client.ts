// What the content API tests share: the server they run against (the real app serving the live release stored from
// dist/, on a clock the test moves), members of given roles enrolled with their software passkeys, the fentanyl page's
// detox duration (a clinical field) set in a change set, and a change set taken through edit, submit and approval.
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { StaffRole } from '../../../contracts/staff-api.ts';
import { ROOT } from '../../../content/paths.ts';
import type { MemberProfile } from '../../../server/store/contract/staff-store.ts';
import {
  startInProcessServer,
  type InProcessServer,
  type InProcessServerOptions,
} from '../../helpers/in-process-server.ts';
import { DAY_MS, StaffClient } from '../staff/staff-client.ts';

export const PAGE = 'pages/treatment/fentanyl-addiction.json';
export const PAGE_URL = '/treatment/fentanyl-addiction';
export const API = '/content/changes';
export type Page = { blocks: Record<string, unknown>[] } & Record<string, unknown>;

/** A member with these roles, enrolled (a fresh passkey check) at `now`. */
export async function member(
  server: InProcessServer,
  email: string,
  roles: StaffRole[],
  now: number,
  profile?: MemberProfile,
): Promise<StaffClient> {
  const { token } = await server.store.staff.createInvite(email, roles, now + DAY_MS, { now, profile });
  const client = new StaffClient(server.url);
  const enrolled = await client.enrol(token);
  if (enrolled.status !== 200) throw new Error(`enrol: ${enrolled.status} ${await enrolled.text()}`);
  return client;
}

/** What a test may set beside the clock: a webhook, PostgreSQL, the schedule's tick. */
export type ContentServerOptions = Omit<InProcessServerOptions, 'staff' | 'releases'> & {
  scheduleTickMs?: number;
};

/** The app with the content API, serving the live release built from dist/ (npm run build), on the clock `now`. */
export const startContentServer = (
  now: () => number,
  { scheduleTickMs, ...options }: ContentServerOptions = {},
): Promise<InProcessServer> =>
  startInProcessServer({
    ...options,
    staff: { now },
    releases: { codeDir: join(ROOT, 'dist'), pollMs: 100, ...(scheduleTickMs ? { scheduleTickMs } : {}) },
  });

/** A test file's content server and clock: started before its tests, stopped after them. */
export interface ContentTest {
  readonly server: InProcessServer;
  /** The staff area's time; a test moves it forward (a passkey check's age, a schedule, presence). */
  clock: number;
  /** A member with these roles, enrolled now. */
  member(email: string, roles: StaffRole[], profile?: MemberProfile): Promise<StaffClient>;
}

/** Registers the file's server (beforeAll, afterAll); `options` runs in beforeAll (a receiver's URL, say). */
export function contentTest(
  options: () => ContentServerOptions | Promise<ContentServerOptions> = () => ({}),
): ContentTest {
  let server: InProcessServer | undefined;
  const test: ContentTest = {
    get server() {
      if (!server) throw new Error('the content server starts in beforeAll');
      return server;
    },
    clock: Date.now(),
    member: (email, roles, profile) => member(test.server, email, roles, test.clock, profile),
  };
  beforeAll(async () => {
    server = await startContentServer(() => test.clock, await options());
  }, 60_000);
  afterAll(() => server?.stop());
  return test;
}

export const put = (client: StaffClient, id: string, document: unknown, baseVersion: string) =>
  client.request('PUT', `${API}/${id}/documents?file=${PAGE}`, { document, baseVersion });

/** The page with the first timeline item's detox duration (a clinical field) set to `duration`. */
export function withDuration(page: Page, duration: string): Page {
  const copy = structuredClone(page);
  const timeline = copy.blocks[4] as { items: { duration: string }[] };
  timeline.items[0]!.duration = duration;
  return copy;
}

/** Sets the detox duration in change set `id` from the copy it holds now (or the live one). */
export async function setDuration(editor: StaffClient, id: string, duration: string): Promise<string> {
  const copy = await editor.json<{ document: Page; version: string }>(
    await editor.get(`${API}/${id}/documents?file=${PAGE}`),
  );
  return (
    await editor.json<{ version: string }>(
      await put(editor, id, withDuration(copy.document, duration), copy.version),
    )
  ).version;
}

/** A change set of the detox duration, submitted and approved by `reviewer`: its id. */
export async function approvedChange(
  editor: StaffClient,
  reviewer: StaffClient,
  title: string,
  duration: string,
): Promise<string> {
  const { id } = await editor.json<{ id: string }>(await editor.post(API, { title }), 201);
  await setDuration(editor, id, duration);
  await editor.json(await editor.post(`${API}/${id}/submit`));
  // An approval asks for a passkey check of the last 5 minutes: the tests move the clock.
  await reviewer.reauthenticate();
  await reviewer.json(await reviewer.post(`${API}/${id}/approve`));
  return id;
}

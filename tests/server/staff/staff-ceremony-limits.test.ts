// Starting a passkey ceremony needs no session and stores a challenge row, so both are bounded: each address may start
// a few per 10 minutes (429 with Retry-After), and the table keeps a fixed number of unexpired challenges from every
// address together (503, try again) until they expire. (How one network's share is bounded: staff-sign-in-flood.test.ts.)
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { StaffClient, invite } from './staff-client.ts';

const STARTS = 4;
const MAX_CHALLENGES = 10;
const PER_NETWORK = 5;
let clock = Date.now();
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({
    trustProxy: 'loopback',
    staff: {
      now: () => clock,
      ceremonyStarts: STARTS,
      maxChallenges: MAX_CHALLENGES,
      networkChallenges: PER_NETWORK,
    },
  });
});
afterAll(() => server.stop());

const from = (address: string) => ({ 'X-Forwarded-For': address });
const challengeRows = () => {
  const db = new Database(server.dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM webauthn_challenges').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('ceremony starts per address', () => {
  it('answers 429 with Retry-After once an address has started its share, sign-in and enrolment together', async () => {
    const client = new StaffClient(server.url);
    const token = await invite(server, 'starts@example.org', false, clock + 60 * 60 * 1000);
    const statuses: number[] = [];
    for (let start = 0; start < STARTS; start += 1)
      statuses.push(
        (start % 2 === 0
          ? await client.post('/signin/options', {}, from('203.0.113.7'))
          : await client.post('/enrol/options', { token }, from('203.0.113.7'))
        ).status,
      );
    expect(statuses).toEqual(Array(STARTS).fill(200));
    for (const refused of [
      await client.post('/signin/options', {}, from('203.0.113.7')),
      await client.post('/enrol/options', { token }, from('203.0.113.7')),
    ]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toEqual({ error: 'too many sign-in attempts; try again later' });
    }
    expect(challengeRows()).toBe(STARTS);
    expect(await client.post('/signin/options', {}, from('203.0.113.8'))).toHaveProperty('status', 200);
  });
});

describe('challenges kept at most', () => {
  it('refuses a new ceremony with 503 while the table is full, and takes them again once the old ones expire', async () => {
    const client = new StaffClient(server.url);
    clock += 5 * 60 * 1000 + 1; // the first test's challenges expired
    // One challenge from each of as many networks: none holds more than another, so none gives way.
    for (let network = 1; network <= MAX_CHALLENGES; network += 1)
      expect(await client.post('/signin/options', {}, from(`198.51.${network}.1`))).toHaveProperty(
        'status',
        200,
      );
    const full = await client.post('/signin/options', {}, from('198.51.200.1'));
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await full.json()).toEqual({
      error: 'too many sign-ins in progress; try again in a few minutes',
    });
    expect(challengeRows()).toBe(MAX_CHALLENGES);

    clock += 5 * 60 * 1000 + 1;
    expect(await client.post('/signin/options', {}, from('192.0.2.1'))).toHaveProperty('status', 200);
    expect(challengeRows()).toBe(1);
  });
});

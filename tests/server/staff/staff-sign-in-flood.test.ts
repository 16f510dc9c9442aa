// Staff sign-in while someone floods the passkey ceremony's start from many addresses of a few networks (what a botnet
// in one hosting provider, or one IPv6 prefix, has): each network may hold only its share of the challenge table, a
// full table gives way from the network holding most of it, and a member signing in from anywhere else gets in.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { StaffClient, invite } from './staff-client.ts';

const MAX_CHALLENGES = 20;
const PER_NETWORK = 8;
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({
    trustProxy: 'loopback',
    staff: { maxChallenges: MAX_CHALLENGES, networkChallenges: PER_NETWORK },
  });
});
afterAll(() => server.stop());

const from = (address: string) => ({ 'X-Forwarded-For': address });
const challengesByNetwork = () => {
  const db = new Database(server.dbFile, { readonly: true });
  try {
    return db
      .prepare('SELECT network, COUNT(*) AS n FROM webauthn_challenges GROUP BY network ORDER BY network')
      .all() as { network: string; n: number }[];
  } finally {
    db.close();
  }
};

/** Every address of the flood starts two sign-ins: the status of each start. */
async function flood(addresses: string[]): Promise<number[]> {
  const attacker = new StaffClient(server.url);
  const statuses: number[] = [];
  for (const address of addresses)
    for (let start = 0; start < 2; start += 1)
      statuses.push((await attacker.post('/signin/options', {}, from(address))).status);
  return statuses;
}

describe('staff sign-in under a flood of ceremony starts', () => {
  it('gives each network only its share, and a member from elsewhere still signs in with a passkey', async () => {
    // Enrolled before the flood, from the clinic's network.
    const member = new StaffClient(server.url, { headers: from('192.0.2.44') });
    expect((await member.enrol(await invite(server, 'nurse@example.org'))).status).toBe(200);
    member.cookie = undefined;

    const ipv4 = (network: string) => Array.from({ length: 12 }, (_, n) => `${network}.${n + 10}`);
    const ipv6 = Array.from({ length: 12 }, (_, n) => `2001:db8:0:7::${(n + 1).toString(16)}`);
    const statuses = [
      ...(await flood(ipv4('203.0.113'))),
      ...(await flood(ipv4('198.51.100'))),
      ...(await flood(ipv6)),
    ];
    // Past its network's share, or once the table is full and no network holds more, a start is refused.
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(MAX_CHALLENGES);
    expect(new Set(statuses)).toEqual(new Set([200, 503]));

    // The table is full, and the member's network holds none of it: the flood's oldest challenge gives way.
    const signedIn = await member.signIn();
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toEqual({
      email: 'nurse@example.org',
      admin: false,
      roles: ['admissions'],
    });
    expect(signedIn.headers.get('set-cookie')).toMatch(/^staff_session=/);
    expect((await member.get('/me')).status).toBe(200);

    // No network ever held more than its share of the table, and the table never more than its bound.
    const held = challengesByNetwork();
    expect(held.reduce((sum, { n }) => sum + n, 0)).toBeLessThanOrEqual(MAX_CHALLENGES);
    for (const { n } of held) expect(n).toBeLessThanOrEqual(PER_NETWORK);

    // A second member's address in yet another network, IPv6 this time, as well.
    const other = new StaffClient(server.url, { headers: from('2001:db8:ffff:1::5') });
    const options = await other.post('/signin/options');
    expect(options.status).toBe(200);
  });
});

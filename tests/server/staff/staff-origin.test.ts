// The staff area lives at one origin, STAFF_ORIGIN: another Host is refused, the passkeys' relying party is that origin's
// host whatever the request says, and the session cookie is `__Host-` over HTTPS, refused when sent twice, and set only
// once the sign-in's audit row is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactRequest } from '../../helpers/http.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { StaffClient, invite } from './staff-client.ts';

const TWO_COOKIES = 'your browser sent two sign-in cookies, so neither is trusted; please sign in again';
const portOf = (url: string) => new URL(url).port;

describe('at http://localhost (a developer machine)', () => {
  let server: InProcessServer;
  let origin: string;
  beforeAll(async () => {
    server = await startInProcessServer({
      staff: { origin: (url) => `http://localhost:${portOf(url)}` },
    });
    origin = `http://localhost:${portOf(server.url)}`;
  });
  afterAll(() => server.stop());

  it('refuses the staff area under another Host with 421, saying where it is', async () => {
    for (const host of ['127.0.0.1', 'evil.example', 'www.example.com', 'localhost.evil.example'].map(
      (name) => `${name}:${portOf(server.url)}`,
    )) {
      const page = await exactRequest(server.url, { path: '/staff/', headers: { host } });
      expect(page.status).toBe(421);
      expect(page.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(page.body.toString()).toBe(`The staff area is not at this address. Open ${origin}/staff/`);
      expect(page.headers['x-frame-options']).toBe('DENY');

      const api = await exactRequest(server.url, {
        path: '/staff/api/signin/options',
        method: 'POST',
        headers: {
          host,
          origin: `http://${host}`,
          'x-staff-request': '1',
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect(api.status).toBe(421);
      expect(JSON.parse(api.body.toString())).toEqual({
        error: `The staff area is not at this address. Open ${origin}/staff/`,
      });
    }
    const own = await exactRequest(server.url, {
      path: '/staff/',
      headers: { host: `LocalHost:${portOf(server.url)}` },
    });
    expect(own.status).toBe(200);
    // The site itself still answers any Host.
    expect((await exactRequest(server.url, { path: '/', headers: { host: 'evil.example' } })).status).toBe(
      200,
    );
  });

  it("names STAFF_ORIGIN's host as the relying party whatever the Host, and expects that origin", async () => {
    const client = new StaffClient(origin);
    const options = await client.json<{ rpId: string }>(await client.post('/signin/options'));
    expect(options.rpId).toBe('localhost');
    // A name someone else pointed at this server gets no challenge for its own relying party.
    const host = `staff.evil.example:${portOf(server.url)}`;
    const foreign = await exactRequest(server.url, {
      path: '/staff/api/signin/options',
      method: 'POST',
      headers: { host, origin: `http://${host}`, 'x-staff-request': '1', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(foreign.status).toBe(421);
    expect(foreign.body.toString()).not.toContain('rpId');
    // A page of another origin cannot start a ceremony.
    expect((await client.post('/signin/options', {}, { Origin: 'http://evil.example' })).status).toBe(403);
  });

  it('sets a plain staff_session cookie on loopback http, and refuses two of them', async () => {
    const client = new StaffClient(origin);
    const enrolled = await client.enrol(await invite(server, 'two.cookies@example.org'));
    expect(enrolled.status).toBe(200);
    expect(enrolled.headers.get('set-cookie')).toMatch(
      /^staff_session=[\w-]+\.[\w-]+; Path=\/staff; HttpOnly; SameSite=Strict$/,
    );
    const good = client.cookie ?? '';
    expect((await client.get('/me')).status).toBe(200);

    for (const cookie of [`${good}; staff_session=forged.value`, `staff_session=forged.value; ${good}`]) {
      client.cookie = cookie;
      const refused = await client.get('/me');
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: TWO_COOKIES });
      expect(refused.headers.get('set-cookie')).toMatch(
        /^staff_session=; Path=\/staff; Expires=Thu, 01 Jan 1970/,
      );
    }
  });

  it('sets the session cookie only once the sign-in is in the audit log', async () => {
    const client = new StaffClient(origin);
    expect((await client.enrol(await invite(server, 'audited@example.org'))).status).toBe(200);
    client.cookie = undefined;
    const audit = server.store.audit;
    const append = audit.append.bind(audit);
    audit.append = (entry) =>
      entry.action === 'sign-in' ? Promise.reject(new Error('audit log unavailable')) : append(entry);
    try {
      const refused = await client.signIn();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('set-cookie')).toBeNull();
      expect(await refused.json()).toEqual({ error: 'the inbox is not available; try again shortly' });
    } finally {
      audit.append = append;
    }
    const signedIn = await client.signIn();
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('set-cookie')).toMatch(/^staff_session=/);
  });
});

describe('at an https origin behind a proxy', () => {
  let server: InProcessServer;
  let origin: string;
  beforeAll(async () => {
    server = await startInProcessServer({
      trustProxy: 'loopback',
      staff: { origin: (url) => `https://localhost:${portOf(url)}` },
    });
    origin = `https://localhost:${portOf(server.url)}`;
  });
  afterAll(() => server.stop());

  const client = () =>
    new StaffClient(`http://localhost:${portOf(server.url)}`, {
      origin,
      headers: { 'X-Forwarded-Proto': 'https' },
    });

  it('names the cookie __Host-staff_session: Secure, Path=/, no Domain', async () => {
    const staff = client();
    const enrolled = await staff.enrol(await invite(server, 'https@example.org'));
    expect(enrolled.status).toBe(200);
    const cookie = enrolled.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      /^__Host-staff_session=[\w-]+\.[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Strict$/,
    );
    expect(cookie).not.toMatch(/Domain=/i);
    expect((await staff.get('/me')).status).toBe(200);

    // The plain name, which any sibling host could have set, is not a session here.
    const [, value] = (staff.cookie ?? '').split('=');
    staff.cookie = `staff_session=${value}`;
    expect((await staff.get('/me')).status).toBe(401);
  });

  it('refuses two __Host- cookies and clears its own', async () => {
    const staff = client();
    expect((await staff.enrol(await invite(server, 'https.two@example.org'))).status).toBe(200);
    staff.cookie = `${staff.cookie ?? ''}; __Host-staff_session=stale.cookie`;
    const refused = await staff.get('/me');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: TWO_COOKIES });
    expect(refused.headers.get('set-cookie')).toMatch(
      /^__Host-staff_session=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('expects the https origin in the passkey ceremony, from the configuration, not from the request', async () => {
    // Even when the proxy forgets X-Forwarded-Proto, the page's origin is STAFF_ORIGIN's.
    const staff = new StaffClient(`http://localhost:${portOf(server.url)}`, { origin });
    const options = await staff.json<{ rpId: string }>(await staff.post('/signin/options'));
    expect(options.rpId).toBe('localhost');
    const plain = await staff.post(
      '/signin/options',
      {},
      { Origin: `http://localhost:${portOf(server.url)}` },
    );
    expect(plain.status).toBe(403);
  });
});

// What the staff API tests share: a client that keeps its session cookie as a browser does and sends what the inbox app
// sends (Origin, X-Staff-Request), an invitation straight from the store, and enrolment and sign-in with the software
// authenticator.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { SoftAuthenticator } from '../../helpers/soft-authenticator.ts';
import type { InProcessServer } from '../../helpers/in-process-server.ts';
import { createdId, postJson } from '../../helpers/fixtures.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

export class StaffClient {
  cookie: string | undefined;
  readonly authenticator = new SoftAuthenticator();
  /**
   * `base` is where requests go; `origin`, the page's origin the browser reports (an https one behind a proxy), and
   * `headers`, what every request adds (such as X-Forwarded-Proto from that proxy).
   */
  constructor(
    readonly base: string,
    private readonly options: { origin?: string; headers?: Record<string, string> } = {},
  ) {}

  get origin(): string {
    return this.options.origin ?? new URL(this.base).origin;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.base}/staff/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(method === 'GET' ? {} : { Origin: this.origin, 'X-Staff-Request': '1' }),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...this.options.headers,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    const set = response.headers.get('set-cookie');
    if (set) {
      const pair = set.split(';')[0] ?? '';
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return response;
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body: unknown = {}, headers?: Record<string, string>) =>
    this.request('POST', path, body, headers);

  async json<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
    const text = await response.text();
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  }

  /** Opens the enrolment link: registers a new passkey with the invitation. */
  async enrol(token: string, options: { unverified?: boolean } = {}): Promise<Response> {
    const created = await this.post('/enrol/options', { token });
    if (created.status !== 200) return created;
    const publicKey = (await created.json()) as PublicKeyCredentialCreationOptionsJSON;
    const response = this.authenticator.register(publicKey, { origin: this.origin, ...options });
    return this.post('/enrol/verify', { token, response });
  }

  /** The passkey again in this session (a re-authentication), as the inbox asks for it before adding a passkey. */
  async reauthenticate(options: { unverified?: boolean } = {}): Promise<Response> {
    const request = await this.json<PublicKeyCredentialRequestOptionsJSON>(
      await this.post('/reauth/options'),
    );
    return this.post('/reauth/verify', {
      response: this.authenticator.assert(request, { origin: this.origin, ...options }),
    });
  }

  /** A request the inbox makes on its own (X-Staff-Background), never its member's activity. */
  background = (path: string) => this.request('GET', path, undefined, { 'X-Staff-Background': '1' });

  async signIn(): Promise<Response> {
    const options = await this.json<PublicKeyCredentialRequestOptionsJSON>(
      await this.post('/signin/options'),
    );
    return this.post('/signin/verify', {
      response: this.authenticator.assert(options, { origin: this.origin }),
    });
  }
}

/** An invitation as `npm run staff -- invite` makes it: its token. */
export async function invite(
  server: InProcessServer,
  email: string,
  admin = false,
  expiresAt = Date.now() + DAY_MS,
) {
  return (
    await server.store.staff.createInvite(email, admin ? ['admissions', 'admin'] : ['admissions'], expiresAt)
  ).token;
}

/** A member, enrolled and signed in. */
export async function enrolled(server: InProcessServer, email: string, admin = false): Promise<StaffClient> {
  const client = new StaffClient(server.url);
  const response = await client.enrol(await invite(server, email, admin));
  if (response.status !== 200) throw new Error(`enrol: ${response.status} ${await response.text()}`);
  return client;
}

export const consultationLead = {
  firstName: 'Rosa',
  lastName: 'Marquez',
  phone: '(555) 010-2233',
  email: 'rosa@example.org',
  concernFor: 'family',
  urgency: 'urgent',
  message: 'Please call after 5',
  source: '/treatment/fentanyl-addiction',
};

/** A consultation request as a visitor sends it; its lead id. */
export const sendLead = async (server: InProcessServer, fields: Record<string, string> = consultationLead) =>
  createdId(await postJson(`${server.url}/api/forms/consultation`, fields));

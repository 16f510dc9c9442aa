// The passkey ceremonies: enrol (from an invitation), sign in, re-authenticate (the passkey again, in a session), and
// add another passkey. Each asks the server for options, lets the browser and authenticator do their part, and sends
// the answer back to be verified. Adding or removing a passkey needs a passkey check of the last 5 minutes: when the
// server says it is stale, the app asks for the passkey again and tries once more.
import {
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import {
  REFUSED,
  type CredentialRequest,
  type EnrolOptionsRequest,
  type EnrolVerifyRequest,
  type Me,
  type SignedInMember as SignedIn,
} from '../contracts/staff-api.ts';
import { api, ApiError, request } from './api.ts';

export async function enrol(token: string): Promise<SignedIn> {
  const optionsJSON = await request<PublicKeyCredentialCreationOptionsJSON>('/enrol/options', {
    method: 'POST',
    body: { token } satisfies EnrolOptionsRequest,
  });
  const response = await startRegistration({ optionsJSON });
  return request<SignedIn>('/enrol/verify', {
    method: 'POST',
    body: { token, response } satisfies EnrolVerifyRequest,
  });
}

export async function signIn(): Promise<SignedIn> {
  const optionsJSON = await request<PublicKeyCredentialRequestOptionsJSON>('/signin/options', {
    method: 'POST',
    body: {},
  });
  const response = await startAuthentication({ optionsJSON });
  return request<SignedIn>('/signin/verify', {
    method: 'POST',
    body: { response } satisfies CredentialRequest,
  });
}

/** The member's passkey again (user-verified), so that this session may add or remove a passkey. */
export async function reauthenticate(): Promise<void> {
  const optionsJSON = await request<PublicKeyCredentialRequestOptionsJSON>('/reauth/options', {
    method: 'POST',
    body: {},
  });
  const response = await startAuthentication({ optionsJSON });
  await request<void>('/reauth/verify', { method: 'POST', body: { response } satisfies CredentialRequest });
}

// The staff API says 403, the content API 401 (issue #28's interface), for the same reason.
const staleCheck = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 403 || error.status === 401) &&
  error.serverMessage === REFUSED.freshPasskey;

/** Runs `act`; when the server asks for a fresh passkey check first, asks for the passkey and runs it once more. */
export async function withFreshPasskey<T>(act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (error) {
    if (!staleCheck(error)) throw error;
  }
  await reauthenticate();
  return act();
}

export const addPasskey = (): Promise<Me> =>
  withFreshPasskey(async () => {
    const optionsJSON = await request<PublicKeyCredentialCreationOptionsJSON>('/passkeys/options', {
      method: 'POST',
      body: {},
    });
    const response = await startRegistration({ optionsJSON });
    return request<Me>('/passkeys/verify', {
      method: 'POST',
      body: { response } satisfies CredentialRequest,
    });
  });

export const removePasskey = (id: string): Promise<Me> => withFreshPasskey(() => api.removePasskey(id));

/** Stops a ceremony still waiting for the authenticator (the staff member left the screen). */
export const cancelCeremony = () => WebAuthnAbortService.cancelCeremony();

/** What to say when the browser or authenticator, not the server, ended a ceremony. */
export function ceremonyProblem(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'NotAllowedError' || error.name === 'AbortError')
    return 'The passkey request was cancelled or timed out. Try again.';
  if (error.name === 'InvalidStateError') return 'This device already holds a passkey for this account.';
  if (error.name === 'SecurityError' || error.name === 'NotSupportedError')
    return 'This browser cannot use passkeys here. Use an up-to-date browser on this device.';
  return undefined;
}

// The three passkey ceremonies: enrol (from an invitation), sign in, and add another passkey. Each asks the server
// for options, lets the browser and authenticator do their part, and sends the answer back to be verified.
import {
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type {
  CredentialRequest,
  EnrolOptionsRequest,
  EnrolVerifyRequest,
  SignedInMember as SignedIn,
} from '../contracts/staff-api.ts';
import { request } from './api.ts';

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

export async function addPasskey(): Promise<void> {
  const optionsJSON = await request<PublicKeyCredentialCreationOptionsJSON>('/passkeys/options', {
    method: 'POST',
    body: {},
  });
  const response = await startRegistration({ optionsJSON });
  await request<unknown>('/passkeys/verify', {
    method: 'POST',
    body: { response } satisfies CredentialRequest,
  });
}

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

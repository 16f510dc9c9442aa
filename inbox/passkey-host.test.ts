import { describe, expect, it } from 'vitest';
import { passkeyHostProblem } from './passkey-host.ts';

describe('where passkeys work', () => {
  it('tells a developer at an IP address which STAFF_ORIGIN to set, on the same port', () => {
    expect(passkeyHostProblem(new URL('http://127.0.0.1:4173/staff/'))).toBe(
      'Passkeys work only at a name, never at an IP address. Start the server with STAFF_ORIGIN=http://localhost:4173 and open http://localhost:4173/staff/ on this computer.',
    );
    expect(passkeyHostProblem(new URL('http://[::1]/staff/enrol'))).toBe(
      'Passkeys work only at a name, never at an IP address. Start the server with STAFF_ORIGIN=http://localhost and open http://localhost/staff/ on this computer.',
    );
    expect(passkeyHostProblem(new URL('https://10.0.0.5/staff/'))).toMatch(/localhost\/staff\//);
  });

  it('says nothing at a domain name', () => {
    for (const address of [
      'http://localhost:4173/staff/',
      'https://recovery.example.org/staff/',
      'https://1.example/',
    ])
      expect(passkeyHostProblem(new URL(address))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { passkeyHostProblem } from './passkey-host.ts';

describe('where passkeys work', () => {
  it('sends someone at an IP address to the site by name, on the same port', () => {
    expect(passkeyHostProblem(new URL('http://127.0.0.1:4173/staff/'))).toBe(
      "Passkeys work only at the site's name. Open http://localhost:4173/staff/ on this computer, or the site's address.",
    );
    expect(passkeyHostProblem(new URL('http://[::1]/staff/enrol'))).toBe(
      "Passkeys work only at the site's name. Open http://localhost/staff/ on this computer, or the site's address.",
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

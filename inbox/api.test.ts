import { describe, expect, it } from 'vitest';
import { REFUSED } from '../contracts/staff-api.ts';
import { explain, query } from './api.ts';

describe('what the inbox says when a request fails', () => {
  it('names each answer the server gives', () => {
    expect(explain(401, 'signed out', null)).toMatch(/signed out/i);
    expect(explain(403, 'cross-site request', null)).toMatch(/did not come from the inbox/);
    expect(explain(403, 'admins only', null)).toBe('Only admins can do this.');
    expect(explain(403, 'invalid or expired invitation', null)).toMatch(/already used or it has expired/);
    expect(explain(404, 'not found', null)).toBe('That lead was not found.');
    expect(explain(429, 'too many', '42')).toBe('Too many attempts, try again in 42 seconds.');
    expect(explain(429, 'too many leads read in a short time; try again in a few minutes', '90')).toBe(
      'Too many leads were opened in a short time. Try again in 90 seconds.',
    );
    expect(explain(503, undefined, null)).toMatch(/cannot reach its database/);
    expect(explain(503, 'too many sign-ins in progress; try again in a few minutes', '300')).toBe(
      'Too many sign-ins in progress; try again in a few minutes.',
    );
    expect(explain(409, 'this passkey is registered already', null)).toBe(
      'This passkey is registered already.',
    );
    expect(explain(403, REFUSED.revokedInvitation, null)).toMatch(/your access to the inbox was ended/);
    expect(explain(403, REFUSED.cancelledInvitation, null)).toMatch(/was cancelled by an admin/);
    expect(explain(403, REFUSED.freshPasskey, null)).toMatch(/Confirm it is you with your passkey/);
    expect(explain(409, REFUSED.lastPasskey, null)).toMatch(/only passkey/);
  });

  it('leaves unset filters out of the query', () => {
    expect(query({})).toBe('');
    expect(query({ status: 'new', form: '', before: 'abc' })).toBe('?status=new&before=abc');
  });
});

describe('a content act that needs the passkey again', () => {
  it('keeps the session: a 401 for a stale passkey check is not a sign-out', async () => {
    const { request, whenSignedOut } = await import('./api.ts');
    let signedOut = 0;
    whenSignedOut(() => {
      signedOut += 1;
    });
    const realFetch = globalThis.fetch;
    globalThis.fetch = async () =>
      new Response(JSON.stringify({ error: REFUSED.freshPasskey }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      });
    try {
      await expect(request('/content/changes/x/approve', { method: 'POST', body: {} })).rejects.toMatchObject(
        {
          status: 401,
          serverMessage: REFUSED.freshPasskey,
        },
      );
      expect(signedOut).toBe(0);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

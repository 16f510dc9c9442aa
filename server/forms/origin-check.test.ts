import { describe, expect, it } from 'vitest';
import { isSameHost } from './origin-check.ts';

describe('origin check', () => {
  it('matches an Origin to the Host it was sent to, whatever the scheme', () => {
    expect(isSameHost('https://www.example.com', 'www.example.com')).toBe(true);
    expect(isSameHost('http://127.0.0.1:3000', '127.0.0.1:3000')).toBe(true);
    expect(isSameHost('http://WWW.Example.com', 'www.example.COM')).toBe(true);
  });

  it('refuses another host or port, an opaque origin and a missing Host', () => {
    expect(isSameHost('https://evil.example', 'www.example.com')).toBe(false);
    expect(isSameHost('https://www.example.com.evil.example', 'www.example.com')).toBe(false);
    expect(isSameHost('http://127.0.0.1:3001', '127.0.0.1:3000')).toBe(false);
    expect(isSameHost('null', 'www.example.com')).toBe(false);
    expect(isSameHost('https://www.example.com', undefined)).toBe(false);
    expect(isSameHost('not a url', 'not a url')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { queryOf, siteLocation } from './redirects.ts';

describe('siteLocation', () => {
  it('keeps the query of the request target, in origin form or absolute form', () => {
    expect(siteLocation('/', '/blog?x=1')).toBe('/?x=1');
    expect(siteLocation('/', 'http://evil.example/blog?x=1')).toBe('/?x=1');
    expect(siteLocation('/', 'http://evil.example/blog')).toBe('/');
    expect(siteLocation('/#addictions', '/addictions?utm=a')).toBe('/?utm=a#addictions');
    expect(queryOf('http://evil.example')).toBe('');
  });

  it('refuses a target that a browser would read as another host', () => {
    for (const target of ['//evil.example', '/\\evil.example', 'http://evil.example/', 'evil.example', ''])
      expect(siteLocation(target, '/blog'), target).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { htmlFile, pageFile, pagePath } from './page-paths.ts';

describe('page paths', () => {
  it.each([
    ['pages/index.json', '/'],
    ['pages/services/medical-detox.json', '/services/medical-detox'],
    ['/pages/treatment/index.json', '/treatment'],
    ['pages/privacy-policy.json', '/privacy-policy'],
  ])('%s is served at %s', (file, path) => {
    expect(pagePath(file)).toBe(path);
  });

  it('maps a path back to its document and its prerendered file', () => {
    expect(pageFile('/')).toBe('pages/index.json');
    expect(pageFile('/services/medical-detox')).toBe('pages/services/medical-detox.json');
    expect(htmlFile('/')).toBe('index.html');
    expect(htmlFile('/services/medical-detox')).toBe('services/medical-detox.html');
  });

  it('rejects files outside pages/', () => {
    expect(() => pagePath('site/site.json')).toThrow(/Not a page document/);
  });
});

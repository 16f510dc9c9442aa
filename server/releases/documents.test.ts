// withContentRoot: the documents are there while `use` runs (sync or async), and the folder is gone after, also when
// `use` throws or its promise rejects.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withContentRoot } from './documents.ts';

const DOCUMENTS = [{ path: 'pages/index.json', text: '{ "title": "Home" }\n' }];

describe('withContentRoot', () => {
  it('gives a root holding the documents to a sync use, and removes it after', () => {
    let seen = '';
    const answer = withContentRoot(DOCUMENTS, (root, outDir) => {
      seen = root;
      expect(readFileSync(join(root, 'pages', 'index.json'), 'utf8')).toBe(DOCUMENTS[0]!.text);
      expect(outDir).not.toBe(root);
      return 42;
    });
    expect(answer).toBe(42);
    expect(existsSync(seen)).toBe(false);
  });

  it('keeps the root until an async use settles, then removes it', async () => {
    let seen = '';
    const answer = withContentRoot(DOCUMENTS, async (root) => {
      seen = root;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return existsSync(join(root, 'pages', 'index.json'));
    });
    expect(existsSync(seen)).toBe(true);
    expect(await answer).toBe(true);
    expect(existsSync(seen)).toBe(false);
  });

  it('removes the root when use throws or rejects', async () => {
    let seen = '';
    expect(() =>
      withContentRoot(DOCUMENTS, (root) => {
        seen = root;
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(existsSync(seen)).toBe(false);
    await expect(
      withContentRoot(DOCUMENTS, async (root) => {
        seen = root;
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
    expect(existsSync(seen)).toBe(false);
  });
});

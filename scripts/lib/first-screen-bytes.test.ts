import { randomBytes } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedBytesUntil } from './first-screen-bytes.ts';

describe('compressedBytesUntil', () => {
  // Text that does not compress, so where the marker lies in the stream is known within a few bytes.
  const noise = (bytes: number) => randomBytes(bytes).toString('base64');
  const page = `${noise(9000)}<span id="end"></span>${noise(9000)}`;
  const before = page.indexOf('<span');

  it.each([
    ['gzip', gzipSync(page, { level: 9 })],
    ['br', brotliCompressSync(page)],
  ] as const)(
    'counts the %s bytes a browser needs to read the marker, not the whole response',
    (encoding, body) => {
      const bytes = compressedBytesUntil(body, encoding, 'id="end"')!;
      // Base64 is 6 bits a character: the compressed text before the marker is about 3/4 of its length.
      expect(bytes).toBeGreaterThan(before * 0.74);
      expect(bytes).toBeLessThan(before * 0.78);
      expect(bytes).toBeLessThan(body.length * 0.6);
    },
  );

  it('answers null when the marker is not in the page', () => {
    expect(compressedBytesUntil(gzipSync(page), 'gzip', 'id="elsewhere"')).toBeNull();
  });
});

// Every text file of the built site, compressed once at build time (brotli and gzip, at their best levels), so
// neither our server nor nginx (`gzip_static`, `brotli_static`) compresses per request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The files worth compressing, by name: text formats. */
export const COMPRESSIBLE = /\.(html|js|css|json|xml|txt|svg|webmanifest)$/;

/** A file's brotli and gzip copies, each at its best level. */
export function compressedCopies(body: Buffer): { br: Buffer; gzip: Buffer } {
  return {
    br: brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    gzip: gzipSync(body, { level: 9 }),
  };
}

export function precompress(dir: string): { files: number } {
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || entry.parentPath.includes('.vite')) continue;
    const file = join(entry.parentPath, entry.name);
    const body = readFileSync(file);
    const { br, gzip } = compressedCopies(body);
    writeFileSync(`${file}.gz`, gzip);
    writeFileSync(`${file}.br`, br);
    files++;
  }
  return { files };
}

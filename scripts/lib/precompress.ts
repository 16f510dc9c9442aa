// Every text file of the built site, compressed once at build time (brotli and gzip, at their best levels), so
// neither our server nor nginx (`gzip_static`, `brotli_static`) compresses per request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(html|js|css|json|xml|txt|svg|webmanifest)$/;

export function precompress(dir: string): { files: number } {
  let files = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name) || entry.parentPath.includes('.vite')) continue;
    const file = join(entry.parentPath, entry.name);
    const body = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
    files++;
  }
  return { files };
}

// Every text file of the built site, compressed once at build time (brotli and gzip), so neither our server nor nginx
// (`gzip_static`, `brotli_static`) compresses per request.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

/** The files worth compressing, by name: text formats. */
export const COMPRESSIBLE = /\.(html|js|css|json|xml|txt|svg|webmanifest)$/;

/** Hashed assets at least this big are the shared bundles every page loads, worth brotli's best level. */
const SHARED_BUNDLE_MIN_BYTES = 32 * 1024;

/**
 * Brotli's best level (11) for the big hashed bundles: a few files, loaded by every page and cached for a year, where
 * every byte saved is saved for every visitor. Level 6 for the rest, which are many (a page and a page-data chunk
 * per page) and each fetched by itself: level 11 costs about 50 times level 6 (0.4 s against 8 ms for a 200 KB page
 * on this machine, minutes for a thousand pages) for a page about a tenth smaller (24 KB against 27 KB).
 */
function brotliOptions(file: string, body: Buffer): BrotliOptions {
  const shared = file.includes(`${sep}assets${sep}`) && body.length >= SHARED_BUNDLE_MIN_BYTES;
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: shared ? 11 : 6,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  };
}

/** gzip is for the few clients without brotli; level 6 is within 2% of level 9's size at a third less time. */
const GZIP_OPTIONS = { level: 6 };

/** A file's brotli and gzip copies, made at once (a prerendered page; the server's copies of a build without them). */
export function compressedCopies(file: string, body: Buffer): { br: Buffer; gzip: Buffer } {
  return { br: brotliCompressSync(body, brotliOptions(file, body)), gzip: gzipSync(body, GZIP_OPTIONS) };
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of `dir` but the pages, on libuv's threads (every core).
 * The prerender compresses each page as it writes it (core/prerender/), in its processes, one per core.
 */
export async function precompress(dir: string): Promise<{ files: number }> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        COMPRESSIBLE.test(entry.name) &&
        !entry.name.endsWith('.html') &&
        !entry.parentPath.includes('.vite'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const body = readFileSync(file);
      const [br, gz] = await Promise.all([
        brotliAsync(body, brotliOptions(file, body)),
        gzipAsync(body, GZIP_OPTIONS),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
  return { files: files.length };
}

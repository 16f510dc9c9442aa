// Pages and assets of the real build come precompressed from memory: the client's best encoding, the same bytes
// once decoded, one ETag per encoding, and caches told that the answer varies with Accept-Encoding.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../helpers/site-under-test.ts';
import { exactRequest } from '../../helpers/http.ts';

const CLIENT = join(import.meta.dirname, '..', '..', '..', 'dist', 'client');
let running: RunningSite;
beforeAll(async () => {
  running = await startSite();
});
afterAll(async () => {
  await running?.stop();
});

/** A GET with the body as served (fetch would decode it). */
const get = (path: string, encoding: string, etag?: string) =>
  exactRequest(`${running.url}${path}`, {
    headers: { 'Accept-Encoding': encoding, ...(etag ? { 'If-None-Match': etag } : {}) },
  });

describe('precompressed pages and assets', () => {
  const script = readdirSync(join(CLIENT, 'assets')).find((name) => name.endsWith('.js'))!;

  it.each([
    ['/services/medical-detox', 'services/medical-detox.html'],
    [`/assets/${script}`, `assets/${script}`],
  ])('%s comes as brotli, gzip or plain, each decoding to the built file', async (path, file) => {
    const original = readFileSync(join(CLIENT, file));
    const br = await get(path, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    const gz = await get(path, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);
    const plain = await get(path, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    expect((await get(path, 'br', String(br.headers.etag))).status).toBe(304);
  });
});

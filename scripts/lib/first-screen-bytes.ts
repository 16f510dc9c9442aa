// How many bytes of a page's response come before the end of its first screen, as a browser receives them: the status
// line and headers, then the compressed body up to the point where the decoder has given out the marker that ends the
// first block (renderer/shell/PageView.tsx). TCP's first round trip carries about 14 KB (an initial congestion window
// of 10 segments), so that is the budget (docs/decisions/2026-11-28-first-screen-first-round-trip.md).
import { request } from 'node:http';
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib';

/** The first round trip: 10 segments of 1,460 bytes is 14,600; 14 KB leaves a little for TLS records' framing. */
export const FIRST_ROUND_TRIP_BYTES = 14 * 1024;

export type Encoding = 'br' | 'gzip';

const partial: Record<Encoding, (body: Buffer) => Buffer> = {
  // Sync-flush decoding gives out what the bytes so far decode to, as a browser's streaming decoder does.
  gzip: (body) => gunzipSync(body, { finishFlush: constants.Z_SYNC_FLUSH }),
  br: (body) => brotliDecompressSync(body, { finishFlush: constants.BROTLI_OPERATION_FLUSH }),
};

/** The smallest prefix of `body` (compressed with `encoding`) whose decoding holds `marker`; null if none does. */
export function compressedBytesUntil(body: Buffer, encoding: Encoding, marker: string): number | null {
  const decodes = (length: number) => {
    try {
      return partial[encoding](body.subarray(0, length)).includes(marker);
    } catch {
      return false;
    }
  };
  if (!decodes(body.length)) return null;
  let [low, high] = [0, body.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (decodes(middle)) high = middle;
    else low = middle + 1;
  }
  return high;
}

/** The bytes of the status line and headers of an HTTP/1.1 response, as they were sent. */
function headerBytes(statusLine: string, rawHeaders: string[]): number {
  let bytes = Buffer.byteLength(`${statusLine}\r\n`);
  for (let i = 0; i < rawHeaders.length; i += 2)
    bytes += Buffer.byteLength(`${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`);
  return bytes + 2;
}

/**
 * GETs `url` accepting only `encoding` and counts the bytes that arrive before `marker` can be read: headers
 * included. Null when the page does not hold the marker (or was not sent compressed).
 */
export function firstScreenBytes(url: string, encoding: Encoding, marker: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        if (res.headers['content-encoding'] !== encoding) return resolve(null);
        const body = compressedBytesUntil(Buffer.concat(chunks), encoding, marker);
        const statusLine = `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`;
        resolve(body === null ? null : headerBytes(statusLine, res.rawHeaders) + body);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

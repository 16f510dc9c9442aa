// One JSON POST to the chat webhook, with a deadline for the whole exchange. node:http(s) with kept-alive connections
// rather than fetch: the worker may send many alerts in a row after an outage, on the same thread that answers
// visitors, and fetch costs several times the CPU per call.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface WebhookReply {
  status: number;
  /** The Retry-After header, when the receiver sent one. */
  retryAfter: string | null;
  /** The start of the answer's body (a receiver's explanation, such as Slack's 'invalid_payload'). */
  body: string;
}

export class WebhookTimeoutError extends Error {
  override name = 'TimeoutError';
}

// Enough for any explanation a webhook gives; a receiver that streams more is not read further.
const BODY_MAX_BYTES = 4096;
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

/** Resolves with the answer, or rejects (WebhookTimeoutError after `timeoutMs`, or the network error). */
export function postJson(url: string, json: string, timeoutMs: number): Promise<WebhookReply> {
  const target = new URL(url);
  const https = target.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, {
      method: 'POST',
      agent: https ? agents['https:'] : agents['http:'],
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) },
    });
    const timer = setTimeout(
      () => req.destroy(new WebhookTimeoutError(`timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    req.once('error', (error) => settle(() => reject(error)));
    req.once('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < BODY_MAX_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.once('error', (error) => settle(() => reject(error)));
      res.once('end', () =>
        settle(() =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
            body: Buffer.concat(chunks).subarray(0, BODY_MAX_BYTES).toString('utf8'),
          }),
        ),
      );
    });
    req.end(json);
  });
}

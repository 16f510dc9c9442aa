// A server behind a proxy that TRUST_PROXY does not name sees every visitor as the proxy: one address, one rate-limit
// bucket, and after a few leads everyone is turned away. The sign of it is X-Forwarded-For from a peer that is not
// trusted. That is an error for whoever runs the server, logged at the first such request and again every ten minutes
// while it lasts, with what to set (docs/decisions/2026-11-25-untrusted-forwarded-headers.md says why not more).
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { TrustProxy } from '../config.ts';
import { trustFunction } from '../http/security.ts';
import type { Logger } from '../logger.ts';

export const REPORT_EVERY_MS = 10 * 60 * 1000;

/**
 * What kind of network the peer is on, and its address when that names a machine of the deployment (loopback or a
 * private network) rather than, possibly, a visitor: a visitor's address stays out of the log.
 */
export function peerOf(address: string): { network: string; address?: string } {
  if (!ipaddr.isValid(address)) return { network: 'unknown' };
  const parsed = ipaddr.process(address);
  const network = parsed.range();
  const infrastructure = ['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat'];
  return infrastructure.includes(network) ? { network, address: parsed.toString() } : { network };
}

export interface ForwardedCheckOptions {
  trustProxy: TrustProxy;
  logger: Logger;
  /** The clock, for tests. */
  now?: () => number;
}

/** Looks at one request; logs an error when it was forwarded by a peer that is not trusted (at most every 10 min). */
export function forwardedCheck({ trustProxy, logger, now = Date.now }: ForwardedCheckOptions) {
  const trust = trustFunction(trustProxy);
  let nextReport = 0;
  let unreported = 0;
  return (req: IncomingMessage): void => {
    if (req.headers['x-forwarded-for'] === undefined) return;
    const peer = req.socket.remoteAddress ?? '';
    if (trust(peer, 0)) return;
    unreported += 1;
    if (now() < nextReport) return;
    nextReport = now() + REPORT_EVERY_MS;
    const { network, address } = peerOf(peer);
    const suggestion = network === 'loopback' ? 'loopback' : address;
    logger.error(
      {
        peer: network,
        peerAddress: address,
        requests: unreported,
        trustProxy: String(trustProxy),
        ...(suggestion ? { setTrustProxy: suggestion } : {}),
      },
      'form posts arrive with X-Forwarded-For from a peer TRUST_PROXY does not trust. If a proxy is in front of this ' +
        'server, every visitor shares its address and its rate limit: set TRUST_PROXY to the proxy ' +
        '(setTrustProxy, when given). If none is, visitors send the header themselves and it is ignored',
    );
    unreported = 0;
  };
}

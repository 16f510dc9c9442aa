import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How long a connection may take, on purpose (Node's defaults let a client that trickles its request hold a socket for
 * five minutes). A visitor's browser sends a form's headers in one packet and its body (16 KB at most) in a moment;
 * a client much slower than these is either broken or holding sockets on purpose.
 */
export const SERVER_LIMITS = {
  /** From a request's first byte to the end of its headers; then 408 and the connection closed. */
  headersTimeoutMs: 10_000,
  /** From a request's first byte to the end of its body; then 408 and the connection closed. */
  requestTimeoutMs: 15_000,
  /**
   * An idle keep-alive connection is closed after this. A proxy that reuses connections to this server must give up
   * an idle one sooner.
   */
  keepAliveTimeoutMs: 5_000,
  /** How often the two timeouts above are checked (Node's default, 30 s, would let them run late by that much). */
  checkEveryMs: 1_000,
  /** Open connections at most; any more are closed as they arrive, so file descriptors remain for the database. */
  maxConnections: 1_000,
} as const;

/** Starts listening and resolves once the port is bound; rejects with the bind error (such as EADDRINUSE). */
export function listen(app: RequestListener, port: number, host: string): Promise<Server> {
  const server = createServer(
    {
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      connectionsCheckingInterval: SERVER_LIMITS.checkEveryMs,
    },
    app,
  );
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeoutMs;
  server.maxConnections = SERVER_LIMITS.maxConnections;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export const addressOf = (server: Server): string => {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
};

// While closing, a keep-alive connection is closed as soon as its answer is sent, not a keep-alive timeout later.
const SWEEP_EVERY_MS = 100;

/** Stops accepting connections and resolves when the requests in progress are answered. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // A request that still arrives on an open connection is answered, and tells its client not to send another (before
    // the app's own listener, which may answer at once).
    server.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_EVERY_MS);
    server.close((error) => {
      clearInterval(sweep);
      if (error) reject(error);
      else resolve();
    });
    // Keep-alive connections with no request in progress would otherwise hold close() open until they time out.
    server.closeIdleConnections();
  });
}

// The one way to pick a port for a server a test or a benchmark starts.
import { createServer } from 'node:net';

/** A loopback port nobody listens on right now, so a server can be told where to listen before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

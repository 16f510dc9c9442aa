import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts listening and resolves once the port is bound; rejects with the bind error (such as EADDRINUSE). */
export function listen(app: RequestListener, port: number, host: string): Promise<Server> {
  const server = createServer(app);
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

/** Stops accepting connections and resolves when the requests in progress are answered. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections with no request in progress would otherwise hold close() open until they time out.
    server.closeIdleConnections();
  });
}

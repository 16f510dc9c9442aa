// A real local HTTP server standing in for Slack's incoming webhook: it records every message it receives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Receiver = { url: string; messages: unknown[]; close: () => Promise<void> };

export async function startReceiver(answer: () => number = () => 200): Promise<Receiver> {
  const messages: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const status = answer();
      if (status === 200) messages.push(JSON.parse(body));
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status === 200 ? 'ok' : 'error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

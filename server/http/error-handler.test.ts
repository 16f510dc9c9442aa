import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { errorHandler } from './error-handler.ts';
import { addressOf, close, listen } from './http-server.ts';
import { createLogger } from '../logger.ts';

const lines: string[] = [];
let server: Server;
let url: string;
beforeAll(async () => {
  const app = express();
  app.post('/api/echo', express.json(), (_req, res) => void res.json({}));
  app.get('/boom', () => {
    throw new Error('database is locked');
  });
  app.use(errorHandler(createLogger({ destination: { write: (line) => lines.push(line) } })));
  server = await listen(app, 0, '127.0.0.1');
  url = addressOf(server);
});
afterAll(() => close(server));

describe('error handler', () => {
  it('answers a parse error with 400 and never logs the body it carries', async () => {
    const response = await fetch(`${url}/api/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"memberId": "M-98765",',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'The request body is not valid JSON' });
    expect(lines.join('')).not.toContain('M-98765');
  });

  it('answers a fault of ours with 500 and logs it as an error', async () => {
    const response = await fetch(`${url}/boom`);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('database is locked');
    expect(
      lines.map((line) => JSON.parse(line) as { level: number; err?: { message: string } }),
    ).toContainEqual(
      expect.objectContaining({ level: 50, err: expect.objectContaining({ message: 'database is locked' }) }),
    );
  });
});

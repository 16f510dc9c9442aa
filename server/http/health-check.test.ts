import express from 'express';
import { describe, expect, it } from 'vitest';
import { healthCheck } from './health-check.ts';
import { addressOf, close, listen } from './http-server.ts';

describe('health check', () => {
  it('answers 503 when the lead database cannot be read', async () => {
    const app = express();
    app.get('/healthz', healthCheck({ isHealthy: () => false }));
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const response = await fetch(`${addressOf(server)}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 'unavailable' });
    } finally {
      await close(server);
    }
  });
});

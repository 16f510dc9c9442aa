// The studio's server, in request order: never framed by another page, only its own host and origin, then the JSON API, then the editor's pages
// (Vite, given by the caller), then a JSON not-found and error handler.
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { studioApi } from './api.ts';
import { localOnly, noFraming } from './guards.ts';

export function createStudioApp(port: number, client?: RequestHandler) {
  const app = express();
  app.disable('x-powered-by');
  app.use(noFraming());
  app.use(localOnly(port));
  app.use('/studio-api', studioApi());
  if (client) app.use(client);
  app.use((_req, res) => void res.status(404).json({ error: 'not found' }));
  const errors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    const status =
      typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
        ? error.status
        : 500;
    if (status >= 500) console.error(error);
    res.status(status).json({ error: status >= 500 ? 'the studio failed; see its terminal' : 'bad request' });
  };
  app.use(errors);
  return app;
}

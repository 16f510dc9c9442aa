import compression from 'compression';
import express, { type Express, type RequestHandler } from 'express';
import { errorHandler } from './error-handler.ts';
import type { Logger } from './logger.ts';
import { notFound } from './not-found.ts';
import { redirects } from './redirects.ts';
import type { RedirectRule } from '../renderer/content/redirects.ts';
import { security } from './security.ts';
import { staticPages } from './static-pages.ts';

export interface AppOptions {
  /** The prerendered build: index.html, <path>.html per page, 404.html, assets/. */
  clientDir: string;
  /** The form API of the lead pipeline (server/lead-pipeline.ts). */
  forms: RequestHandler;
  /** Old addresses and their pages (site/redirects.json). */
  redirectRules: RedirectRule[];
  logger: Logger;
}

/** The whole server, in the order a request meets it. */
export function createApp({ clientDir, forms, redirectRules, logger }: AppOptions): Express {
  const app = express();
  app.use(security());
  app.use(compression());
  app.use(staticPages(clientDir));
  app.use(redirects(redirectRules));
  app.use(forms);
  app.use(notFound(clientDir, logger));
  app.use(errorHandler(logger));
  return app;
}

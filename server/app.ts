import type { RequestListener } from 'node:http';
import compression from 'compression';
import express from 'express';
import { errorHandler } from './http/error-handler.ts';
import type { FormApi } from './forms/form-api.ts';
import type { Logger } from './logger.ts';
import { notFound } from './http/not-found.ts';
import { redirects } from './http/redirects.ts';
import type { RedirectRule } from '../core/redirects.ts';
import type { TrustProxy } from './config.ts';
import { secureRequests, security } from './http/security.ts';
import { loadStaticSite } from './http/static-pages.ts';
import { isStaffPath, type StaffArea } from './staff/staff-area.ts';

export interface AppOptions {
  /** The prerendered build: index.html, <path>.html per page, 404.html, assets/. */
  clientDir: string;
  /** The form API of the lead pipeline (server/lead-pipeline.ts). */
  forms: FormApi;
  /** Old addresses and their pages (site/redirects.json). */
  redirectRules: RedirectRule[];
  logger: Logger;
  /** Which proxies may say a request came over HTTPS (HSTS): the config's TRUST_PROXY. */
  trustProxy: TrustProxy;
  /** The admissions inbox under /staff (server/staff/); `npm start` always has it. */
  staff?: StaffArea;
}

/**
 * The whole server, in the order a request meets it: the built site's files from memory first (nearly every
 * request), then form posts, both without Express; then, in Express, the received page of a plain form post,
 * other spellings of the files' paths, old addresses, and the not-found page. The staff area (/staff) comes before
 * all of them: a staff request never reaches the site's code.
 */
export function createApp({
  clientDir,
  forms,
  redirectRules,
  logger,
  trustProxy,
  staff,
}: AppOptions): RequestListener {
  const site = loadStaticSite(clientDir);
  const secure = secureRequests(trustProxy);
  const app = express();
  app.disable('x-powered-by');
  app.use(security({ trustProxy }));
  app.use(forms.router);
  app.use(site.router(secure));
  app.use(compression());
  app.use(redirects(redirectRules));
  app.use(notFound(clientDir, logger));
  app.use(errorHandler(logger));
  return (req, res) => {
    if (staff && isStaffPath(req.url)) return staff.handle(req, res);
    if (!site.serve(req, res, secure(req))) forms.posts(req, res, () => void app(req, res));
  };
}

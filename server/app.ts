import type { RequestListener } from 'node:http';
import compression from 'compression';
import express from 'express';
import { errorHandler } from './http/error-handler.ts';
import type { FormApi } from './forms/form-api.ts';
import type { Logger } from './logger.ts';
import { notFound } from './http/not-found.ts';
import { redirects } from './http/redirects.ts';
import type { TrustProxy } from './config.ts';
import { secureRequests, security } from './http/security.ts';
import { answerFrom, servedSiteOf, type SiteSource } from './http/served-site.ts';
import { isStaffPath, type StaffArea } from './staff/staff-area.ts';

export interface AppOptions {
  /** The site to answer with: the live release (server/releases/live-release.ts), taken once per request. */
  site: SiteSource;
  /** The form API of the lead pipeline (server/lead-pipeline.ts). */
  forms: FormApi;
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
export function createApp({ site, forms, logger, trustProxy, staff }: AppOptions): RequestListener {
  const secure = secureRequests(trustProxy);
  const app = express();
  app.disable('x-powered-by');
  app.use(security({ trustProxy }));
  app.use(forms.router);
  app.use((req, res, next) => {
    if (!servedSiteOf(req).files.serveOther(req, res, secure(req))) next();
  });
  app.use(compression());
  app.use(redirects((req) => servedSiteOf(req).redirects));
  app.use(notFound(logger));
  app.use(errorHandler(logger));
  return (req, res) => {
    if (staff && isStaffPath(req.url)) return staff.handle(req, res);
    const served = site.current();
    if (served.files.serve(req, res, secure(req))) return;
    answerFrom(req, served);
    forms.posts(req, res, () => void app(req, res));
  };
}

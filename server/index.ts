// `npm start`: serve the build in dist/client, take form submissions, deliver their chat alerts.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createApp } from './app.ts';
import { ConfigError, listenProblem, readConfig } from './config.ts';
import { ContentError, loadForms, loadSite, type ServerContent } from './content.ts';
import { ANSWER_WITHIN_MS } from './forms/form-submission.ts';
import { addressOf, close, listen } from './http/http-server.ts';
import { KeyError } from './store/shared/key-file.ts';
import { scheduleRetention } from './store/shared/retention.ts';
import { createLeadPipeline } from './lead-pipeline.ts';
import { staffAreaOn } from './staff/staff-area.ts';
import { startChangeScheduler } from './content-staff/change-scheduler.ts';
import { warmSpelling } from '../content/validate/spelling.ts';
import { ensureLiveRelease } from './releases/ensure-release.ts';
import { startLiveRelease, type LiveReleaseHandle } from './releases/live-release.ts';

// A request still running after this long does not hold the shutdown any further: as long as a form post may take, so
// every visitor who sent one before the stop is answered; shorter than the process manager's stop timeout (DEPLOY.md).
const SHUTDOWN_GRACE_MS = ANSWER_WITHIN_MS;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main(): Promise<void> {
  let config;
  let site;
  let forms;
  try {
    config = readConfig(process.env);
    // The checkout's, until the live release's replace them (below): the store opens knowing the forms' fields.
    site = loadSite();
    forms = loadForms();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ContentError) fail(error.message);
    throw error;
  }
  const problem = listenProblem(config, process.env);
  if (problem) fail(problem);
  if (!existsSync(join(config.clientDir, 'index.html')))
    fail(`No built site in ${config.clientDir} (it has no index.html): run \`npm run build\` first.`);

  let pipeline;
  let live: LiveReleaseHandle | undefined;
  try {
    pipeline = await createLeadPipeline(config, site, forms, { releaseHealth: () => live?.health() });
  } catch (error) {
    if (error instanceof KeyError) fail(error.message);
    // A locked, damaged or newer database: say which file, without a stack trace the operator cannot act on.
    fail(
      `Cannot open the lead database ${config.databaseUrl ? 'DATABASE_URL (PostgreSQL)' : config.leadsDb}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const { store, worker, logger, forms: formApi } = pipeline;
  // The live release's site, forms and old addresses are the server's from now on, and at each release put live: the
  // form API, the alert worker and the staff area hold these two objects, updated in place.
  const useContent = (content: ServerContent) => {
    for (const key of Object.keys(site)) delete (site as unknown as Record<string, unknown>)[key];
    Object.assign(site, content.site);
    forms.clear();
    for (const [id, form] of content.forms) forms.set(id, form);
  };
  try {
    await ensureLiveRelease(store, dirname(config.clientDir), logger);
    live = await startLiveRelease({ releases: store.releases, logger, onContent: useContent });
  } catch (error) {
    await store.close();
    fail(`Cannot serve the live release: ${error instanceof Error ? error.message : String(error)}`);
  }
  const staff = staffAreaOn(store, {
    forms,
    site,
    logger,
    staffDir: config.staffDir,
    trustProxy: config.trustProxy,
    origin: config.staffOrigin,
    readLimit: config.staffReadLimit,
    sessionLimits: { idleMs: config.staffIdleMs, absoluteMs: config.staffSessionMs },
    timeZone: config.siteTimeZone,
    content: { codeDir: dirname(config.clientDir) },
    roundRobin: config.roundRobin,
  });
  const app = createApp({ site: live, forms: formApi, logger, trustProxy: config.trustProxy, staff });

  let server;
  try {
    server = await listen(app, config.port, config.host);
  } catch (error) {
    await store.close();
    fail(
      `Cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  worker.start();
  // The online editor's and a publish's spelling check: its thread loads the dictionaries now, after the server
  // listens, so neither the first page nor the first check waits for them.
  if (staff.content) warmSpelling();
  // Change sets' scheduled publishes, run by the server at their time (server/content-staff/change-scheduler.ts).
  const scheduler =
    staff.content &&
    startChangeScheduler({
      context: staff.content,
      webhookUrl: config.chatWebhookUrl,
      origin: config.staffOrigin,
    });
  const stopRetention = scheduleRetention(store, config.leadsRetentionDays, {
    report: (purged) => {
      if (purged > 0) logger.info({ purged, days: config.leadsRetentionDays }, 'purged leads past retention');
    },
    failed: (error) =>
      logger.error({ err: error }, 'purging leads past retention failed; the next hour tries again'),
  });
  logger.info({ url: addressOf(server), forms: [...forms.keys()] }, 'serving');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.warn('requests still running after the grace period; closing anyway');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    stopRetention();
    await scheduler?.stop();
    await live.stop();
    // Together: the alert worker's webhook call in flight and the visitors' requests both take seconds at worst.
    await Promise.all([close(server), worker.stop()]);
    await store.close();
    logger.info('stopped');
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

await main();

import { dirname, join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import { ALERT_DETAILS, type AlertDetail } from './alerts/chat-alert.ts';
import { loadSite } from './content.ts';
import { KEY_HINT, KeyError, parseKeyring } from './store/shared/key-file.ts';

/**
 * Express's `trust proxy` setting: false trusts no proxy (X-Forwarded-* ignored); true trusts every hop; a number
 * trusts that many hops; a string is a comma-separated list of trusted addresses or subnets (`loopback`,
 * `10.0.0.0/8, 127.0.0.1`).
 */
export type TrustProxy = boolean | number | string;

export interface ServerConfig {
  port: number;
  host: string;
  /** SQLite file of leads and alerts. */
  leadsDb: string;
  /** DATABASE_URL: a PostgreSQL database instead of the SQLite file, for several instances; undefined for SQLite. */
  databaseUrl: string | undefined;
  /** DATABASE_POOL_SIZE: connections each instance opens to DATABASE_URL for its queries (one more listens). */
  databasePoolSize: number;
  /** Slack-compatible incoming webhook; undefined means leads are stored and alerts wait. https outside loopback. */
  chatWebhookUrl: string | undefined;
  /** What a chat alert says about the person: nothing by default (server/alerts/chat-alert.ts, AlertDetail). */
  chatAlertDetail: AlertDetail;
  /** First wait after a failed alert; doubles with each failure, up to chatRetryMaxMs. */
  chatRetryBaseMs: number;
  /** Longest wait between two tries of an alert, and so how late an alert can arrive after chat is back. */
  chatRetryMaxMs: number;
  /** How long an alert is retried (from its lead's storage, or from `retry-dead`) before it is marked dead. */
  chatAlertMaxAgeMs: number;
  /** Longest wait for one webhook call. */
  chatTimeoutMs: number;
  /** Form submissions one address may send per rate-limit window (10 minutes). */
  formRateLimit: number;
  /** Form submissions the whole site takes per rate-limit window (10 minutes), from every address together. */
  formGlobalRateLimit: number;
  /** Leads one staff member may read (list rows, lead pages, export rows) per 10 minutes. */
  staffReadLimit: number;
  /** Origins, besides the site's own, whose pages may post forms (such as a separate landing-page host). */
  allowedOrigins: string[];
  /** Leads received longer ago than this are purged, with their alerts and notes; the audit log is kept. */
  leadsRetentionDays: number;
  /** LEADS_ENCRYPTION_KEY, a key ring (the first key seals, every key opens); undefined means the key file. */
  leadsEncryptionKey: readonly Buffer[] | undefined;
  /** LEADS_KEY_FILE, the key file when no key is given; undefined means `<LEADS_DB>.key`, beside the database. */
  leadsKeyFile: string | undefined;
  /** AUDIT_KEY, a key ring the audit chain is signed with (the first signs); undefined: derived from the lead keys. */
  auditKey: readonly Buffer[] | undefined;
  /** The build to serve. */
  clientDir: string;
  /** The admissions inbox's build, served under /staff/ (server/staff/). */
  staffDir: string;
  /** STAFF_IDLE_MINUTES: a staff session without its member's own activity for this long is over. */
  staffIdleMs: number;
  /** STAFF_SESSION_HOURS: a staff session is over this long after its sign-in, whatever its member does. */
  staffSessionMs: number;
  logLevel: string;
  /**
   * Which proxies in front of the server to believe about the visitor's address (X-Forwarded-For, for the rate limit)
   * and about HTTPS (X-Forwarded-Proto, for HSTS).
   */
  trustProxy: TrustProxy;
  /**
   * STAFF_ORIGIN: the one origin of the staff area (/staff/), `https://staff.example.org`. It is every passkey's relying
   * party and the origin a browser must report; a request for /staff/ under another Host is refused.
   */
  staffOrigin: string;
  /** SITE_TIMEZONE: the zone the staff export's times are written in (an IANA name). */
  siteTimeZone: string;
  /**
   * ESCALATION_REPEAT_MINUTES: a lead still unclaimed and not contacted at its due time gets a chat escalation, again
   * this often until someone claims it (server/alerts/escalation.ts).
   */
  escalationRepeatMs: number;
  /**
   * ROUND_ROBIN (`on` or `off`, the default): each new lead goes to the admissions member on shift whose turn is oldest
   * (members mark themselves on shift in the inbox; server/staff/round-robin.ts).
   */
  roundRobin: boolean;
}

/** The server's environment variables, with their defaults. */
export const ENVIRONMENT = {
  PORT: '3000',
  HOST: '127.0.0.1',
  LEADS_DB: 'data/leads.db',
  DATABASE_URL: '(unset: the SQLite file LEADS_DB)',
  DATABASE_POOL_SIZE: '10',
  CHAT_WEBHOOK_URL: '(unset: alerts stay pending)',
  CHAT_ALERT_DETAIL: 'none (no patient data; `contact` adds name and phone)',
  CHAT_RETRY_BASE_MS: '2000',
  CHAT_RETRY_MAX_MS: '300000',
  CHAT_ALERT_MAX_AGE_H: '72',
  CHAT_TIMEOUT_MS: '5000',
  FORM_RATE_LIMIT: '20',
  FORM_GLOBAL_RATE_LIMIT: '1000',
  STAFF_READ_LIMIT: '10000',
  ALLOWED_ORIGINS: '(unset: only the site itself)',
  LEADS_RETENTION_DAYS: '365',
  LEADS_ENCRYPTION_KEY: '(unset: the key file)',
  LEADS_KEY_FILE: '(unset: <LEADS_DB>.key; in production, one of the two is required)',
  AUDIT_KEY: '(unset: derived from the lead encryption key)',
  NODE_ENV: '(unset: development)',
  CLIENT_DIR: 'dist/client',
  STAFF_DIR: '(unset: inbox beside CLIENT_DIR, so dist/inbox)',
  STAFF_IDLE_MINUTES: '15',
  STAFF_SESSION_HOURS: '12',
  LOG_LEVEL: 'info',
  TRUST_PROXY: '(unset: no proxy is trusted)',
  STAFF_ORIGIN: '(unset: in production, the url of site/site.json; otherwise http://localhost:<PORT>)',
  SITE_TIMEZONE: 'America/Los_Angeles',
  ESCALATION_REPEAT_MINUTES: '10',
  ROUND_ROBIN: 'off',
} as const;

export class ConfigError extends Error {}

/** True when `timeZone` is one the runtime knows (SITE_TIMEZONE). */
function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const HOUR_MS = 60 * 60 * 1000;

/** `https://www.example.com` as the browser sends it in Origin; undefined for anything with a path, query or user. */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    return bare && /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** TRUST_PROXY as Express reads its `trust proxy` setting (see TrustProxy). */
export function trustProxyFrom(value: string | undefined): TrustProxy {
  const raw = value?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/** Whether `host` (HOST) is a loopback address or name: only this machine can connect. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/**
 * Why the server must not start with these settings, or undefined. Listening beyond loopback with TRUST_PROXY not set
 * at all: something in front of the server (a load balancer, a container platform's proxy) would make every visitor
 * one address to the rate limit, and the first few leads would use up everyone's. `TRUST_PROXY=false` says that
 * nothing is in front. Checked by the server only: the staff CLI reads the same settings and never listens.
 */
export function listenProblem(config: ServerConfig, env: NodeJS.ProcessEnv): string | undefined {
  if (isLoopbackHost(config.host) || env.TRUST_PROXY?.trim()) return undefined;
  return (
    `HOST is ${config.host} and TRUST_PROXY is not set. Behind a proxy or load balancer, set TRUST_PROXY to it ` +
    '(its address or subnet, or a number of hops), or every visitor shares its address and its form rate limit; ' +
    'with nothing in front of the server, set TRUST_PROXY=false.'
  );
}

/**
 * Why a webhook URL is refused, or undefined. Outside this machine only https: an alert crosses the internet, and
 * even without patient data it says that someone asked for help, and when.
 */
export function webhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'CHAT_WEBHOOK_URL must be an https URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `CHAT_WEBHOOK_URL must be an https URL (plain http only to this machine's loopback), not ${url.protocol}//${url.host}`;
}

/**
 * Why `text` cannot be the staff area's origin (STAFF_ORIGIN, or the site's url it defaults to), or undefined: an
 * origin alone, https, and a host name, since a passkey is bound to a name. Plain http, and an IP address, only on this
 * machine's loopback (a browser's passkey works at http://localhost, never at an IP; 127.0.0.1 suits only tests).
 */
export function staffOriginProblem(text: string, name = 'STAFF_ORIGIN'): string | undefined {
  const origin = originOf(text);
  if (origin === undefined)
    return `${name} must be an origin alone, such as https://staff.example.org, not "${text}"`;
  const { protocol, hostname } = new URL(origin);
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopbackHost(hostname)) return undefined;
  if (protocol !== 'https:')
    return `${name} must be https (plain http only on this machine, such as http://localhost:3000), not "${text}"`;
  if (ipaddr.isValid(bare))
    return `${name} must name a host: a passkey never works at an IP address, "${text}"`;
  return undefined;
}

/** Whether every entry of a trusted-proxy list is an address, a subnet or one of proxy-addr's names. */
function validTrustList(list: string): boolean {
  try {
    proxyaddr.compile(list.split(',').map((entry) => entry.trim()));
    return true;
  } catch {
    return false;
  }
}

/** Reads and checks the environment; relative paths are taken from `cwd`. Throws ConfigError naming every problem. */
export function readConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): ServerConfig {
  const problems: string[] = [];
  const value = (name: keyof typeof ENVIRONMENT) => env[name]?.trim() || undefined;
  const integer = (name: keyof typeof ENVIRONMENT, fallback: number, min: number, max: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = Number(raw);
    if (Number.isInteger(parsed) && parsed >= min && parsed <= max) return parsed;
    problems.push(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
    return fallback;
  };
  // Fractions allowed: a test (or a cautious deployment) may want minutes rather than hours.
  const decimal = (name: keyof typeof ENVIRONMENT, fallback: number, min: number, max: number) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    if (parsed >= min && parsed <= max) return parsed;
    problems.push(`${name} must be a number from ${min} to ${max}, not "${raw}"`);
    return fallback;
  };

  const origins = (value('ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const origin = originOf(entry);
      if (origin === undefined)
        problems.push(`ALLOWED_ORIGINS entries are origins such as https://www.example.com, not "${entry}"`);
      return origin;
    })
    .filter((origin) => origin !== undefined);

  let key: Buffer[] | undefined;
  const keyText = value('LEADS_ENCRYPTION_KEY');
  try {
    key = keyText === undefined ? undefined : parseKeyring(keyText, 'LEADS_ENCRYPTION_KEY');
  } catch (error) {
    if (!(error instanceof KeyError)) throw error;
    problems.push(error.message);
  }
  let auditKey: Buffer[] | undefined;
  const auditKeyText = value('AUDIT_KEY');
  try {
    auditKey = auditKeyText === undefined ? undefined : parseKeyring(auditKeyText, 'AUDIT_KEY');
  } catch (error) {
    if (!(error instanceof KeyError)) throw error;
    problems.push(error.message);
  }

  // A key file beside the database goes into every backup of its folder, and a backup is then readable by whoever holds
  // it. Fine for trying the site out; in production the key comes from a secret store, or from a file named on purpose.
  const keyFileText = value('LEADS_KEY_FILE');
  if (keyText !== undefined && keyFileText !== undefined)
    problems.push('Set LEADS_ENCRYPTION_KEY or LEADS_KEY_FILE, not both: each names the lead encryption key');
  if (value('NODE_ENV') === 'production' && keyText === undefined && keyFileText === undefined)
    problems.push(
      'NODE_ENV is production and no lead encryption key is given: set LEADS_ENCRYPTION_KEY from your secret store, ' +
        'or LEADS_KEY_FILE to a key file kept apart from the database (a key file beside it goes into every backup ' +
        `of its folder); ${KEY_HINT}`,
    );

  const trustProxy = trustProxyFrom(value('TRUST_PROXY'));
  if (typeof trustProxy === 'string' && !validTrustList(trustProxy))
    problems.push(
      'TRUST_PROXY must be false, true, a number of proxy hops, or addresses and subnets such as ' +
        `"loopback" or "10.0.0.0/8, 127.0.0.1", not "${trustProxy}"`,
    );

  const webhook = value('CHAT_WEBHOOK_URL');
  const webhookProblem = webhook === undefined ? undefined : webhookUrlProblem(webhook);
  if (webhookProblem) problems.push(webhookProblem);
  const detail = value('CHAT_ALERT_DETAIL') ?? 'none';
  if (!(ALERT_DETAILS as readonly string[]).includes(detail))
    problems.push(`CHAT_ALERT_DETAIL must be one of ${ALERT_DETAILS.join(', ')}, not "${detail}"`);

  const chatRetryBaseMs = integer('CHAT_RETRY_BASE_MS', 2000, 1, HOUR_MS);
  const chatRetryMaxMs = integer('CHAT_RETRY_MAX_MS', 300_000, 1, HOUR_MS);
  if (chatRetryMaxMs < chatRetryBaseMs)
    problems.push(
      `CHAT_RETRY_MAX_MS (${chatRetryMaxMs}) must be at least CHAT_RETRY_BASE_MS (${chatRetryBaseMs})`,
    );

  // HIPAA's automatic logoff: an hour idle at most, a working day at most. Fractions allowed, so tests can shorten them.
  const staffIdleMinutes = decimal('STAFF_IDLE_MINUTES', 15, 0.1, 60);
  const staffSessionHours = decimal('STAFF_SESSION_HOURS', 12, 0.01, 24);
  if (staffSessionHours * 60 < staffIdleMinutes)
    problems.push(
      `STAFF_SESSION_HOURS (${staffSessionHours} hours) must be at least STAFF_IDLE_MINUTES (${staffIdleMinutes} minutes)`,
    );

  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    // Not echoed: a connection string may hold a password.
    problems.push('DATABASE_URL must be a PostgreSQL connection string, postgres://user@host:port/database');

  const port = integer('PORT', 3000, 0, 65535);
  // In production the staff area is at the site's own origin unless told otherwise; on a developer's machine, at
  // localhost (a passkey needs a host name: 127.0.0.1 would not do).
  const staffOriginText =
    value('STAFF_ORIGIN') ??
    (value('NODE_ENV') === 'production' ? loadSite().url : `http://localhost:${port}`);
  const staffProblem = staffOriginProblem(
    staffOriginText,
    value('STAFF_ORIGIN') ? 'STAFF_ORIGIN' : 'STAFF_ORIGIN (unset: the url of site/site.json)',
  );
  if (staffProblem) problems.push(staffProblem);

  const siteTimeZone = value('SITE_TIMEZONE') ?? ENVIRONMENT.SITE_TIMEZONE;
  if (!knownTimeZone(siteTimeZone))
    problems.push(
      `SITE_TIMEZONE must be an IANA time zone such as America/Los_Angeles, not "${siteTimeZone}"`,
    );

  const roundRobinText = value('ROUND_ROBIN') ?? ENVIRONMENT.ROUND_ROBIN;
  if (roundRobinText !== 'on' && roundRobinText !== 'off')
    problems.push(`ROUND_ROBIN must be on or off, not "${roundRobinText}"`);

  const clientDir = resolve(cwd, value('CLIENT_DIR') ?? ENVIRONMENT.CLIENT_DIR);
  const config: ServerConfig = {
    port,
    host: value('HOST') ?? ENVIRONMENT.HOST,
    leadsDb:
      value('LEADS_DB') === ':memory:' ? ':memory:' : resolve(cwd, value('LEADS_DB') ?? ENVIRONMENT.LEADS_DB),
    databaseUrl,
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
    chatWebhookUrl: webhook,
    chatAlertDetail: detail as AlertDetail,
    chatRetryBaseMs,
    chatRetryMaxMs,
    chatAlertMaxAgeMs: decimal('CHAT_ALERT_MAX_AGE_H', 72, 0.001, 24 * 365) * HOUR_MS,
    chatTimeoutMs: integer('CHAT_TIMEOUT_MS', 5000, 1, 60 * 1000),
    formRateLimit: integer('FORM_RATE_LIMIT', 20, 1, 1_000_000_000),
    formGlobalRateLimit: integer('FORM_GLOBAL_RATE_LIMIT', 1000, 1, 1_000_000_000),
    staffReadLimit: integer('STAFF_READ_LIMIT', 10_000, 1, 1_000_000_000),
    allowedOrigins: origins,
    leadsRetentionDays: integer('LEADS_RETENTION_DAYS', 365, 1, 36_500),
    leadsEncryptionKey: key,
    leadsKeyFile: keyFileText === undefined ? undefined : resolve(cwd, keyFileText),
    auditKey,
    clientDir,
    staffDir: resolve(cwd, value('STAFF_DIR') ?? join(dirname(clientDir), 'inbox')),
    staffIdleMs: Math.round(staffIdleMinutes * 60_000),
    staffSessionMs: Math.round(staffSessionHours * HOUR_MS),
    logLevel: value('LOG_LEVEL') ?? ENVIRONMENT.LOG_LEVEL,
    trustProxy,
    staffOrigin: originOf(staffOriginText) ?? staffOriginText,
    siteTimeZone,
    escalationRepeatMs: Math.round(decimal('ESCALATION_REPEAT_MINUTES', 10, 0.05, 24 * 60) * 60_000),
    roundRobin: roundRobinText === 'on',
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return config;
}

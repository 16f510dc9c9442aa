import { resolve } from 'node:path';

export interface ServerConfig {
  port: number;
  host: string;
  /** SQLite file of leads and alerts. */
  leadsDb: string;
  /** Slack-compatible incoming webhook; undefined means leads are stored and alerts wait. */
  chatWebhookUrl: string | undefined;
  chatRetryBaseMs: number;
  chatMaxAttempts: number;
  /** The build to serve. */
  clientDir: string;
  logLevel: string;
}

/** The server's environment variables, with their defaults. */
export const ENVIRONMENT = {
  PORT: '3000',
  HOST: '127.0.0.1',
  LEADS_DB: 'data/leads.db',
  CHAT_WEBHOOK_URL: '(unset: alerts stay pending)',
  CHAT_RETRY_BASE_MS: '2000',
  CHAT_MAX_ATTEMPTS: '8',
  CLIENT_DIR: 'dist/client',
  LOG_LEVEL: 'info',
} as const;

export class ConfigError extends Error {}

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

  const webhook = value('CHAT_WEBHOOK_URL');
  if (webhook !== undefined && !/^https?:\/\/[^\s]+$/.test(webhook))
    problems.push('CHAT_WEBHOOK_URL must be an http(s) URL');

  const config: ServerConfig = {
    port: integer('PORT', 3000, 0, 65535),
    host: value('HOST') ?? ENVIRONMENT.HOST,
    leadsDb:
      value('LEADS_DB') === ':memory:' ? ':memory:' : resolve(cwd, value('LEADS_DB') ?? ENVIRONMENT.LEADS_DB),
    chatWebhookUrl: webhook,
    chatRetryBaseMs: integer('CHAT_RETRY_BASE_MS', 2000, 1, 60 * 60 * 1000),
    chatMaxAttempts: integer('CHAT_MAX_ATTEMPTS', 8, 1, 1000),
    clientDir: resolve(cwd, value('CLIENT_DIR') ?? ENVIRONMENT.CLIENT_DIR),
    logLevel: value('LOG_LEVEL') ?? ENVIRONMENT.LOG_LEVEL,
  };
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return config;
}

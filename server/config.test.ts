import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from './config.ts';

describe('server config', () => {
  it('has defaults for everything', () => {
    expect(readConfig({}, '/srv/site')).toEqual({
      port: 3000,
      host: '127.0.0.1',
      leadsDb: '/srv/site/data/leads.db',
      chatWebhookUrl: undefined,
      chatRetryBaseMs: 2000,
      chatMaxAttempts: 8,
      clientDir: '/srv/site/dist/client',
      logLevel: 'info',
    });
  });

  it('reads the environment', () => {
    const config = readConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        LEADS_DB: '/var/leads.db',
        CHAT_WEBHOOK_URL: 'https://hooks.example/x',
        CHAT_MAX_ATTEMPTS: '3',
      },
      '/srv/site',
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      leadsDb: '/var/leads.db',
      chatMaxAttempts: 3,
    });
    expect(config.chatWebhookUrl).toBe('https://hooks.example/x');
  });

  it('names every bad value', () => {
    const message = (() => {
      try {
        readConfig({ PORT: 'eighty', CHAT_WEBHOOK_URL: 'hooks', CHAT_RETRY_BASE_MS: '-1' });
      } catch (error) {
        return error instanceof ConfigError ? error.message : 'not a ConfigError';
      }
      return 'no error';
    })();
    for (const name of ['PORT', 'CHAT_WEBHOOK_URL', 'CHAT_RETRY_BASE_MS']) expect(message).toContain(name);
  });
});

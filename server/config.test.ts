import { describe, expect, it } from 'vitest';
import { ConfigError, listenProblem, readConfig } from './config.ts';

describe('server config', () => {
  it('has defaults for everything', () => {
    expect(readConfig({}, '/srv/site')).toEqual({
      port: 3000,
      host: '127.0.0.1',
      leadsDb: '/srv/site/data/leads.db',
      databasePoolSize: 10,
      chatWebhookUrl: undefined,
      chatAlertDetail: 'none',
      chatRetryBaseMs: 2000,
      chatRetryMaxMs: 300_000,
      chatAlertMaxAgeMs: 72 * 3_600_000,
      chatTimeoutMs: 5000,
      formRateLimit: 20,
      formGlobalRateLimit: 1000,
      staffReadLimit: 10_000,
      allowedOrigins: [],
      leadsRetentionDays: 365,
      leadsEncryptionKey: undefined,
      clientDir: '/srv/site/dist/client',
      staffDir: '/srv/site/dist/inbox',
      staffIdleMs: 15 * 60_000,
      staffSessionMs: 12 * 3_600_000,
      logLevel: 'info',
      trustProxy: false,
      staffOrigin: 'http://localhost:3000',
      siteTimeZone: 'America/Los_Angeles',
      escalationRepeatMs: 600_000,
      roundRobin: false,
    });
  });

  it('takes ROUND_ROBIN on or off', () => {
    expect(readConfig({ ROUND_ROBIN: 'on' }).roundRobin).toBe(true);
    expect(readConfig({ ROUND_ROBIN: 'off' }).roundRobin).toBe(false);
    expect(() => readConfig({ ROUND_ROBIN: 'yes' })).toThrow('ROUND_ROBIN must be on or off, not "yes"');
  });

  it("fixes the staff area's origin: STAFF_ORIGIN, the site's url in production, localhost in development", () => {
    expect(readConfig({ PORT: '8080' }).staffOrigin).toBe('http://localhost:8080');
    expect(readConfig({ NODE_ENV: 'production', LEADS_KEY_FILE: '/k' }).staffOrigin).toBe(
      'https://www.example.com',
    );
    expect(readConfig({ STAFF_ORIGIN: 'https://Staff.Example.org/' }).staffOrigin).toBe(
      'https://staff.example.org',
    );
    expect(readConfig({ STAFF_ORIGIN: 'http://127.0.0.1:4000' }).staffOrigin).toBe('http://127.0.0.1:4000');
    expect(() => readConfig({ STAFF_ORIGIN: 'https://staff.example.org/staff' })).toThrow(
      'STAFF_ORIGIN must be an origin alone, such as https://staff.example.org, not "https://staff.example.org/staff"',
    );
    expect(() => readConfig({ STAFF_ORIGIN: 'staff.example.org' })).toThrow(ConfigError);
    expect(() => readConfig({ STAFF_ORIGIN: 'http://staff.example.org' })).toThrow(
      'STAFF_ORIGIN must be https (plain http only on this machine, such as http://localhost:3000), not "http://staff.example.org"',
    );
    expect(() => readConfig({ STAFF_ORIGIN: 'https://10.0.0.5' })).toThrow(
      'STAFF_ORIGIN must name a host: a passkey never works at an IP address, "https://10.0.0.5"',
    );
  });

  it('reads the environment', () => {
    const config = readConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        LEADS_DB: '/var/leads.db',
        CHAT_WEBHOOK_URL: 'https://hooks.example/x',
        CHAT_RETRY_MAX_MS: '60000',
        DATABASE_POOL_SIZE: '4',
      },
      '/srv/site',
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      leadsDb: '/var/leads.db',
      chatRetryMaxMs: 60_000,
      databasePoolSize: 4,
    });
    expect(() => readConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(
      'DATABASE_POOL_SIZE must be a whole number from 1 to 1000, not "0"',
    );
    expect(config.chatWebhookUrl).toBe('https://hooks.example/x');
  });

  it('reads the lead pipeline settings: rate limit, allowed origins and the encryption key', () => {
    const config = readConfig({
      FORM_RATE_LIMIT: '50',
      FORM_GLOBAL_RATE_LIMIT: '5000',
      STAFF_READ_LIMIT: '300',
      ALLOWED_ORIGINS: ' https://www.example.com , http://localhost:5173/ ',
      LEADS_ENCRYPTION_KEY: '0f'.repeat(32),
      CHAT_TIMEOUT_MS: '250',
    });
    expect(config).toMatchObject({
      formRateLimit: 50,
      formGlobalRateLimit: 5000,
      staffReadLimit: 300,
      allowedOrigins: ['https://www.example.com', 'http://localhost:5173'],
      chatTimeoutMs: 250,
    });
    expect(config.leadsEncryptionKey).toEqual([Buffer.alloc(32, 0x0f)]);
    expect(() => readConfig({ STAFF_READ_LIMIT: '0' })).toThrow(
      'STAFF_READ_LIMIT must be a whole number from 1 to 1000000000, not "0"',
    );
    // A key ring during a rotation: the new key first, the old one still opening what it sealed.
    expect(
      readConfig({ LEADS_ENCRYPTION_KEY: `${'1a'.repeat(32)}, ${'0f'.repeat(32)}` }).leadsEncryptionKey,
    ).toEqual([Buffer.alloc(32, 0x1a), Buffer.alloc(32, 0x0f)]);
  });

  it('reads AUDIT_KEY as a key ring apart from the lead key, and refuses a malformed one', () => {
    expect(readConfig({}).auditKey).toBeUndefined();
    expect(readConfig({ AUDIT_KEY: `${'2b'.repeat(32)},${'0f'.repeat(32)}` }).auditKey).toEqual([
      Buffer.alloc(32, 0x2b),
      Buffer.alloc(32, 0x0f),
    ]);
    expect(() => readConfig({ AUDIT_KEY: 'secret' })).toThrow(/AUDIT_KEY must be 64 hexadecimal characters/);
  });

  it('in production, needs the lead key or a key file named apart from the database; one of the two, not both', () => {
    const key = '0f'.repeat(32);
    expect(() => readConfig({ NODE_ENV: 'production' })).toThrow(
      /NODE_ENV is production and no lead encryption key is given: set LEADS_ENCRYPTION_KEY .* or LEADS_KEY_FILE/,
    );
    expect(readConfig({ NODE_ENV: 'production', LEADS_ENCRYPTION_KEY: key }).leadsKeyFile).toBeUndefined();
    expect(
      readConfig({ NODE_ENV: 'production', LEADS_KEY_FILE: 'keys/leads.key' }, '/srv/site'),
    ).toMatchObject({
      leadsEncryptionKey: undefined,
      leadsKeyFile: '/srv/site/keys/leads.key',
    });
    // In development the key file beside the database stays the default.
    expect(readConfig({}).leadsKeyFile).toBeUndefined();
    expect(() => readConfig({ LEADS_ENCRYPTION_KEY: key, LEADS_KEY_FILE: '/keys/leads.key' })).toThrow(
      'Set LEADS_ENCRYPTION_KEY or LEADS_KEY_FILE, not both',
    );
  });

  it('reads TRUST_PROXY as Express reads trust proxy: no proxy, every hop, a number of hops, or a list', () => {
    const trust = (TRUST_PROXY: string) => readConfig({ TRUST_PROXY }).trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('loopback')).toBe('loopback');
    expect(trust(' 10.0.0.0/8, 127.0.0.1, uniquelocal ')).toBe('10.0.0.0/8, 127.0.0.1, uniquelocal');
    expect(() => trust('yes')).toThrow(
      'TRUST_PROXY must be false, true, a number of proxy hops, or addresses and subnets such as "loopback" or ' +
        '"10.0.0.0/8, 127.0.0.1", not "yes"',
    );
    expect(() => trust('10.0.0.0/8, 300.1.1.1')).toThrow(ConfigError);
  });

  it('reads CHAT_ALERT_MAX_AGE_H in hours, fractions allowed, and refuses a cap below the first retry', () => {
    expect(readConfig({ CHAT_ALERT_MAX_AGE_H: '24' }).chatAlertMaxAgeMs).toBe(24 * 3_600_000);
    expect(readConfig({ CHAT_ALERT_MAX_AGE_H: '0.001' }).chatAlertMaxAgeMs).toBeCloseTo(3600, 6);
    for (const bad of ['0', '0.0001', '-1', '1e3', 'three', '9000'])
      expect(() => readConfig({ CHAT_ALERT_MAX_AGE_H: bad })).toThrow(
        `CHAT_ALERT_MAX_AGE_H must be a number from 0.001 to 8760, not "${bad}"`,
      );
    expect(() => readConfig({ CHAT_RETRY_BASE_MS: '5000', CHAT_RETRY_MAX_MS: '1000' })).toThrow(
      'CHAT_RETRY_MAX_MS (1000) must be at least CHAT_RETRY_BASE_MS (5000)',
    );
    expect(() => readConfig({ CHAT_RETRY_MAX_MS: '0' })).toThrow('CHAT_RETRY_MAX_MS must be a whole number');
  });

  it('reads the staff session limits, fractions allowed so tests can shorten them, and refuses what defeats them', () => {
    expect(readConfig({ STAFF_IDLE_MINUTES: '5', STAFF_SESSION_HOURS: '8' })).toMatchObject({
      staffIdleMs: 5 * 60_000,
      staffSessionMs: 8 * 3_600_000,
    });
    expect(readConfig({ STAFF_IDLE_MINUTES: '0.25', STAFF_SESSION_HOURS: '0.01' })).toMatchObject({
      staffIdleMs: 15_000,
      staffSessionMs: 36_000,
    });
    for (const bad of ['0', '0.05', '61', '-5', 'ten', '1e1'])
      expect(() => readConfig({ STAFF_IDLE_MINUTES: bad })).toThrow(
        `STAFF_IDLE_MINUTES must be a number from 0.1 to 60, not "${bad}"`,
      );
    for (const bad of ['0', '25', 'all day'])
      expect(() => readConfig({ STAFF_SESSION_HOURS: bad })).toThrow(
        `STAFF_SESSION_HOURS must be a number from 0.01 to 24, not "${bad}"`,
      );
    expect(() => readConfig({ STAFF_IDLE_MINUTES: '30', STAFF_SESSION_HOURS: '0.25' })).toThrow(
      'STAFF_SESSION_HOURS (0.25 hours) must be at least STAFF_IDLE_MINUTES (30 minutes)',
    );
  });

  it('names every bad value', () => {
    const message = (() => {
      try {
        readConfig({
          PORT: 'eighty',
          CHAT_WEBHOOK_URL: 'hooks',
          CHAT_RETRY_BASE_MS: '-1',
          FORM_RATE_LIMIT: '0',
          ALLOWED_ORIGINS: 'https://ok.example,https://bad.example/path',
          LEADS_ENCRYPTION_KEY: 'secret',
          CHAT_ALERT_DETAIL: 'everything',
          LEADS_RETENTION_DAYS: '0',
        });
      } catch (error) {
        return error instanceof ConfigError ? error.message : 'not a ConfigError';
      }
      return 'no error';
    })();
    for (const name of [
      'PORT',
      'CHAT_WEBHOOK_URL',
      'CHAT_RETRY_BASE_MS',
      'FORM_RATE_LIMIT',
      'ALLOWED_ORIGINS entries are origins such as https://www.example.com, not "https://bad.example/path"',
      'LEADS_ENCRYPTION_KEY must be 64 hexadecimal characters',
      'CHAT_ALERT_DETAIL must be one of none, contact, not "everything"',
      'LEADS_RETENTION_DAYS must be a whole number from 1 to 36500',
    ])
      expect(message).toContain(name);
    expect(message).not.toContain('secret');
  });

  it('takes a chat webhook over https, or plain http only to loopback; CHAT_ALERT_DETAIL and retention', () => {
    const problem = (url: string) => {
      try {
        readConfig({ CHAT_WEBHOOK_URL: url });
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problem('https://hooks.slack.com/services/T0/B0/x')).toBeUndefined();
    expect(problem('http://127.0.0.1:9000/hook')).toBeUndefined();
    expect(problem('http://localhost:9000/hook')).toBeUndefined();
    expect(problem('http://[::1]:9000/hook')).toBeUndefined();
    expect(problem('http://hooks.example.com/x')).toBe(
      "CHAT_WEBHOOK_URL must be an https URL (plain http only to this machine's loopback), not http://hooks.example.com",
    );
    expect(problem('http://10.0.0.5/hook')).toMatch(/must be an https URL/);
    expect(problem('ftp://hooks.example.com/x')).toMatch(/must be an https URL/);
    expect(readConfig({ CHAT_ALERT_DETAIL: 'contact', LEADS_RETENTION_DAYS: '30' })).toMatchObject({
      chatAlertDetail: 'contact',
      leadsRetentionDays: 30,
    });
  });

  it('refuses to serve beyond loopback with TRUST_PROXY not set at all; false, a proxy or loopback is fine', () => {
    const problem = (env: NodeJS.ProcessEnv) => listenProblem(readConfig(env), env);
    expect(problem({ HOST: '0.0.0.0' })).toMatch(/TRUST_PROXY is not set.*TRUST_PROXY=false/s);
    expect(problem({ HOST: '::', TRUST_PROXY: ' ' })).toMatch(/TRUST_PROXY/);
    expect(problem({ HOST: '10.0.0.5' })).toMatch(/TRUST_PROXY/);
    for (const env of [
      { HOST: '0.0.0.0', TRUST_PROXY: 'false' },
      { HOST: '0.0.0.0', TRUST_PROXY: '10.0.0.0/8' },
      { HOST: '0.0.0.0', TRUST_PROXY: '1' },
      {},
      { HOST: '127.0.0.1' },
      { HOST: '127.0.0.2' },
      { HOST: '::1' },
      { HOST: '[::1]' },
      { HOST: 'localhost' },
    ])
      expect(problem(env), JSON.stringify(env)).toBeUndefined();
  });
});

/** loadConfig: the defaults of the contract's environment table, and a ConfigError naming each bad variable. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const ADMIN_ENV = {
  STATION_ADMIN_EMAIL: 'admin@example.com',
  STATION_ADMIN_PASSWORD: 'a long enough password',
  STATION_ADMIN_TOTP_SECRET: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, '/srv/station');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('applies the defaults of the contract table when nothing is set', () => {
    const config = loadConfig({}, '/srv/station');
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe(resolve('/srv/station', './data'));
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
    expect(config.databaseUrl).toBeNull();
    expect(config.redisUrl).toBeNull();
    expect(config.logLevel).toBe('info');
    expect(config.admin).toBeNull();
    expect(config.serviceApiKey).toBeNull();
    expect(config.webhookSecret).toBeNull();
    expect(config.demo).toBe(true);
    expect(config.demoTrackSec).toBe(150);
    expect(config.schedulerCycleSec).toBe(30);
    expect(config.contextRotationSec).toBe(1800);
    expect(config.listenerBroadcastSec).toBe(15);
    expect(config.webhookAllowedHosts).toEqual({ any: false, keywords: ['external'], hosts: [], hostSuffixes: [], cidrs: [] });
    expect(config.databaseMigrationUrl).toBeNull();
    expect(config.metricsToken).toBeNull();
  });

  it('reads STATION_WEBHOOK_ALLOWED_HOSTS as keywords, *, host names and CIDRs', () => {
    const config = loadConfig({ STATION_WEBHOOK_ALLOWED_HOSTS: 'loopback, private,hooks.example.com,*.corp.example,10.20.0.0/16' }, '/srv');
    expect(config.webhookAllowedHosts).toEqual({
      any: false,
      keywords: ['loopback', 'private'],
      hosts: ['hooks.example.com'],
      hostSuffixes: ['corp.example'],
      cidrs: [{ address: '10.20.0.0', prefix: 16, family: 4 }],
    });
    expect(loadConfig({ STATION_WEBHOOK_ALLOWED_HOSTS: '*' }, '/srv').webhookAllowedHosts.any).toBe(true);
  });

  it('reads DATABASE_MIGRATION_URL (only beside DATABASE_URL) and METRICS_TOKEN', () => {
    const config = loadConfig(
      { DATABASE_URL: 'postgres://app@db:5432/station', DATABASE_MIGRATION_URL: 'postgresql://owner:pw@db:5432/station', METRICS_TOKEN: 'scrape-me' },
      '/srv',
    );
    expect(config).toMatchObject({ databaseMigrationUrl: 'postgresql://owner:pw@db:5432/station', metricsToken: 'scrape-me' });
    const alone = configError({ DATABASE_MIGRATION_URL: 'postgres://owner:secret-pw@db/station' });
    expect(alone.message).toContain('DATABASE_MIGRATION_URL');
    expect(alone.message).not.toContain('secret-pw');
  });

  it('derives PUBLIC_BASE_URL from PORT and reads every variable it is given', () => {
    expect(loadConfig({ PORT: '9000' }, '/srv').publicBaseUrl).toBe('http://localhost:9000');
    const config = loadConfig(
      {
        PORT: '3000',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/station',
        PUBLIC_BASE_URL: 'https://radio.example.com/',
        DATABASE_URL: 'postgres://u@db:5432/station',
        REDIS_URL: 'redis://cache:6379',
        LOG_LEVEL: 'WARN',
        STATION_DEMO: 'false',
        STATION_DEMO_TRACK_SEC: '30',
        STATION_SCHEDULER_CYCLE_SEC: '5',
        STATION_CONTEXT_ROTATION_SEC: '600',
        STATION_LISTENER_BROADCAST_SEC: '2',
        STATION_SERVICE_API_KEY: 'service-key-0123456789',
        STATION_WEBHOOK_SECRET: 'whsec',
        ...ADMIN_ENV,
      },
      '/srv',
    );
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/var/lib/station',
      publicBaseUrl: 'https://radio.example.com',
      databaseUrl: 'postgres://u@db:5432/station',
      redisUrl: 'redis://cache:6379',
      logLevel: 'warn',
      demo: false,
      demoTrackSec: 30,
      schedulerCycleSec: 5,
      contextRotationSec: 600,
      listenerBroadcastSec: 2,
      serviceApiKey: 'service-key-0123456789',
      webhookSecret: 'whsec',
      admin: { email: 'admin@example.com', password: ADMIN_ENV.STATION_ADMIN_PASSWORD, totpSecret: ADMIN_ENV.STATION_ADMIN_TOTP_SECRET },
    });
  });

  it('reads STATION_MAX_KEYS_PER_ACCOUNT: 10 by default, an integer from 1 to 1000', () => {
    expect(loadConfig({}, '/srv/station').maxKeysPerAccount).toBe(10);
    expect(loadConfig({ STATION_MAX_KEYS_PER_ACCOUNT: '25' }, '/srv/station').maxKeysPerAccount).toBe(25);
    for (const bad of ['0', '1001', 'ten']) expect(configError({ STATION_MAX_KEYS_PER_ACCOUNT: bad }).message).toContain('STATION_MAX_KEYS_PER_ACCOUNT');
  });

  it("reads STATION_TRAINING_STALE_SEC: how long a training job's heartbeat may lag before its worker counts as dead", () => {
    expect(loadConfig({}, '/srv/station').trainingStaleMs).toBe(20_000);
    expect(loadConfig({ STATION_TRAINING_STALE_SEC: '6' }, '/srv/station').trainingStaleMs).toBe(6000);
    // At least 5 s: a live worker beats every 2 s (src/station/training/job-control.ts).
    for (const bad of ['4', '3601', 'soon']) expect(configError({ STATION_TRAINING_STALE_SEC: bad }).message).toContain('STATION_TRAINING_STALE_SEC');
  });

  it("reads STATION_ENGINE_NICENESS: the engine's default when unset, an integer from 0 to 19", () => {
    expect(loadConfig({}, '/srv/station').engineThreadNiceness).toBeNull();
    expect(loadConfig({ STATION_ENGINE_NICENESS: '0' }, '/srv/station').engineThreadNiceness).toBe(0);
    expect(loadConfig({ STATION_ENGINE_NICENESS: '15' }, '/srv/station').engineThreadNiceness).toBe(15);
    for (const bad of ['20', '-1', 'low']) expect(configError({ STATION_ENGINE_NICENESS: bad }).message).toContain('STATION_ENGINE_NICENESS');
  });

  it('treats empty values as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '  ', STATION_DEMO: '' }, '/srv');
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeNull();
    expect(config.demo).toBe(true);
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['STATION_DEMO', { STATION_DEMO: 'maybe' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['REDIS_URL', { REDIS_URL: 'http://cache' }],
    ['PUBLIC_BASE_URL', { PUBLIC_BASE_URL: 'ftp://example.com' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['STATION_DEMO_TRACK_SEC', { STATION_DEMO_TRACK_SEC: '0' }],
    ['STATION_SCHEDULER_CYCLE_SEC', { STATION_SCHEDULER_CYCLE_SEC: 'soon' }],
    ['STATION_CONTEXT_ROTATION_SEC', { STATION_CONTEXT_ROTATION_SEC: '0' }],
    ['STATION_LISTENER_BROADCAST_SEC', { STATION_LISTENER_BROADCAST_SEC: '0' }],
    ['STATION_ADMIN_PASSWORD', { STATION_ADMIN_EMAIL: ADMIN_ENV.STATION_ADMIN_EMAIL }],
    ['STATION_ADMIN_EMAIL', { STATION_ADMIN_PASSWORD: ADMIN_ENV.STATION_ADMIN_PASSWORD, STATION_ADMIN_TOTP_SECRET: ADMIN_ENV.STATION_ADMIN_TOTP_SECRET }],
    ['STATION_ADMIN_TOTP_SECRET', { STATION_ADMIN_EMAIL: ADMIN_ENV.STATION_ADMIN_EMAIL, STATION_ADMIN_PASSWORD: ADMIN_ENV.STATION_ADMIN_PASSWORD }],
    ['STATION_ADMIN_TOTP_SECRET', { ...ADMIN_ENV, STATION_ADMIN_TOTP_SECRET: 'JBSWY3DP' }],
    ['STATION_ADMIN_TOTP_SECRET', { ...ADMIN_ENV, STATION_ADMIN_TOTP_SECRET: 'not base32 at all 0189!' }],
    ['STATION_ADMIN_PASSWORD', { ...ADMIN_ENV, STATION_ADMIN_PASSWORD: 'short' }],
    ['STATION_ADMIN_EMAIL', { ...ADMIN_ENV, STATION_ADMIN_EMAIL: 'not-an-address' }],
    ['STATION_SERVICE_API_KEY', { STATION_SERVICE_API_KEY: 'short' }],
    ['STATION_WEBHOOK_ALLOWED_HOSTS', { STATION_WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com:8443' }],
    ['STATION_WEBHOOK_ALLOWED_HOSTS', { STATION_WEBHOOK_ALLOWED_HOSTS: '10.0.0.0/33' }],
    ['STATION_WEBHOOK_ALLOWED_HOSTS', { STATION_WEBHOOK_ALLOWED_HOSTS: 'external,https://hooks.example.com' }],
    ['STATION_WEBHOOK_ALLOWED_HOSTS', { STATION_WEBHOOK_ALLOWED_HOSTS: ',' }],
    ['DATABASE_MIGRATION_URL', { DATABASE_URL: 'postgres://app@db/station', DATABASE_MIGRATION_URL: 'mysql://owner@db/station' }],
  ];

  it.each(bad)('rejects a bad %s with a ConfigError that names it (%j)', (variable, env) => {
    const error = configError(env);
    expect(error.message).toContain(variable);
  });

  it('never echoes a secret in the error message', () => {
    const error = configError({ ...ADMIN_ENV, STATION_ADMIN_PASSWORD: 'hunter2' });
    expect(error.message).not.toContain('hunter2');
    const totp = configError({ ...ADMIN_ENV, STATION_ADMIN_TOTP_SECRET: 'SHORTSECRET' });
    expect(totp.message).not.toContain('SHORTSECRET');
  });
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy when unset, empty or 0', () => {
    expect(loadConfig({}, '/srv').trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: ' ' }, '/srv').trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '0' }, '/srv').trustProxy).toEqual({ kind: 'none' });
  });

  it('reads a hop count', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }, '/srv').trustProxy).toEqual({ kind: 'hops', hops: 2 });
  });

  it('reads comma-separated addresses, CIDRs and the named ranges Fastify knows', () => {
    const config = loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8, loopback,uniquelocal' }, '/srv');
    expect(config.trustProxy).toEqual({ kind: 'addresses', addresses: ['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback', 'uniquelocal'] });
  });

  it.each(['true', 'all', '10.0.0.300', '10.0.0.0/33', '::1/129', '10.0.0.0/', '10.0.0.1,,10.0.0.2', 'example.com', '-1', '1.5'])(
    'rejects %j with a ConfigError naming TRUST_PROXY',
    (value) => {
      expect(configError({ TRUST_PROXY: value }).message).toContain('TRUST_PROXY');
    },
  );
});

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseDuration, parseTrustProxy } from './config';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('uses the documented defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: './data',
      poolSize: undefined,
      jwtSecret: undefined,
      tokenTtlSeconds: 12 * 3600,
      adminEmail: undefined,
      adminPassword: undefined,
      lowStockThreshold: 5,
      storeName: 'Inventory MS',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      trustProxy: false,
      redisUrl: undefined,
      production: false,
      importLeaseSeconds: 30,
    });
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      TOKEN_TTL: '',
      LOW_STOCK_THRESHOLD: '',
      DATABASE_POOL_SIZE: '',
      DATABASE_URL: '',
      TZ: '',
    });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      tokenTtlSeconds: 43_200,
      lowStockThreshold: 5,
    });
    expect(config.databaseUrl).toBeUndefined();
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgresql://ims:secret@db.internal:5432/ims',
      DATA_DIR: '/var/lib/ims',
      DATABASE_POOL_SIZE: '12',
      JWT_SECRET: 's'.repeat(32),
      TOKEN_TTL: '30m',
      ADMIN_EMAIL: 'Owner@Shop.Example',
      ADMIN_PASSWORD: 'eight ch',
      LOW_STOCK_THRESHOLD: '0',
      STORE_NAME: ' Corner Pharmacy ',
      TZ: 'Europe/Paris',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
      REDIS_URL: 'redis://cache.internal:6379/2',
      IMPORT_LEASE: '45s',
    });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://ims:secret@db.internal:5432/ims',
      dataDir: '/var/lib/ims',
      poolSize: 12,
      jwtSecret: 's'.repeat(32),
      tokenTtlSeconds: 1800,
      adminEmail: 'owner@shop.example',
      adminPassword: 'eight ch',
      lowStockThreshold: 0,
      storeName: 'Corner Pharmacy',
      timeZone: 'Europe/Paris',
      trustProxy: ['10.0.0.0/8', '192.168.1.1'],
      redisUrl: 'redis://cache.internal:6379/2',
      production: false,
      importLeaseSeconds: 45,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/ims' }).databaseUrl).toBe(
      'postgres://localhost/ims',
    );
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root' }).port).toBe(3000);
  });

  it('is in production only when NODE_ENV is production', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).production).toBe(false);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['TOKEN_TTL', 'forever'],
    ['TOKEN_TTL', '0s'],
    ['TOKEN_TTL', '12'],
    ['TOKEN_TTL', '1.5h'],
    ['TOKEN_TTL', '8d'],
    ['TOKEN_TTL', '169h'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.300'],
    ['TRUST_PROXY', 'proxy.internal'],
    ['REDIS_URL', 'localhost:6379'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'localhost:5432'],
    ['LOW_STOCK_THRESHOLD', '-1'],
    ['LOW_STOCK_THRESHOLD', 'few'],
    ['LOW_STOCK_THRESHOLD', '2.5'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['DATABASE_POOL_SIZE', '1000'],
    ['TZ', 'Mars/Base'],
    ['ADMIN_EMAIL', 'nope'],
    ['ADMIN_PASSWORD', 'short'],
    ['JWT_SECRET', 'short'],
    ['JWT_SECRET', 's'.repeat(31)],
    ['IMPORT_LEASE', 'soon'],
    ['IMPORT_LEASE', '0s'],
    ['IMPORT_LEASE', '2h'],
  ])('refuses %s=%s with a ConfigError naming the variable', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^Invalid ${name}: `));
    expect(error.message).not.toContain('\n');
  });

  it('names the bad variable even when others are fine', () => {
    const error = configError({ PORT: '4000', TZ: 'Europe/Paris', LOW_STOCK_THRESHOLD: 'lots' });
    expect(error.message).toMatch(/^Invalid LOW_STOCK_THRESHOLD: /);
  });

  it.each([
    ['JWT_SECRET', 'tiny-secret'],
    ['ADMIN_PASSWORD', 'hunter2'],
    ['DATABASE_URL', 'mysql://ims:pa55word@db/ims'],
    ['REDIS_URL', 'http://:pa55word@cache/0'],
  ])('does not repeat the value of %s, which may be a secret, in its message', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^Invalid ${name}: `));
    expect(error.message).not.toContain(value);
    expect(error.message).not.toMatch(/hunter2|pa55word|tiny-secret/);
  });

  it('repeats the value of a variable that is not secret, to help fix it', () => {
    expect(configError({ PORT: 'abc' }).message).toContain('"abc"');
  });
});

describe('TOKEN_TTL parsing', () => {
  it.each([
    ['45s', 45],
    ['30m', 1800],
    ['12h', 43_200],
    ['7d', 604_800],
    [' 2h ', 7200],
  ])('reads %s as %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', 'forever', '0s', '0h', '12', 'h', '1.5h', '-1h', '3w', '10ms'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('loadConfig turns TOKEN_TTL into seconds', () => {
    expect(loadConfig({ TOKEN_TTL: '7d' }).tokenTtlSeconds).toBe(604_800);
    expect(loadConfig({ TOKEN_TTL: '45s' }).tokenTtlSeconds).toBe(45);
  });
});

describe('TRUST_PROXY parsing', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
    ['2001:db8::/32,::1', ['2001:db8::/32', '::1']],
  ])('reads %j', (text, value) => {
    expect(parseTrustProxy(text)).toEqual(value);
  });

  it.each(['', 'maybe', '1.2.3.4/40', '::1/129', '1.2.3.4/8/8', '101'])('refuses %j', (text) => {
    expect(parseTrustProxy(text)).toBeUndefined();
  });

  it('a TOKEN_TTL of at most 7 days is accepted', () => {
    expect(loadConfig({ TOKEN_TTL: '168h' }).tokenTtlSeconds).toBe(604_800);
    expect(configError({ TOKEN_TTL: '8d' }).message).toBe(
      'Invalid TOKEN_TTL: must be at most 7 days (7d) (got "8d").',
    );
  });
});

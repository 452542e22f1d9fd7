import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/node/config.js';

/**
 * The configuration of docs/DESIGN.md: the defaults, and a bad value refused with a message that names
 * the variable (the server printing it as its one line: test/server.test.ts).
 */

describe('readConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      port: 8787,
      host: '0.0.0.0',
      basePath: '/tools/ip-reputation',
      dns: { servers: [], timeoutMs: 1500, retries: 1, transport: 'udp', dohUrls: [] },
      checkDeadlineMs: 4000,
      selfTestIntervalMs: 1_800_000,
      dailyLimit: 50,
      refundsPerDay: 10,
      resultTtlMs: 600_000,
      tokenTtlMs: 30 * 86_400_000,
      poolMaxIps: 32,
      trustProxy: { mode: 'none' },
      corsOrigins: ['*'],
      logLevel: 'info',
      store: { kind: 'sqlite', path: 'data/reputation.db' },
      workers: 1,
    });
    expect(config.connections).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      max: 512,
      maxPerClient: 32,
    });
    expect(config.cardRender).toEqual({ threads: 0, queue: 64 });
    // /metrics to loopback callers only, without a token (docs/operations.md).
    expect(config.metrics).toEqual({ allow: [] });
    // Unset means off: no captcha, no custom zone list, no Spamhaus DQS key.
    expect(config.captcha).toBeUndefined();
    expect(config.zonesFile).toBeUndefined();
    expect(config.listKeys).toEqual({});
  });

  it('gives the watches their documented defaults, and reads their variables', () => {
    expect(readConfig({}).watch).toEqual({
      intervalS: 3600,
      minIntervalS: 900,
      perCaller: 5,
      perNetwork: 20,
      max: 10_000,
      ttlMs: 90 * 86_400_000,
      webhookAllowNetworks: [],
      webhookAllowPorts: [
        [80, 80],
        [443, 443],
        [1024, 65535],
      ],
      webhookTimeoutMs: 10_000,
      pendingDeliveries: 20,
      emailConfirmationsPerDay: 500,
    });
    const watch = readConfig({
      WATCH_INTERVAL_S: '5',
      WATCH_MIN_INTERVAL_S: '1',
      WATCH_PER_CALLER: '2',
      WATCH_MAX: '100',
      WATCH_TTL_DAYS: '7',
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8, fd00::/8, 192.0.2.7',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_ALLOW_PORTS: '443, 8000-8999',
      WATCH_PER_NETWORK: '7',
      WATCH_PENDING_DELIVERIES: '3',
      EMAIL_CONFIRMATIONS_PER_DAY: '40',
    }).watch;
    expect(watch.webhookAllowPorts).toEqual([
      [443, 443],
      [8000, 8999],
    ]);
    expect(watch.perNetwork).toBe(7);
    expect(watch).toMatchObject({ intervalS: 5, minIntervalS: 1, perCaller: 2, max: 100 });
    expect(watch.ttlMs).toBe(7 * 86_400_000);
    expect(watch.webhookTimeoutMs).toBe(2500);
    expect(watch.pendingDeliveries).toBe(3);
    expect(watch.emailConfirmationsPerDay).toBe(40);
    expect(watch.webhookAllowNetworks.map(([address, prefix]) => `${address}/${prefix}`)).toEqual([
      '127.0.0.0/8',
      'fd00::/8',
      '192.0.2.7/32',
    ]);
  });

  it('treats an empty variable as unset', () => {
    expect(readConfig({ PORT: '', DAILY_LIMIT: '', TRUST_PROXY: '' }).port).toBe(8787);
  });

  it('reads every variable it is given', () => {
    const config = readConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      BASE_PATH: '/api',
      DNS_SERVERS: '127.0.0.1:5353, 9.9.9.9, [2620:fe::fe]:53',
      DNS_TIMEOUT_MS: '800',
      DNS_RETRIES: '2',
      DAILY_LIMIT: '7',
      REFUNDS_PER_DAY: '0',
      RESULT_TTL_S: '60',
      TOKEN_TTL_DAYS: '2',
      TRUST_PROXY: '10.0.0.0/8,::1',
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'site',
      CAPTCHA_SECRET: 'secret',
      CAPTCHA_FREE_CHECKS: '3',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      LOG_LEVEL: 'debug',
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      MAX_CONNECTIONS: '100',
      MAX_CONNECTIONS_PER_CLIENT: '10',
      CARD_RENDER_THREADS: '2',
      CARD_RENDER_QUEUE: '8',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      basePath: '/api',
      dns: {
        servers: ['127.0.0.1:5353', '9.9.9.9', '[2620:fe::fe]:53'],
        timeoutMs: 800,
        retries: 2,
      },
      dailyLimit: 7,
      refundsPerDay: 0,
      resultTtlMs: 60_000,
      tokenTtlMs: 2 * 86_400_000,
      trustProxy: { mode: 'cidrs' },
      captcha: { provider: 'turnstile', siteKey: 'site', secret: 'secret', freeChecks: 3 },
      corsOrigins: ['https://a.example', 'https://b.example'],
      logLevel: 'debug',
      connections: {
        headersTimeoutMs: 2000,
        requestTimeoutMs: 4000,
        keepAliveTimeoutMs: 1000,
        max: 100,
        maxPerClient: 10,
      },
      cardRender: { threads: 2, queue: 8 },
    });
  });

  it('reads DNS_TRANSPORT=doh with its comma list of DOH_URL endpoints, in order', () => {
    const config = readConfig({
      DNS_TRANSPORT: 'doh',
      DOH_URL: 'https://dns.example/dns-query, http://127.0.0.1:8053/dns-query',
    });
    expect(config.dns).toMatchObject({
      transport: 'doh',
      dohUrls: ['https://dns.example/dns-query', 'http://127.0.0.1:8053/dns-query'],
    });
  });

  it('refuses DNS_TRANSPORT=doh without DOH_URL, naming DOH_URL and why', () => {
    expect(() => readConfig({ DNS_TRANSPORT: 'doh' })).toThrow(
      /DOH_URL: required with DNS_TRANSPORT=doh/,
    );
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['DNS_TRANSPORT', { DNS_TRANSPORT: 'tcp' }],
    ['DOH_URL', { DNS_TRANSPORT: 'doh', DOH_URL: 'dns.example/dns-query' }],
    ['DOH_URL', { DNS_TRANSPORT: 'doh', DOH_URL: 'ftp://dns.example/dns-query' }],
    ['DOH_URL', { DNS_TRANSPORT: 'doh', DOH_URL: 'https://user:pass@dns.example/dns-query' }],
    ['PORT', { PORT: '70000' }],
    ['DNS_SERVERS', { DNS_SERVERS: 'nonsense' }],
    ['DNS_SERVERS', { DNS_SERVERS: '1.2.3.4:0' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'garbage' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['CAPTCHA_SECRET', { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SITE_KEY: 'site' }],
    ['CAPTCHA_SITE_KEY', { CAPTCHA_PROVIDER: 'hcaptcha', CAPTCHA_SECRET: 'secret' }],
    ['CAPTCHA_PROVIDER', { CAPTCHA_PROVIDER: 'recaptcha' }],
    ['CAPTCHA_VERIFY_URL', { CAPTCHA_VERIFY_URL: 'ftp://example.net/verify' }],
    ['STORE_URL', { STORE_URL: 'postgres://db.example/reputation' }],
    ['STORE_URL', { STORE_URL: 'sqlite:' }],
    ['STORE_URL', { STORE_URL: 'memory' }],
    ['STORE_URL', { STORE_URL: 'redis://cache.example/not-a-number' }],
    ['STORE_URL', { STORE_URL: 'redis://cache.example:6379/0?tls=1' }],
    ['WORKERS', { WORKERS: '0' }],
    ['WORKERS', { WORKERS: 'two' }],
    ['DAILY_LIMIT', { DAILY_LIMIT: '0' }],
    ['DAILY_LIMIT', { DAILY_LIMIT: '2.5' }],
    ['REFUNDS_PER_DAY', { REFUNDS_PER_DAY: '-1' }],
    ['DNS_TIMEOUT_MS', { DNS_TIMEOUT_MS: '-1' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['BASE_PATH', { BASE_PATH: '/tools/' }],
    ['SPAMHAUS_DQS_KEY', { SPAMHAUS_DQS_KEY: 'Not A Key!' }],
    ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '0' }],
    ['HEADERS_TIMEOUT_MS', { HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' }],
    ['KEEP_ALIVE_TIMEOUT_MS', { KEEP_ALIVE_TIMEOUT_MS: 'soon' }],
    ['MAX_CONNECTIONS', { MAX_CONNECTIONS: '0' }],
    ['MAX_CONNECTIONS_PER_CLIENT', { MAX_CONNECTIONS_PER_CLIENT: '0' }],
    ['MAX_CONNECTIONS_PER_CLIENT', { MAX_CONNECTIONS_PER_CLIENT: '64', MAX_CONNECTIONS: '63' }],
    // The default share (32) is more than a smaller MAX_CONNECTIONS: the start says which to set.
    ['MAX_CONNECTIONS_PER_CLIENT', { MAX_CONNECTIONS: '16' }],
    ['CARD_RENDER_THREADS', { CARD_RENDER_THREADS: '-1' }],
    ['CARD_RENDER_QUEUE', { CARD_RENDER_QUEUE: '1.5' }],
    ['METRICS_ALLOW', { METRICS_ALLOW: '10.0.0.0/8, nonsense' }],
    ['METRICS_ALLOW', { METRICS_ALLOW: '10.0.0.0/40' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'a token with spaces in it' }],
    ['WATCH_INTERVAL_S', { WATCH_INTERVAL_S: '600' }],
    ['WATCH_INTERVAL_S', { WATCH_INTERVAL_S: '120', WATCH_MIN_INTERVAL_S: '300' }],
    ['WATCH_MIN_INTERVAL_S', { WATCH_MIN_INTERVAL_S: '0' }],
    ['WATCH_PER_CALLER', { WATCH_PER_CALLER: 'five' }],
    ['WATCH_MAX', { WATCH_MAX: '0' }],
    ['WATCH_TTL_DAYS', { WATCH_TTL_DAYS: '0' }],
    ['WEBHOOK_ALLOW_NETWORKS', { WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/8, intranet' }],
    ['WEBHOOK_ALLOW_NETWORKS', { WEBHOOK_ALLOW_NETWORKS: '10.0.0.0/33' }],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '10' }],
    ['WATCH_PER_NETWORK', { WATCH_PER_NETWORK: '0' }],
    ['WEBHOOK_ALLOW_PORTS', { WEBHOOK_ALLOW_PORTS: '443, 0' }],
    ['WEBHOOK_ALLOW_PORTS', { WEBHOOK_ALLOW_PORTS: '9000-8000' }],
    ['WEBHOOK_ALLOW_PORTS', { WEBHOOK_ALLOW_PORTS: '80, https' }],
    ['OPERATOR_TOKEN', { OPERATOR_TOKEN: 'short' }],
  ])('refuses a bad %s with a message naming it', (name, env) => {
    expect(() => readConfig(env)).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it.each([
    ['memory:', { kind: 'memory' }],
    [
      'sqlite:/var/lib/reputation/state.db',
      { kind: 'sqlite', path: '/var/lib/reputation/state.db' },
    ],
    ['sqlite:relative/file.db', { kind: 'sqlite', path: 'relative/file.db' }],
    ['redis://127.0.0.1:6379/2', { kind: 'redis', url: 'redis://127.0.0.1:6379/2' }],
    [
      'redis://user:pass@cache.internal:6380',
      { kind: 'redis', url: 'redis://user:pass@cache.internal:6380' },
    ],
    ['rediss://cache.example:6380/0', { kind: 'redis', url: 'rediss://cache.example:6380/0' }],
  ])('reads STORE_URL=%s', (url, store) => {
    expect(readConfig({ STORE_URL: url }).store).toEqual(store);
  });

  it('reads METRICS_ALLOW as address ranges and METRICS_TOKEN as given', () => {
    const config = readConfig({
      METRICS_ALLOW: '10.1.0.0/16, 2001:db8::/32, 192.0.2.7',
      METRICS_TOKEN: 'Zm9vYmFyYmF6cXV4MTIz==',
    });
    expect(config.metrics.allow).toHaveLength(3);
    expect(config.metrics.token).toBe('Zm9vYmFyYmF6cXV4MTIz==');
  });

  it('never repeats METRICS_TOKEN in its message', () => {
    expect(() => readConfig({ METRICS_TOKEN: 'bad token value!' })).toThrow(/METRICS_TOKEN/);
    expect(() => readConfig({ METRICS_TOKEN: 'bad token value!' })).not.toThrow(/bad token/);
  });

  it('refuses WORKERS above 1 with the memory store, naming both variables', () => {
    expect(() => readConfig({ WORKERS: '2', STORE_URL: 'memory:' })).toThrow(
      /WORKERS[\s\S]*STORE_URL=memory:/,
    );
    expect(readConfig({ WORKERS: '4' }).workers).toBe(4);
    expect(readConfig({ WORKERS: '2', STORE_URL: 'redis://127.0.0.1:6379' }).workers).toBe(2);
  });

  it('never repeats a Redis password in its message', () => {
    expect(() => readConfig({ STORE_URL: 'redis://user:hunter2@cache.example/x' })).toThrow(
      /STORE_URL/,
    );
    expect(() => readConfig({ STORE_URL: 'redis://user:hunter2@cache.example/x' })).not.toThrow(
      /hunter2/,
    );
  });

  it('names every bad variable at once, on one line, with the range a number must be in', () => {
    let message = '';
    try {
      readConfig({ PORT: 'abc', DAILY_LIMIT: '0' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^invalid configuration: /);
    expect(message).toContain('PORT: an integer from 0 to 65535');
    expect(message).toContain('DAILY_LIMIT: an integer from 1 to 10000000');
    expect(message).not.toContain('\n');
  });

  it('never repeats a secret value in its message', () => {
    let message = '';
    try {
      readConfig({ CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 's3cr3t-value', PORT: 'x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PORT/);
    expect(message).not.toContain('s3cr3t-value');
  });
});

import { isIP } from 'node:net';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/caller.js';
import { type StoreLocation, defaultStoreUrl, parseStoreUrl } from './store/location.js';

/**
 * The service's configuration, read from the environment and validated at start: a bad value
 * stops the process with a message naming the variable (DESIGN.md, Configuration).
 */

const integer = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** `ip`, `ip:port` or `[ipv6]:port`, the forms `node:dns` `setServers` takes. */
function isDnsServer(entry: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1] ?? '', bracketed[2]]
    : isIP(entry)
      ? [entry, undefined]
      : (entry.split(':') as [string, string | undefined]);
  return isIP(host) !== 0 && (port === undefined || (Number(port) > 0 && Number(port) < 65536));
}

/** An absolute http(s) URL without credentials: where DoH queries are POSTed (RFC 8484 §4.1). */
function isDohEndpoint(entry: string): boolean {
  if (!URL.canParse(entry)) return false;
  const url = new URL(entry);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === ''
  );
}

const list = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );

const envSchema = z
  .object({
    PORT: integer(8787, 0, 65535),
    HOST: z.string().min(1).default('0.0.0.0'),
    BASE_PATH: z
      .string()
      .regex(
        /^(\/[A-Za-z0-9._~-]+)*$/,
        'a path such as /tools/ip-reputation, without a trailing slash',
      )
      .default('/tools/ip-reputation'),
    DNS_SERVERS: list.refine(
      (servers) => servers.every(isDnsServer),
      'a comma list of ip or ip:port',
    ),
    DNS_TRANSPORT: z.enum(['udp', 'doh']).default('udp'),
    DOH_URL: list.refine(
      (urls) => urls.every(isDohEndpoint),
      'a comma list of http:// or https:// URLs of RFC 8484 endpoints',
    ),
    DNS_TIMEOUT_MS: integer(1500, 50, 30_000),
    DNS_RETRIES: integer(1, 0, 5),
    CHECK_DEADLINE_MS: integer(4000, 100, 60_000),
    DNSBL_ZONES_FILE: z.string().min(1).optional(),
    SPAMHAUS_DQS_KEY: z
      .string()
      .regex(/^[a-z0-9]+$/, 'a Spamhaus DQS key (lowercase letters and digits)')
      .optional(),
    SELFTEST_INTERVAL_S: integer(1800, 10, 86_400),
    DAILY_LIMIT: integer(50, 1, 10_000_000),
    RESULT_TTL_S: integer(600, 0, 86_400),
    TOKEN_TTL_DAYS: integer(30, 1, 3650),
    POOL_MAX_IPS: integer(32, 1, 256),
    POOL_NS_PORT: integer(53, 1, 65535),
    POOL_NS_ALLOW_NON_PUBLIC: z.enum(['true', 'false']).default('false'),
    TRUST_PROXY: z
      .string()
      .default('none')
      .transform((value, ctx) => {
        try {
          return parseTrustProxy(value);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: (error as Error).message.replace(/^TRUST_PROXY: /, ''),
          });
          return z.NEVER;
        }
      }),
    CAPTCHA_PROVIDER: z.enum(['none', 'smartcaptcha', 'turnstile', 'hcaptcha']).default('none'),
    CAPTCHA_SITE_KEY: z.string().default(''),
    CAPTCHA_SECRET: z.string().default(''),
    CAPTCHA_VERIFY_URL: z.url({ protocol: /^https?$/ }).optional(),
    CAPTCHA_FREE_CHECKS: integer(0, 0, 10_000_000),
    STORE_URL: z
      .string()
      .default(defaultStoreUrl)
      .transform((url, ctx) => {
        try {
          return parseStoreUrl(url);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    WORKERS: integer(1, 1, 256),
    PUBLIC_URL: z
      .url({ protocol: /^https?$/ })
      .refine((text) => {
        const url = new URL(text);
        return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
      }, 'an http(s) URL such as https://rep.example.org, without query, fragment or credentials')
      .optional(),
    CORS_ORIGINS: list.transform((origins) => (origins.length === 0 ? ['*'] : origins)),
    LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
    HEADERS_TIMEOUT_MS: integer(10_000, 100, 600_000),
    REQUEST_TIMEOUT_MS: integer(30_000, 100, 3_600_000),
    KEEP_ALIVE_TIMEOUT_MS: integer(5000, 100, 600_000),
    MAX_CONNECTIONS: integer(512, 1, 1_000_000),
    CARD_RENDER_THREADS: integer(0, 0, 64),
    CARD_RENDER_QUEUE: integer(64, 0, 100_000),
  })
  .superRefine((env, ctx) => {
    if (env.DNS_TRANSPORT === 'doh' && env.DOH_URL.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['DOH_URL'],
        message: 'required with DNS_TRANSPORT=doh',
      });
    }
  })
  .superRefine((env, ctx) => {
    // Node refuses a headers timeout longer than the whole request's (the headers are part of it).
    if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['HEADERS_TIMEOUT_MS'],
        message: `at most REQUEST_TIMEOUT_MS (${env.REQUEST_TIMEOUT_MS})`,
      });
    // Each worker would have its own memory: tokens made by one would be 404 on the others, and
    // every worker would count its own quota.
    if (env.WORKERS > 1 && env.STORE_URL.kind === 'memory') {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKERS'],
        message: `WORKERS=${env.WORKERS} needs a store the workers share: STORE_URL=memory: keeps one per process; use sqlite:PATH or redis://`,
      });
    }
    if (env.CAPTCHA_PROVIDER === 'none') return;
    for (const name of ['CAPTCHA_SITE_KEY', 'CAPTCHA_SECRET'] as const) {
      if (env[name] === '')
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `required with CAPTCHA_PROVIDER=${env.CAPTCHA_PROVIDER}`,
        });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  basePath: string;
  dns: {
    servers: string[];
    timeoutMs: number;
    retries: number;
    /** `udp` (c-ares, `servers`) or `doh` (RFC 8484, `dohUrls`). */
    transport: 'udp' | 'doh';
    dohUrls: string[];
  };
  checkDeadlineMs: number;
  zonesFile?: string;
  spamhausDqsKey?: string;
  selfTestIntervalMs: number;
  dailyLimit: number;
  resultTtlMs: number;
  tokenTtlMs: number;
  poolMaxIps: number;
  /** Where pool discovery asks a pool's own name servers: their port, and whether private ones may be asked (tests, demo). */
  poolNameServers: { port: number; allowNonPublic: boolean };
  trustProxy: TrustProxy;
  captcha?: {
    provider: 'smartcaptcha' | 'turnstile' | 'hcaptcha';
    siteKey: string;
    secret: string;
    verifyUrl?: string;
    freeChecks: number;
  };
  /** STORE_URL: where tokens, the result cache, quotas and pool discoveries live. */
  store: StoreLocation;
  /** WORKERS: processes serving one port (node:cluster). */
  workers: number;
  /**
   * Where the public reaches the service, e.g. `https://rep.example.org` (a path is the prefix a
   * proxy mounts it under); every absolute URL starts with it followed by BASE_PATH. Without a
   * trailing slash.
   */
  publicUrl?: string;
  corsOrigins: string[];
  logLevel: 'silent' | 'error' | 'info' | 'debug';
  /** Connection hygiene of the Node server (docs/http-hardening.md). */
  connections: {
    /** A request's headers must be in within this. */
    headersTimeoutMs: number;
    /** The whole request (headers and body) must be in within this. */
    requestTimeoutMs: number;
    /** An idle kept-alive connection is closed after this. */
    keepAliveTimeoutMs: number;
    /** Open connections per process; one more is refused with a 503. */
    max: number;
  };
  /** Card rendering off the event loop: worker threads (0: one per core but one) and queued cards. */
  cardRender: { threads: number; queue: number };
}

/** Reads the configuration, or throws one Error listing every bad variable by name. */
export function readConfig(env: Record<string, string | undefined>): Config {
  // An empty variable counts as unset, as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    basePath: e.BASE_PATH,
    dns: {
      servers: e.DNS_SERVERS,
      timeoutMs: e.DNS_TIMEOUT_MS,
      retries: e.DNS_RETRIES,
      transport: e.DNS_TRANSPORT,
      dohUrls: e.DOH_URL,
    },
    checkDeadlineMs: e.CHECK_DEADLINE_MS,
    ...(e.DNSBL_ZONES_FILE ? { zonesFile: e.DNSBL_ZONES_FILE } : {}),
    ...(e.SPAMHAUS_DQS_KEY ? { spamhausDqsKey: e.SPAMHAUS_DQS_KEY } : {}),
    selfTestIntervalMs: e.SELFTEST_INTERVAL_S * 1000,
    dailyLimit: e.DAILY_LIMIT,
    resultTtlMs: e.RESULT_TTL_S * 1000,
    tokenTtlMs: e.TOKEN_TTL_DAYS * 86_400_000,
    poolMaxIps: e.POOL_MAX_IPS,
    poolNameServers: {
      port: e.POOL_NS_PORT,
      allowNonPublic: e.POOL_NS_ALLOW_NON_PUBLIC === 'true',
    },
    trustProxy: e.TRUST_PROXY,
    ...(e.CAPTCHA_PROVIDER !== 'none'
      ? {
          captcha: {
            provider: e.CAPTCHA_PROVIDER,
            siteKey: e.CAPTCHA_SITE_KEY,
            secret: e.CAPTCHA_SECRET,
            ...(e.CAPTCHA_VERIFY_URL ? { verifyUrl: e.CAPTCHA_VERIFY_URL } : {}),
            freeChecks: e.CAPTCHA_FREE_CHECKS,
          },
        }
      : {}),
    store: e.STORE_URL,
    workers: e.WORKERS,
    ...(e.PUBLIC_URL ? { publicUrl: new URL(e.PUBLIC_URL).href.replace(/\/+$/, '') } : {}),
    corsOrigins: e.CORS_ORIGINS,
    logLevel: e.LOG_LEVEL,
    connections: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      max: e.MAX_CONNECTIONS,
    },
    cardRender: { threads: e.CARD_RENDER_THREADS, queue: e.CARD_RENDER_QUEUE },
  };
}

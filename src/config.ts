import { z } from 'zod';
import { parseTrustProxy, type TrustProxy } from './http/index.js';

/**
 * The configuration every runtime shares, read from the environment (`process.env` on Node, the
 * Worker's `env` vars on Workers) and validated at start: a bad value stops the process, or
 * answers every request on Workers, with a message naming the variable (DESIGN.md,
 * Configuration). What only the Node server reads (ports, sockets, processes, files, threads) is
 * added by src/node/config.ts; what only Workers reads by src/workers/config.ts.
 */

/** A whole number within bounds; every way of missing them gets the one message saying them. */
export const integer = (fallback: number, min: number, max: number) => {
  const expected = `an integer from ${min} to ${max}`;
  return z.coerce
    .number(expected)
    .int(expected)
    .min(min, expected)
    .max(max, expected)
    .default(fallback);
};

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

export const commaList = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );

/** The variables of every runtime, as zod reads them. */
export const sharedVariables = {
  BASE_PATH: z
    .string()
    .regex(
      /^(\/[A-Za-z0-9._~-]+)*$/,
      'a path such as /tools/ip-reputation, without a trailing slash',
    )
    .default('/tools/ip-reputation'),
  DOH_URL: commaList.refine(
    (urls) => urls.every(isDohEndpoint),
    'a comma list of http:// or https:// URLs of RFC 8484 endpoints',
  ),
  DNS_TIMEOUT_MS: integer(1500, 50, 30_000),
  DNS_RETRIES: integer(1, 0, 5),
  CHECK_DEADLINE_MS: integer(4000, 100, 60_000),
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
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .refine((text) => {
      const url = new URL(text);
      return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    }, 'an http(s) URL such as https://rep.example.org, without query, fragment or credentials')
    .optional(),
  CORS_ORIGINS: commaList.transform((origins) => (origins.length === 0 ? ['*'] : origins)),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
};

type SharedEnv = z.infer<z.ZodObject<typeof sharedVariables>>;

/** The rules between shared variables; each runtime's schema applies them with `superRefine`. */
export function refineShared(env: SharedEnv, ctx: z.RefinementCtx): void {
  if (env.CAPTCHA_PROVIDER === 'none') return;
  for (const name of ['CAPTCHA_SITE_KEY', 'CAPTCHA_SECRET'] as const) {
    if (env[name] === '')
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `required with CAPTCHA_PROVIDER=${env.CAPTCHA_PROVIDER}`,
      });
  }
}

/** What the app and its services read, on every runtime. */
export interface Config {
  basePath: string;
  dns: {
    timeoutMs: number;
    retries: number;
    /** RFC 8484 endpoints (`DOH_URL`), in order of preference. */
    dohUrls: string[];
  };
  checkDeadlineMs: number;
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
  /**
   * Where the public reaches the service, e.g. `https://rep.example.org` (a path is the prefix a
   * proxy mounts it under); every absolute URL starts with it followed by BASE_PATH. Without a
   * trailing slash.
   */
  publicUrl?: string;
  corsOrigins: string[];
  logLevel: 'silent' | 'error' | 'info' | 'debug';
}

/** The shared part of a parsed environment, as the app reads it. */
export function sharedConfig(e: SharedEnv): Config {
  return {
    basePath: e.BASE_PATH,
    dns: { timeoutMs: e.DNS_TIMEOUT_MS, retries: e.DNS_RETRIES, dohUrls: e.DOH_URL },
    checkDeadlineMs: e.CHECK_DEADLINE_MS,
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
    ...(e.PUBLIC_URL ? { publicUrl: new URL(e.PUBLIC_URL).href.replace(/\/+$/, '') } : {}),
    corsOrigins: e.CORS_ORIGINS,
    logLevel: e.LOG_LEVEL,
  };
}

/**
 * Parses an environment with a runtime's schema, or throws one Error listing every bad variable
 * by name on one line (never its value: some are secrets). An empty variable counts as unset, as in most
 * shells' `VAR= cmd`; values that are not strings (Workers bindings) are not variables.
 */
export function parseEnvironment<S extends z.ZodType>(
  schema: S,
  env: Record<string, unknown>,
): z.infer<S> {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => typeof value === 'string' && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    // One line: the Node server prints it as its only output, Workers answers it in a JSON error.
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

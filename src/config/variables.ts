import { z } from 'zod';
import { captchaProviderNames } from '../http/index.js';
import { type ConfigOf, commaList, integer, type Rule, section, variable } from './environment.js';
import { days, isDohEndpoint, networks, publicUrl, seconds, trustProxy } from './values.js';
import { reportsVariables } from './reports-variables.js';
import { watchVariables } from './watch-variables.js';

/**
 * The variables every runtime reads (`process.env` on Node, the Worker's `env` vars on Workers),
 * as one table (src/config/environment.ts): a bad value stops the process, or answers every request on
 * Workers, with a message naming the variable (docs/configuration.md). What only the Node server
 * reads (ports, sockets, processes, files, threads) is src/node/config.ts's table; what only
 * Workers reads, src/workers/config.ts's.
 */

/**
 * Which proxy headers name the caller and the public origin: read by the Node server only. On
 * Workers the caller is `CF-Connecting-IP`, which Cloudflare sets on every request, and no
 * forwarded header is believed (docs/edge.md), so these two are not in the shared table.
 */
export const proxyVariables = {
  trustProxy: variable({
    name: 'TRUST_PROXY',
    parser: trustProxy,
    default: 'none',
    meaning:
      "Where the caller's address comes from: `none` (the socket peer), `cloudflare` (`CF-Connecting-IP`), a hop count for `X-Forwarded-For`, or a comma list of trusted proxy CIDRs.",
  }),
  forwardedHeaders: variable({
    name: 'FORWARDED_HEADERS',
    parser: z.enum(['x-forwarded', 'forwarded']),
    default: 'x-forwarded',
    meaning:
      'The one header family a `TRUST_PROXY` proxy is believed in: `x-forwarded` (`X-Forwarded-For`, `-Proto`, `-Host`) or `forwarded` (RFC 7239 `Forwarded`), never both; the proxy must clear the family it does not set ([`pages.md`](pages.md#public-urls)).',
  }),
};

/** The proxy settings as the app reads them; absent on Workers, where nothing is believed. */
export type ProxySettings = ConfigOf<typeof proxyVariables>;

export const sharedVariables = {
  basePath: variable({
    name: 'BASE_PATH',
    parser: z
      .string()
      .regex(
        /^(\/[A-Za-z0-9._~-]+)*$/,
        'a path such as /tools/ip-reputation, without a trailing slash',
      ),
    default: '/tools/ip-reputation',
    meaning: 'Prefix of every route, without a trailing slash.',
  }),
  publicUrl: variable({
    name: 'PUBLIC_URL',
    parser: publicUrl,
    meaning:
      "Public address (`https://rep.example.org`, a path in it being a proxy's prefix) of every absolute URL; without it, forwarded headers count only from `TRUST_PROXY` proxies ([`pages.md`](pages.md#public-urls)).",
  }),
  corsOrigins: variable({
    name: 'CORS_ORIGINS',
    parser: commaList.refine((origins) => origins.length > 0, 'a comma list of origins, or *'),
    default: '*',
    meaning: 'Comma list of the origins allowed to call the API from a browser.',
  }),
  logLevel: variable({
    name: 'LOG_LEVEL',
    parser: z.enum(['silent', 'error', 'warn', 'info', 'debug']),
    default: 'info',
    meaning:
      'One JSON line per request at `info`, without bodies, headers or query strings (captcha tokens never reach the log); at `warn`, what the operator should act on: failed deliveries, an `SMTP_URL` that does not work at start.',
  }),
  dailyLimit: variable({
    name: 'DAILY_LIMIT',
    parser: integer(1, 10_000_000),
    default: '50',
    meaning: 'Fresh checks per tool, per caller, per UTC day.',
  }),
  refundsPerDay: variable({
    name: 'REFUNDS_PER_DAY',
    parser: integer(0, 10_000_000),
    default: '10',
    meaning:
      'Failed checks (`dns_unavailable` before any list was asked) a caller gets its unit back for per UTC day, all tools together; `0`: never ([`results.md`](results.md#refunds)).',
  }),
  resultTtlMs: variable({
    name: 'RESULT_TTL_S',
    parser: seconds(0, 86_400),
    default: '600',
    meaning:
      'Seconds within which the same request answers the stored result (`from_cache: true`, no quota); `0` turns it off.',
  }),
  tokenTtlMs: variable({
    name: 'TOKEN_TTL_DAYS',
    parser: days(1, 3650),
    default: '30',
    meaning: 'Days a result stays fetchable by its token.',
  }),
  captcha: section('provider', {
    provider: variable({
      name: 'CAPTCHA_PROVIDER',
      parser: z
        .enum(['none', ...captchaProviderNames])
        .transform((name) => (name === 'none' ? undefined : name)),
      default: 'none',
      meaning:
        'The captcha asked of callers past `CAPTCHA_FREE_CHECKS` a day ([`pages.md`](pages.md)).',
    }),
    siteKey: variable({
      name: 'CAPTCHA_SITE_KEY',
      parser: z.string(),
      default: '',
      meaning: "The widget's public key, sent as `siteKey`; required with a provider.",
    }),
    secret: variable({
      name: 'CAPTCHA_SECRET',
      parser: z.string(),
      default: '',
      meaning: 'The key the server verifies tokens with; required with a provider.',
    }),
    verifyUrl: variable({
      name: 'CAPTCHA_VERIFY_URL',
      parser: z.url({ protocol: /^https?$/ }),
      meaning: "Replaces the provider's verification endpoint (unset: the provider's own).",
    }),
    freeChecks: variable({
      name: 'CAPTCHA_FREE_CHECKS',
      parser: integer(0, 10_000_000),
      default: '0',
      meaning: 'Checks per caller per day before a captcha is required.',
    }),
    failOpenPerDay: variable({
      name: 'CAPTCHA_FAIL_OPEN_PER_DAY',
      parser: integer(0, 10_000),
      default: '3',
      meaning:
        'Checks per caller per day let through unverified while a fail-open provider (SmartCaptcha) fails; past it, 503 `captcha_unavailable` ([`storage.md`](storage.md#atomic-quotas-quota-before-captcha)).',
    }),
  }),
  poolMaxIps: variable({
    name: 'POOL_MAX_IPS',
    parser: integer(1, 256),
    default: '32',
    meaning: 'Addresses per pool check, and the most a pool discovery lists.',
  }),
  checkDeadlineMs: variable({
    name: 'CHECK_DEADLINE_MS',
    parser: integer(100, 60_000),
    default: '4000',
    meaning: 'No check waits longer: lists that have not answered by then are `timeout`.',
  }),
  dns: {
    timeoutMs: variable({
      name: 'DNS_TIMEOUT_MS',
      parser: integer(50, 30_000),
      default: '1500',
      meaning:
        'Timeout of each try of a DNS query: a UDP query and its TCP retry when the answer comes back truncated, or one DoH exchange.',
    }),
    retries: variable({
      name: 'DNS_RETRIES',
      parser: integer(0, 5),
      default: '1',
      meaning: 'Retries per DNS query.',
    }),
    dohUrls: variable({
      name: 'DOH_URL',
      parser: commaList.refine(
        (urls) => urls.every(isDohEndpoint),
        'a comma list of http:// or https:// URLs of RFC 8484 endpoints',
      ),
      default: '',
      meaning:
        'Comma list of DNS-over-HTTPS endpoints (RFC 8484), e.g. `https://cloudflare-dns.com/dns-query`, asked in order, the first until it fails; required with `DNS_TRANSPORT=doh` and on Workers ([`edge.md`](edge.md)).',
    }),
    knownZones: variable({
      name: 'DNS_KNOWN_ZONES',
      parser: commaList
        .transform((zones) => zones.map((zone) => zone.toLowerCase().replace(/\.$/, '')))
        .refine(
          (zones) => zones.every((zone) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(zone)),
          'a comma list of domain names, such as demo-sender.com,demo-mail.net',
        ),
      default: '',
      meaning:
        'The only zones the DNS knows, in a closed world such as `npm run demo`’s (which sets it): a name outside them is refused with 400 `invalid_target` naming them, where the DNS would fail it later; for tests and `npm run demo` only ([`results.md`](results.md#errors-that-guide)).',
    }),
  },
  /**
   * The list keys, each under the variable the zone list names for it (`key.variable`), so this
   * group is the engine's ListKeys as it stands.
   */
  listKeys: {
    SPAMHAUS_DQS_KEY: variable({
      name: 'SPAMHAUS_DQS_KEY',
      parser: z.string().regex(/^[a-z0-9]+$/, 'a Spamhaus DQS key (lowercase letters and digits)'),
      meaning:
        'Asks Spamhaus zones through its Data Query Service (`<key>.zen.dq.spamhaus.net`), which answers public resolvers too, and turns on the lists only it serves (ZRD, AuthBL); the key never appears in any output.',
    }),
    ABUSIX_KEY: variable({
      name: 'ABUSIX_KEY',
      parser: z
        .string()
        .regex(
          /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/,
          'an Abusix Mail Intelligence key (one DNS label: letters, digits, inner hyphens)',
        ),
      meaning:
        'Turns on the Abusix Mail Intelligence lists, asked as `<key>.combined.mail.abusix.zone`; without it they show as `disabled`, never asked. The key never appears in any output.',
    }),
  },
  selfTestIntervalMs: variable({
    name: 'SELFTEST_INTERVAL_S',
    parser: seconds(10, 86_400),
    default: '1800',
    meaning:
      'Seconds between RFC 5782 self-tests of every list (every 30 s at most while a list is unproven; [`verdicts.md`](verdicts.md)).',
  }),
  poolNameServers: {
    port: variable({
      name: 'POOL_NS_PORT',
      parser: integer(1, 65535),
      default: '53',
      meaning: "Port of a pool zone's name servers; for tests and `npm run demo` only.",
    }),
    allowNonPublic: variable({
      name: 'POOL_NS_ALLOW_NON_PUBLIC',
      parser: z.enum(['true', 'false']).transform((flag) => flag === 'true'),
      default: 'false',
      meaning:
        'Lets pool discovery ask name servers at non-public addresses; for tests and `npm run demo` only ([`checks.md`](checks.md#pool-limits)).',
    }),
  },
  probes: {
    allowNetworks: variable({
      name: 'PROBE_ALLOW_NETWORKS',
      parser: networks,
      default: '',
      meaning:
        "Comma list of CIDRs (`127.0.0.0/8`) the mail check's SMTP probes and MTA-STS fetches may connect to although they are not public, for checks and watches sent with `Authorization: Bearer <OPERATOR_TOKEN>` only; every other check reaches public addresses only ([`mail.md`](mail.md#bounds-and-safety)).",
    }),
    httpsPort: variable({
      name: 'PROBE_HTTPS_PORT',
      parser: integer(1, 65535),
      default: '443',
      meaning:
        'The port the MTA-STS policy is fetched from (RFC 8461 §3.3 says 443; another for test worlds without root).',
    }),
  },
  watch: watchVariables,
  reports: reportsVariables,
};

/** What the app and its services read, on every runtime. */
export type Config = ConfigOf<typeof sharedVariables>;

/** The rules between shared variables; each runtime's schema applies them. */
export const sharedRules: Rule<Config>[] = [
  (config, ctx) => {
    if (config.watch.intervalS < config.watch.minIntervalS) {
      ctx.addIssue({
        code: 'custom',
        path: ['WATCH_INTERVAL_S'],
        message: `at least WATCH_MIN_INTERVAL_S (${config.watch.minIntervalS})`,
      });
    }
  },
  (config, ctx) => {
    if (config.watch.smtpUrl !== undefined && config.watch.alertFrom === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ALERT_FROM'], message: 'required with SMTP_URL' });
    }
  },
  (config, ctx) => {
    // An e-mail's links (its confirmation code, List-Unsubscribe) must come from the operator,
    // never from a request's Host (docs/watches.md, "E-mail").
    if (config.watch.smtpUrl !== undefined && config.publicUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          "required with SMTP_URL: e-mail links are built from it, never from a request's Host",
      });
    }
  },
  (config, ctx) => {
    if (config.captcha === undefined) return;
    const { provider, siteKey, secret } = config.captcha;
    for (const [name, value] of [
      ['CAPTCHA_SITE_KEY', siteKey],
      ['CAPTCHA_SECRET', secret],
    ] as const) {
      if (value === '')
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `required with CAPTCHA_PROVIDER=${provider}`,
        });
    }
  },
];

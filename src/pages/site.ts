import type { Context } from 'hono';
import {
  type CaptchaProvider,
  type CaptchaProviderFacts,
  captchaProviders,
  type PublicOriginOf,
} from '../http/index.js';
import type { PageAssets } from './assets.js';

/** What every page needs to know about the service it belongs to. */
export interface Site {
  /** BASE_PATH, which follows the public origin in absolute URLs. */
  basePath: string;
  /**
   * The base as a path the browser resolves on the page's own origin: PUBLIC_URL's path (the
   * prefix a proxy mounts the service under) followed by BASE_PATH. Links between pages use it,
   * so they need no host at all.
   */
  root: string;
  publicOrigin: PublicOriginOf;
  assets: PageAssets;
  /** The configured captcha provider (its widget and CSP sources); none without a captcha. */
  captcha?: CaptchaProviderFacts;
  poolMaxIps: number;
  tokenTtlDays: number;
  /** What the check page's watch form offers (docs/pages.md#check-page). */
  watch: WatchForm;
}

/** The watch form's choices: the intervals a watch may take, and whether e-mail is offered. */
export interface WatchForm {
  /** WATCH_INTERVAL_S: the interval chosen until the reader picks another. */
  intervalS: number;
  /** WATCH_MIN_INTERVAL_S: no shorter interval is offered. */
  minIntervalS: number;
  /** The longest a watch may take (a week). */
  maxIntervalS: number;
  /** The service can send alerts by e-mail: the form asks for an address only then. */
  email: boolean;
}

export function siteRoot(publicUrl: string | undefined, basePath: string): string {
  const prefix = publicUrl === undefined ? '' : new URL(publicUrl).pathname.replace(/\/+$/, '');
  return `${prefix}${basePath}`;
}

/** The absolute URL of a path under BASE_PATH, from the public origin (docs/pages.md). */
export function absoluteUrl(site: Site, c: Context, path: string) {
  const origin = site.publicOrigin(c);
  return { url: `${origin.base}${site.basePath}${path}`, source: origin.source };
}

export interface SiteOptions {
  basePath: string;
  publicUrl?: string;
  publicOrigin: PublicOriginOf;
  assets: PageAssets;
  captchaProvider?: CaptchaProvider;
  poolMaxIps: number;
  tokenTtlMs: number;
  /** The watch form's choices; without them, the defaults of the configuration (900 s to a week, 3600 s). */
  watch?: Partial<WatchForm>;
}

const defaultWatchForm: WatchForm = {
  intervalS: 3600,
  minIntervalS: 900,
  maxIntervalS: 7 * 86_400,
  email: false,
};

export function createSite(options: SiteOptions): Site {
  return {
    basePath: options.basePath,
    root: siteRoot(options.publicUrl, options.basePath),
    publicOrigin: options.publicOrigin,
    assets: options.assets,
    ...(options.captchaProvider ? { captcha: captchaProviders[options.captchaProvider] } : {}),
    poolMaxIps: options.poolMaxIps,
    tokenTtlDays: Math.round(options.tokenTtlMs / 86_400_000),
    watch: { ...defaultWatchForm, ...options.watch },
  };
}

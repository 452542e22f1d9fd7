/**
 * The captcha providers, each written once: how the server verifies a token, what it does when
 * the provider cannot be asked, the widget the check page loads and the origins the pages'
 * Content-Security-Policy must allow for it. CAPTCHA_PROVIDER's values, the verifier, the check
 * page and the CSP all read this table. Sources: each provider's verification, widget and CSP
 * documentation.
 */

export interface CaptchaProviderFacts {
  /**
   * The server's verification: a form-urlencoded POST of `secret`, the caller's token and the
   * caller's address (in the provider's field names) to `url`.
   */
  verify: {
    url: string;
    tokenField: string;
    ipField: string;
    /** Whether a JSON answer says the token passed. */
    passed: (answer: Record<string, unknown>) => boolean;
    /**
     * When the provider cannot be asked (another HTTP status than 200, a timeout, no
     * connection): `open` lets the caller through, `closed` refuses the check. A 200 that is not
     * JSON is refused either way: passing it would hide a wrong CAPTCHA_VERIFY_URL.
     */
    fails: 'open' | 'closed';
  };
  /** The browser widget: its script, and the global it defines (`render(container, { sitekey, callback })`, `reset(id)`). */
  widget: { script: string; global: string };
  /** For script-src, frame-src, connect-src, style-src and img-src. */
  cspSources: readonly string[];
}

/**
 * Turnstile and hCaptcha share the siteverify protocol: `secret`, `response`, `remoteip`,
 * answered with `"success": true|false`. Neither advises letting users through when it cannot be
 * asked, so both fail closed.
 */
const siteverify = {
  tokenField: 'response',
  ipField: 'remoteip',
  passed: (answer: Record<string, unknown>) => answer.success === true,
  fails: 'closed',
} as const;

export const captchaProviders = {
  smartcaptcha: {
    // Yandex's guide "Verifying the CAPTCHA response"
    // (https://yandex.cloud/en/docs/smartcaptcha/operations/validate-captcha): POST `secret`,
    // `token` and `ip`, passed on `"status": "ok"`; its example code, on any HTTP status other
    // than 200, logs "Allow access due to an error" and lets the user through, so that an outage
    // of the captcha does not lock users out. A timeout or an unreachable provider is the same
    // outage and passes too.
    verify: {
      url: 'https://smartcaptcha.yandexcloud.net/validate',
      tokenField: 'token',
      ipField: 'ip',
      passed: (answer) => answer.status === 'ok',
      fails: 'open',
    },
    widget: { script: 'https://smartcaptcha.yandexcloud.net/captcha.js', global: 'smartCaptcha' },
    cspSources: ['https://smartcaptcha.yandexcloud.net'],
  },
  turnstile: {
    verify: { url: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', ...siteverify },
    widget: {
      script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
      global: 'turnstile',
    },
    cspSources: ['https://challenges.cloudflare.com'],
  },
  hcaptcha: {
    verify: { url: 'https://api.hcaptcha.com/siteverify', ...siteverify },
    widget: { script: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
    cspSources: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
} satisfies Record<string, CaptchaProviderFacts>;

export type CaptchaProvider = keyof typeof captchaProviders;

/** The providers' names, in the table's order (CAPTCHA_PROVIDER's values besides `none`). */
export const captchaProviderNames = Object.keys(captchaProviders) as [
  CaptchaProvider,
  ...CaptchaProvider[],
];

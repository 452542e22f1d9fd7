/**
 * The captcha providers' browser widgets: the script the check page loads, the global it
 * defines (each has `render(container, { sitekey, callback })` and `reset(id)`), and the origins
 * the page's Content-Security-Policy must allow for the script, its frames and its requests.
 * Sources: each provider's widget and CSP documentation.
 */

export type CaptchaProviderName = 'smartcaptcha' | 'turnstile' | 'hcaptcha';

export interface CaptchaWidget {
  script: string;
  global: string;
  /** For script-src, frame-src, connect-src (and style-src, img-src where the provider asks). */
  origins: readonly string[];
}

export const captchaWidgets: Record<CaptchaProviderName, CaptchaWidget> = {
  smartcaptcha: {
    script: 'https://smartcaptcha.yandexcloud.net/captcha.js',
    global: 'smartCaptcha',
    origins: ['https://smartcaptcha.yandexcloud.net'],
  },
  turnstile: {
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    global: 'turnstile',
    origins: ['https://challenges.cloudflare.com'],
  },
  hcaptcha: {
    script: 'https://js.hcaptcha.com/1/api.js?render=explicit',
    global: 'hcaptcha',
    origins: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
};

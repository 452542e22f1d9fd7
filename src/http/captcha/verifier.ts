import { smartCaptchaEndpoint, verifySmartCaptcha } from './smartcaptcha.js';
import { hcaptchaEndpoint, turnstileEndpoint, verifySiteverify } from './siteverify.js';
import type { ProviderCall } from './post-form.js';

export type CaptchaProvider = 'smartcaptcha' | 'turnstile' | 'hcaptcha';

/**
 * `provider_unavailable` is a refusal because the provider could not answer, as opposed to
 * `rejected`, the provider's own judgement on the token.
 */
export type CaptchaVerdict =
  { ok: true } | { ok: false; reason: 'rejected' | 'provider_unavailable' };

export interface CaptchaVerifier {
  readonly provider: CaptchaProvider;
  verify(token: string, callerIp: string): Promise<CaptchaVerdict>;
}

export interface CaptchaVerifierOptions {
  provider: CaptchaProvider;
  secret: string;
  /** Replaces the provider's endpoint (CAPTCHA_VERIFY_URL; tests point it at a local fake). */
  verifyUrl?: string;
  /** How long a verification may take before the provider counts as unavailable. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const endpoints: Record<CaptchaProvider, string> = {
  smartcaptcha: smartCaptchaEndpoint,
  turnstile: turnstileEndpoint,
  hcaptcha: hcaptchaEndpoint,
};

// A captcha check sits in front of a request that should answer in well under a second.
const defaultTimeoutMs = 1000;

export function createCaptchaVerifier(options: CaptchaVerifierOptions): CaptchaVerifier {
  const call: ProviderCall = {
    url: options.verifyUrl ?? endpoints[options.provider],
    secret: options.secret,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    fetch: options.fetch ?? globalThis.fetch,
  };
  const check = options.provider === 'smartcaptcha' ? verifySmartCaptcha : verifySiteverify;
  return {
    provider: options.provider,
    // An empty token is refused here: sent on, a fail-open provider that happens to be down
    // would let it through.
    verify: async (token, callerIp) =>
      token === '' ? { ok: false, reason: 'rejected' } : check(call, token, callerIp),
  };
}

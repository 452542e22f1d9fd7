import { type CaptchaProvider, type CaptchaProviderFacts, captchaProviders } from './providers.js';
import { isRecord, postForm } from './post-form.js';

/**
 * `provider_unavailable` is a refusal because the provider could not answer, as opposed to
 * `rejected`, the provider's own judgement on the token.
 */
export type CaptchaVerdict =
  /** `failedOpen`: not verified, let through because the provider fails open (its own advice). */
  { ok: true; failedOpen?: true } | { ok: false; reason: 'rejected' | 'provider_unavailable' };

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

// A captcha check sits in front of a request that should answer in well under a second.
const defaultTimeoutMs = 1000;

const unavailable: CaptchaVerdict = { ok: false, reason: 'provider_unavailable' };

export function createCaptchaVerifier(options: CaptchaVerifierOptions): CaptchaVerifier {
  const { verify: rules }: CaptchaProviderFacts = captchaProviders[options.provider];
  const call = {
    url: options.verifyUrl ?? rules.url,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    fetch: options.fetch ?? globalThis.fetch,
  };

  async function check(token: string, callerIp: string): Promise<CaptchaVerdict> {
    const reply = await postForm(call, {
      secret: options.secret,
      [rules.tokenField]: token,
      [rules.ipField]: callerIp,
    });
    switch (reply.kind) {
      case 'failed':
        return rules.fails === 'open' ? { ok: true, failedOpen: true } : unavailable;
      case 'unreadable':
        return unavailable;
      case 'json':
        return isRecord(reply.body) && rules.passed(reply.body)
          ? { ok: true }
          : { ok: false, reason: 'rejected' };
    }
  }

  return {
    provider: options.provider,
    // An empty token is refused here: sent on, a fail-open provider that happens to be down
    // would let it through.
    verify: async (token, callerIp) =>
      token === '' ? { ok: false, reason: 'rejected' } : check(token, callerIp),
  };
}

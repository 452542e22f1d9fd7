import type { CaptchaVerdict } from './verifier.js';
import { isRecord, postForm, type ProviderCall } from './post-form.js';

export const turnstileEndpoint = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
export const hcaptchaEndpoint = 'https://api.hcaptcha.com/siteverify';

/**
 * The siteverify protocol shared by Cloudflare Turnstile and hCaptcha: form fields `secret`,
 * `response` and `remoteip`, answered with `"success": true|false`. Verified fail-closed: neither
 * provider advises letting users through when it cannot be asked, so any answer that is not a
 * readable verdict refuses the check.
 */
export async function verifySiteverify(
  call: ProviderCall,
  token: string,
  callerIp: string,
): Promise<CaptchaVerdict> {
  const reply = await postForm(call, { secret: call.secret, response: token, remoteip: callerIp });
  if (reply.kind !== 'json') return { ok: false, reason: 'provider_unavailable' };
  return isRecord(reply.body) && reply.body.success === true
    ? { ok: true }
    : { ok: false, reason: 'rejected' };
}

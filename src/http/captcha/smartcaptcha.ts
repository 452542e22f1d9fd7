import type { CaptchaVerdict } from './verifier.js';
import { isRecord, postForm, type ProviderCall } from './post-form.js';

export const smartCaptchaEndpoint = 'https://smartcaptcha.yandexcloud.net/validate';

/**
 * Yandex SmartCaptcha, verified fail-open. Yandex's guide "Verifying the CAPTCHA response"
 * (https://yandex.cloud/en/docs/smartcaptcha/operations/validate-captcha) has the server POST
 * `secret`, `token` and `ip` form-urlencoded and treat `"status": "ok"` as passed; its example
 * code, on any HTTP status other than 200, logs "Allow access due to an error" and lets the user
 * through, so that an outage of the captcha does not lock users out. A timeout or an unreachable
 * provider is the same outage and passes too. A 200 that is not JSON is not covered by that advice
 * and is refused: passing it would hide a wrong CAPTCHA_VERIFY_URL.
 */
export async function verifySmartCaptcha(
  call: ProviderCall,
  token: string,
  callerIp: string,
): Promise<CaptchaVerdict> {
  const reply = await postForm(call, { secret: call.secret, token, ip: callerIp });
  switch (reply.kind) {
    case 'failed':
      return { ok: true };
    case 'unreadable':
      return { ok: false, reason: 'provider_unavailable' };
    case 'json':
      return isRecord(reply.body) && reply.body.status === 'ok'
        ? { ok: true }
        : { ok: false, reason: 'rejected' };
  }
}

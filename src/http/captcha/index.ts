/** The captcha providers (one table) and the verifier over their verification calls. */

export {
  type CaptchaProvider,
  type CaptchaProviderFacts,
  captchaProviderNames,
  captchaProviders,
} from './providers.js';
export { type CaptchaVerifier, createCaptchaVerifier } from './verifier.js';

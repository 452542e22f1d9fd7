/** Captcha verification: one verifier over the providers' siteverify calls. */

export { type CaptchaVerifier, createCaptchaVerifier } from './verifier.js';

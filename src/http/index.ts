/**
 * The web concerns every route shares: errors, JSON bodies, CORS, the caller's address, the quota
 * and captcha guard.
 */

export {
  callerAddress,
  type ForwardedFamily,
  parseTrustProxy,
  quotaSubject,
  type TrustProxy,
} from './caller.js';
export {
  type CaptchaProvider,
  type CaptchaProviderFacts,
  captchaProviderNames,
  captchaProviders,
  createCaptchaVerifier,
} from './captcha/index.js';
export { clientClosedRequest, isClientAbort } from './client-abort.js';
export type { AppEnv } from './context.js';
export { corsHeaders, corsMiddleware, jsonResponse, preflightMaxAgeS } from './cors.js';
export {
  cacheableHeaders,
  errorResponses,
  errorSchemaFor,
  notModifiedResponse,
  retryAfterHeader,
} from './error-responses.js';
export { ApiError, errorBody, type ErrorCode, errorRecords, storeErrors } from './errors.js';
export { matchesEtag } from './etag.js';
export {
  type CaptchaRule,
  createGuard,
  guardErrors,
  type Guard,
  type QuotaReading,
  type QuotaStatus,
} from './guard.js';
export { headContentLength } from './head.js';
export {
  bodySizeGate,
  invalidRequest,
  jsonBodyErrors,
  jsonBodyGate,
  readJsonBody,
} from './json-body.js';
export { answerMethodNotAllowed } from './method-not-allowed.js';
export { prefersHtml } from './negotiate.js';
export { createPublicOrigin, type PublicOriginOf } from './public-origin.js';
export { quotaStatusSchema } from './quota-status.js';
export {
  methodsMatcher,
  type RegisteredRoute,
  registeredRoutes,
  serveRoute,
  servedPath,
} from './route.js';

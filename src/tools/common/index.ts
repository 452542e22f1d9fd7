/**
 * What the tool folders share: the tool contract, the fresh check every charged route runs, the
 * snapshot tools' routes (status, the POST check, GET by token), the artefact routes (badge, card,
 * share page) of tokens and watches, stored results, request schemas and aliases, and the
 * summaries' common reading.
 */

export { firstNonEmpty } from './aliases.js';
export {
  answerEmailLink,
  asPages,
  codeQuery,
  emailCodeFailure,
  type EmailLink,
  type EmailLinkOutcome,
  emailLinkState,
  oneClickRequest,
  readOneClick,
  stateAnswer,
} from './email-link-pages.js';
export { bearerToken } from './bearer.js';
export { requestedDomain } from './requested-domain.js';
export { readTarget, type TargetDeps, targetRefused } from './read-target.js';
export { resultCacheKey } from './result-keys.js';
export { createResultStore, type ResultStore } from './results.js';
export { cacheable } from './cacheable.js';
export { shareTag } from './share-responses.js';
export {
  captchaFields,
  domainFields,
  captchaHeader,
  captchaSecurity,
  captchaScheme,
  postFields,
  quotaStatusSchema,
  requiredWithAlias,
  aliasRule,
} from './schemas.js';
export {
  addArtefactRoutes,
  type ArtefactDeps,
  type ArtefactSource,
  type Shown,
} from './artefact-routes.js';
export { chargedCheck, freshCheckErrors, requireReady } from './fresh-check.js';
export {
  captchaTokenOf,
  type CheckRoute,
  type CheckSender,
  type SnapshotDeps,
  snapshotOperations,
  type StatusExtra,
  snapshotTool,
} from './snapshot-tool.js';
export { addressListing, listingsOf, shownAs } from './summaries.js';
export { registerWebhookEvent } from './webhook-docs.js';
export { defineTool, operationStem, type SharingTool, type ToolDefinition } from './tool.js';

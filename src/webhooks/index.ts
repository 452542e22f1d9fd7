/**
 * Webhooks, whatever sends them: Standard Webhooks signing, the rules of where a webhook may
 * point and the address a delivery connects to, and the sender each platform provides
 * (docs/watches.md, "Safety").
 */

export { type WebhookAddress, webhookAddress } from './address.js';
export {
  maxAnswerBytes,
  type WebhookAnswer,
  type WebhookRequest,
  type WebhookSender,
} from './sender.js';
export {
  inferWebhookFormat,
  isWebhookFormat,
  type WebhookFormat,
  webhookFormats,
} from './formats.js';
export { newWebhookSecret, signedHeaders } from './signing.js';
export {
  checkWebhookUrl,
  defaultWebhookPorts,
  maxWebhookUrlLength,
  parsePortRanges,
  type PortRange,
  type Reachable,
  reachableWith,
  type WebhookUrlCheck,
} from './url.js';

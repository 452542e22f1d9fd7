/**
 * A watch's alerts (docs/watch-engine.md, "Alerts and renderers"): one message per event or
 * confirmation, in the watch's language, and a table of renderers that draw it for each channel
 * (the standard event, Slack, Discord, Telegram, ntfy, an e-mail's text and HTML).
 */
export { mailChangeText } from './mail-changes.js';
export {
  type AlertLink,
  type AlertMessage,
  type AlertSection,
  confirmMessage,
  eventMessage,
  type Line,
  type Span,
} from './message.js';
export { chatText, type EmailInput, renderEmail, webhookRequest } from './render.js';
export {
  type EmailPartRenderer,
  renderers,
  type WebhookAlert,
  type WebhookRenderer,
  type WebhookRequest,
} from './renderers.js';

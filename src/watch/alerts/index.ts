/**
 * A watch's alerts (docs/watch-engine.md, "Alerts and renderers"): one message per event or
 * confirmation, in the watch's language, and a table of renderers that draw it for each channel
 * (the standard event, Slack's Block Kit, a Discord embed, Telegram's HTML, ntfy, an e-mail's
 * text and HTML).
 */
export { mailChangeText } from './mail-changes.js';
export { type AlertContext, eventMessage } from './event-message.js';
export {
  type AlertButton,
  type AlertField,
  type AlertLink,
  type AlertMessage,
  type AlertSection,
  confirmMessage,
  type Line,
  type Span,
} from './message.js';
export {
  type AlertState,
  type AlertWatch,
  alertContext,
  chatText,
  type EmailInput,
  renderEmail,
  webhookRequest,
} from './render.js';
export {
  inboxConfirmMessage,
  noticeRequest,
  renderNoticeEmail,
  sourceFailingMessage,
} from './notices.js';
export {
  type EmailPartRenderer,
  renderers,
  type WebhookAlert,
  type WebhookRenderer,
  type WebhookRequest,
} from './renderers.js';
export { discordColours, discordLimits } from './discord.js';
export { ntfyLimits } from './ntfy.js';
export { slackLimits } from './slack.js';
export { telegramMaxText } from './telegram.js';

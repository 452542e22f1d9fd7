/**
 * The shapes a webhook's body takes (docs/watches.md, "Chat formats"): `standard`, the signed
 * Standard Webhooks event; or a chat message as Slack (Mattermost and Rocket.Chat read the same),
 * Discord, the Telegram Bot API's `sendMessage` or ntfy take it.
 */

export const webhookFormats = ['standard', 'slack', 'discord', 'telegram', 'ntfy'] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

export function isWebhookFormat(value: string): value is WebhookFormat {
  return (webhookFormats as readonly string[]).includes(value);
}

/**
 * The format a URL's well-known host takes, when the caller names none: Slack's incoming webhooks
 * (`hooks.slack.com`), Discord's (`discord.com/api/webhooks/...`, and the older `discordapp.com`),
 * the Telegram Bot API (`api.telegram.org`), ntfy's public server (`ntfy.sh`); `standard` for
 * every other URL (a self-hosted Mattermost or ntfy names its format).
 */
export function inferWebhookFormat(url: string): WebhookFormat {
  if (!URL.canParse(url)) return 'standard';
  const { hostname, pathname } = new URL(url);
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'hooks.slack.com') return 'slack';
  if (
    (host === 'discord.com' || host === 'discordapp.com') &&
    pathname.startsWith('/api/webhooks/')
  ) {
    return 'discord';
  }
  if (host === 'api.telegram.org') return 'telegram';
  if (host === 'ntfy.sh') return 'ntfy';
  return 'standard';
}

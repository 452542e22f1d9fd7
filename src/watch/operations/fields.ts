import { isSelector, maxCallerSelectors } from '../../reputation/index.js';
import {
  checkWebhookUrl,
  inferWebhookFormat,
  isWebhookFormat,
  newWebhookSecret,
} from '../../webhooks/index.js';
import { parseEmailAddress } from '../email/index.js';
import { kindsTakingSelectors, type WatchKind, watchKinds } from '../kinds/index.js';
import { maxConfirmations, maxIntervalS, type Webhook } from '../model/index.js';
import type { OperationContext } from './context.js';
import { fail, type WatchFailure } from './errors.js';

/**
 * The fields create and update read (docs/watches.md, "Routes" and "Limits"), each a value or the
 * refusal that names what is wrong with it.
 */

export function intervalOf(
  context: OperationContext,
  requested: number | undefined,
): number | WatchFailure {
  const { limits } = context;
  const interval = requested ?? limits.intervalS;
  if (!Number.isInteger(interval) || interval < limits.minIntervalS || interval > maxIntervalS) {
    return fail(
      'invalid_request',
      `interval_s must be a whole number of seconds from ${limits.minIntervalS} (WATCH_MIN_INTERVAL_S) to ${maxIntervalS}`,
    );
  }
  return interval;
}

/** Checks in a row that must agree before a change is reported; undefined: the default. */
export function confirmationsOf(requested: number | undefined): number | undefined | WatchFailure {
  if (requested === undefined) return undefined;
  if (Number.isInteger(requested) && requested >= 1 && requested <= maxConfirmations) {
    return requested;
  }
  return fail(
    'invalid_request',
    `confirmations must be a whole number from 1 to ${maxConfirmations}`,
  );
}

export const formatWithoutWebhook = () =>
  fail('invalid_webhook', 'webhook_format needs a webhook_url');

/**
 * A webhook for a URL: its secret kept when the URL is the one already set, unless the owner
 * gives one (`secret`: a subsystem signs every watch it keeps with its own). Its format is the
 * one named, else the one set for the same URL, else what the URL's host takes
 * (docs/watches.md, "Chat formats").
 */
export function webhookFor(
  context: OperationContext,
  text: string,
  current: Webhook | null,
  operator: boolean,
  format: string | undefined,
  secret?: string,
): Webhook | WatchFailure {
  const checked = checkWebhookUrl(
    text,
    context.reachable(operator ? { operator } : {}),
    context.limits.webhookAllowPorts,
  );
  if (!checked.ok) return fail('invalid_webhook', checked.reason);
  if (format !== undefined && !isWebhookFormat(format)) {
    return fail(
      'invalid_webhook',
      'webhook_format must be standard, slack, discord, telegram or ntfy',
    );
  }
  const same = current?.url === checked.url;
  const chosen = format ?? (same ? current.format : undefined) ?? inferWebhookFormat(checked.url);
  if (same) return { ...current, format: chosen, ...(secret ? { secret } : {}) };
  return {
    url: checked.url,
    secret: secret ?? newWebhookSecret(context.randomBytes),
    format: chosen,
  };
}

/**
 * The DKIM selectors a watch of a kind that takes them names, as the mail tool takes them (at
 * most `maxCallerSelectors`, each a selector, lower case, once); another kind takes none.
 */
export function selectorsOf(
  kind: WatchKind,
  requested: readonly string[] | undefined,
): string[] | WatchFailure | undefined {
  if (requested === undefined) return undefined;
  if (!watchKinds[kind].takesSelectors) {
    return fail(
      'invalid_request',
      `dkim_selectors is for kind ${kindsTakingSelectors.join(' or ')} only`,
    );
  }
  if (requested.length > maxCallerSelectors || !requested.every(isSelector)) {
    return fail(
      'invalid_request',
      `dkim_selectors: at most ${maxCallerSelectors} DKIM selectors (RFC 6376 §3.1)`,
    );
  }
  return [...new Set(requested.map((selector) => selector.toLowerCase()))].sort();
}

/** An address asked for: refused without a sender, or when it is not one. */
export function emailAddressOf(context: OperationContext, text: string): string | WatchFailure {
  if (!context.sendsEmail) {
    return fail(
      'email_unavailable',
      'this service sends no e-mail (SMTP_URL is not set, or not here)',
    );
  }
  const parsed = parseEmailAddress(text);
  return parsed.ok ? parsed.address : fail('invalid_email', parsed.reason);
}

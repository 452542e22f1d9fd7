import { z } from 'zod';
import { webhookFormats } from '../../webhooks/index.js';

/**
 * Notices: what another subsystem sends its users through the watch's channels, beside its
 * watches' own events (docs/watch-engine.md, "Notices"): a signed event to the webhook the user
 * gave, drawn in its chat format, or an e-mail to the address the subsystem confirmed. One so
 * far, the reports' `reports.source_failing` (docs/reports.md, "Reports meet watches").
 */

const instant = z.iso.datetime();
const count = z.number().int().min(0);

export const sourceFailingEventSchema = z
  .object({
    type: z.literal('reports.source_failing').meta({
      description:
        'A sending address failed DMARC with at least the inbox’s min_messages in the last 30 days, and the inbox had not announced it before: sent once per inbox and address.',
    }),
    created_at: instant,
    data: z.object({
      inbox_id: z.string().meta({ description: 'The reports inbox.' }),
      domain: z.string().meta({ description: 'The inbox’s domain.' }),
      source_ip: z.string().meta({ description: 'The sending address, as the reports name it.' }),
      messages: count.meta({ description: 'Its messages in the period (the sum of row/count).' }),
      pass: count.meta({ description: 'Of them, the messages that passed DMARC.' }),
      fail: count.meta({ description: 'Of them, the messages that failed DMARC.' }),
      min_messages: count.meta({ description: 'The inbox’s auto_watch threshold it reached.' }),
      period: z
        .object({ from: z.iso.date(), to: z.iso.date() })
        .meta({ description: 'The 30 days counted (UTC dates, both included).' }),
      reporters: z
        .array(z.string())
        .meta({ description: 'The organisations whose reports name it.' }),
      view_url: z.string().meta({ description: 'The inbox’s dashboard (its view link).' }),
    }),
  })
  .meta({
    id: 'ReportsSourceFailingEvent',
    description:
      'POSTed to an inbox’s auto_watch webhook, signed as a watch’s events are (Standard Webhooks).',
  });
export type SourceFailingEvent = z.infer<typeof sourceFailingEventSchema>;

/** Every notice's event (one type so far). */
export const noticeEventSchema = sourceFailingEventSchema;
export type NoticeEvent = z.infer<typeof noticeEventSchema>;

/**
 * Where a notice goes and what it says besides its event, kept with its pending delivery: the
 * webhook with the subsystem's secret, or an address (an event only once the subsystem confirmed
 * it; `unsubscribe_url` its one-click link), in the user's language. A confirmation is an e-mail
 * whose message is the address's confirmation link.
 */
export const noticeSchema = z.object({
  /** The subsystem's owner, `<subsystem>:<id>`. */
  owner: z.string(),
  /** The owner is the operator's: its webhook may reach WEBHOOK_ALLOW_NETWORKS. */
  operator: z.boolean().optional(),
  lang: z.enum(['en', 'ru']),
  /** A watch's webhook (schemas.ts `webhookSchema`), which imports this file. */
  webhook: z
    .object({ url: z.string(), secret: z.string(), format: z.enum(webhookFormats).optional() })
    .optional(),
  email: z
    .object({
      to: z.string(),
      unsubscribe_url: z.string().optional(),
      /** A confirmation of `to` for a reports inbox of `domain`: its link and when it stops. */
      confirm: z.object({ domain: z.string(), url: z.string(), expires_at: instant }).optional(),
    })
    .optional(),
});
export type Notice = z.infer<typeof noticeSchema>;

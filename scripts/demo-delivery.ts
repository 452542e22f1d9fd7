import { Webhook } from 'standardwebhooks';
import { type ListingChange, watchEventSchema } from '../src/watch/index.js';
import type { ReceivedWebhook } from '../fixtures/webhook-receiver.js';

/**
 * One line per delivery for `npm run demo:receiver`: the event's type and target, the lists
 * added (`+`) and removed (`-`) with their codes, the verdict and score, and whether the
 * signature is the watch's. The signature is checked with the `standardwebhooks` package, as the
 * service signs (docs/watches.md, "Events"), so the demo shows what a receiver of one's own does.
 */

export type SignatureCheck = 'ok' | 'wrong' | 'unchecked';

export interface DescribedDelivery {
  /** The event's type (`watch.listed`...), or `not a standard event` for another body. */
  type: string;
  signature: SignatureCheck;
  line: string;
  /** A standard event's watch: its id and page (absolute, docs/watches.md "Absolute links"). */
  watch?: { id: string; page_url: string };
}

/** Whether `secret` (a watch's `webhook_secret`) signed this request. */
export function checkSignature(
  request: ReceivedWebhook,
  secret: string | undefined,
): SignatureCheck {
  if (secret === undefined) return 'unchecked';
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return 'ok';
  } catch {
    return 'wrong';
  }
}

const signatureWords: Record<SignatureCheck, string> = {
  ok: 'signature ok',
  wrong: 'signature WRONG (not this secret, or older than 5 minutes)',
  unchecked: 'signature not checked (paste the webhook_secret here to check it)',
};

function changes(sign: '+' | '-', items: readonly ListingChange[]): string[] {
  return items.map(
    (item) => `${sign}${item.zone} (${item.code}${item.address ? ` for ${item.address}` : ''})`,
  );
}

export function describeDelivery(
  request: ReceivedWebhook,
  secret: string | undefined,
  at: Date,
): DescribedDelivery {
  const signature = checkSignature(request, secret);
  const time = at.toISOString().slice(11, 19);
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    body = undefined;
  }
  const event = watchEventSchema.safeParse(body);
  if (!event.success) {
    const type = 'not a standard event';
    const excerpt = request.body.slice(0, 200).replace(/\s+/g, ' ');
    return { type, signature, line: `${time} ${type}: ${excerpt} | ${signatureWords[signature]}` };
  }
  const { type, data } = event.data;
  const what = [...changes('+', data.added), ...changes('-', data.removed)];
  const line = [
    `${time} ${type} ${data.watch.target}`,
    ...(what.length > 0 ? [what.join(' ')] : []),
    `${data.verdict} ${data.score}/100`,
    signatureWords[signature],
  ].join(' | ');
  return { type, signature, line, watch: { id: data.watch.id, page_url: data.watch.page_url } };
}

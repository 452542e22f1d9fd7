import { type Logger, readBounded } from '../../lib/index.js';
import type { ReportIntake } from '../../reports/index.js';

/**
 * Reports by Cloudflare Email Routing (docs/edge.md, "Reports on Workers"): the Worker's email()
 * handler is given each message sent to an address routed to it, with its envelope recipient, and
 * hands it to the intake the upload route and the Node mail doors share. What the intake refuses
 * is rejected (`setReject`: the sending server gets a permanent failure with the reason, the API's
 * error code first); a failure of the service itself is thrown, which Email Routing answers with a
 * temporary failure, so the sender keeps the message and tries again.
 */

/** What the reports read of Email Routing's ForwardableEmailMessage. */
export interface RoutedMessage {
  /** The envelope recipient (RCPT TO). */
  readonly to: string;
  readonly raw: ReadableStream<Uint8Array>;
  readonly rawSize: number;
  setReject(reason: string): void;
}

export async function takeRoutedMail(
  message: RoutedMessage,
  intake: ReportIntake,
  options: { maxBytes: number; log: Logger },
): Promise<void> {
  const tooLarge = {
    ok: false,
    code: 'report_too_large',
    reason: `the message is larger than ${options.maxBytes} bytes (REPORTS_MAX_BYTES)`,
  } as const;
  const bytes =
    message.rawSize > options.maxBytes
      ? undefined
      : await readBounded(message.raw, options.maxBytes, () => new TooLarge()).catch(
          (error: unknown) => {
            if (error instanceof TooLarge) return undefined;
            throw error;
          },
        );
  const outcome = bytes === undefined ? tooLarge : await intake.mail(message.to, bytes, 'email');
  if (!outcome.ok) {
    options.log('info', 'reports refused by email', { code: outcome.code, reason: outcome.reason });
    message.setReject(`${outcome.code}: ${outcome.reason}`);
    return;
  }
  options.log('info', 'reports taken by email', {
    inbox: outcome.inboxId,
    reports: outcome.received.length,
    duplicates: outcome.received.filter((report) => report.duplicate).length,
  });
}

/** A message that streams past REPORTS_MAX_BYTES (its rawSize understated). */
class TooLarge extends Error {}

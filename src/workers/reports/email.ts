import { joinChunks, type Logger } from '../../lib/index.js';
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
  const bytes =
    message.rawSize > options.maxBytes
      ? undefined
      : await readWithin(message.raw, options.maxBytes);
  const outcome =
    bytes === undefined
      ? ({
          ok: false,
          code: 'report_too_large',
          reason: `the message is larger than ${options.maxBytes} bytes (REPORTS_MAX_BYTES)`,
        } as const)
      : await intake.mail(message.to, bytes, 'email');
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

/** The stream's bytes, or undefined once they pass `maxBytes` (the rest is not read). */
async function readWithin(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return joinChunks(chunks, length);
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * What the runtime does to deliver a webhook (a Platform member): one POST, answered or not. The
 * engine has already checked where it goes (address.ts); the runtime connects to
 * `address` where it can choose (Node), so a name that resolves elsewhere by the time of the
 * connection (DNS rebinding) cannot redirect it.
 */

export interface WebhookRequest {
  url: string;
  /** The checked address of the URL's host, the one to connect to. */
  address: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/**
 * `answered`: the receiver's status (a redirect is an answer, never followed); `failed`: no
 * connection, no answer within the timeout, or a broken exchange. The answer's body is read up to
 * 1 KiB and dropped: it is never shown.
 */
export type WebhookAnswer =
  { kind: 'answered'; status: number } | { kind: 'failed'; reason: string };

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
}

/** How much of an answer is read before the connection is let go. */
export const maxAnswerBytes = 1024;

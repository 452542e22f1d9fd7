import {
  type WebhookAnswer,
  type WebhookRequest,
  type WebhookSender,
  maxAnswerBytes,
} from '../webhooks/index.js';

/**
 * Webhook deliveries on Workers (docs/watches.md, "Safety"): `fetch` with `redirect: 'manual'` (a
 * 3xx is an answer, never followed) and an AbortSignal for the timeout. The engine has checked the
 * URL's literal address or the addresses its name resolves to; a Worker cannot choose the address
 * `fetch` connects to, and Cloudflare's `fetch` does not reach private networks.
 */
export function createFetchWebhookSender(): WebhookSender {
  return { send };
}

async function send(request: WebhookRequest): Promise<WebhookAnswer> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    return {
      kind: 'failed',
      reason: signal.aborted ? `no answer within ${request.timeoutMs} ms` : String(error),
    };
  }
  // Headers in time but a body that trickles past the timeout: the status stands.
  await readAtMost(response, maxAnswerBytes).catch(() => undefined);
  return { kind: 'answered', status: response.status };
}

/** Reads up to `limit` bytes of the answer and lets go of the rest. */
async function readAtMost(response: Response, limit: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  let read = 0;
  try {
    while (read < limit) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

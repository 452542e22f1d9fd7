import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIPv6 } from 'node:net';
import {
  type WebhookAnswer,
  type WebhookRequest,
  type WebhookSender,
  maxAnswerBytes,
} from '../webhooks/index.js';

/**
 * Webhook deliveries on Node (docs/watches.md, "Safety"): one POST over node:http or node:https,
 * connected to the address the engine checked (a `lookup` that answers it, whatever the name
 * resolves to by now, so DNS rebinding cannot move the connection), while the Host header and TLS
 * SNI and certificate check keep the URL's name. No redirect is followed (node:http follows none;
 * a 3xx is an answer, and not a 2xx), no connection is reused, the whole exchange ends within the
 * timeout, and at most 1 KiB of the answer is read.
 */
export function createNodeWebhookSender(): WebhookSender {
  return { send };
}

function send(request: WebhookRequest): Promise<WebhookAnswer> {
  const url = new URL(request.url);
  const family = isIPv6(request.address) ? 6 : 4;
  const pinned: LookupFunction = (_hostname, options, callback) => {
    // With autoSelectFamily (Node 20's default) the lookup is asked for every address at once.
    if (options.all) callback(null, [{ address: request.address, family }]);
    else callback(null, request.address, family);
  };
  const requestOf = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookAnswer>((resolve) => {
    let status: number | undefined;
    let settled = false;
    const settle = (answer: WebhookAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(answer);
    };
    const outgoing = requestOf(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        lookup: pinned,
        agent: false,
      },
      (answer: IncomingMessage) => {
        status = answer.statusCode ?? 0;
        let read = 0;
        const answered = () => settle({ kind: 'answered', status: status! });
        answer.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= maxAnswerBytes) answered();
        });
        answer.on('end', answered);
        answer.on('close', answered);
        answer.on('error', answered);
      },
    );
    const timer = setTimeout(() => {
      // Headers in time but a body that trickles: the status stands.
      settle(
        status === undefined
          ? { kind: 'failed', reason: `no answer within ${request.timeoutMs} ms` }
          : { kind: 'answered', status },
      );
    }, request.timeoutMs);
    outgoing.on('error', (error) => settle({ kind: 'failed', reason: error.message }));
    outgoing.end(request.body);
  });
}

import { hex } from '../lib/index.js';
/**
 * Every request has an id, answered in `X-Request-Id` and written in its log line, so an operator
 * can find the line of the answer a user reports. A caller (a proxy, a client) may bring its own
 * to follow a request through several services: it is kept when it is 1 to 128 characters of
 * letters, digits, `.`, `_` and `-`, which can neither break a header nor a log line; anything
 * else is replaced by a new one (docs/operations.md).
 */

const wellFormed = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's id when well formed. */
export function acceptedRequestId(header: string | undefined): string | undefined {
  return header !== undefined && wellFormed.test(header) ? header : undefined;
}

/** A new id: 128 random bits in hex, as many as a UUID's and as hard to guess. */
export function newRequestId(randomBytes: (length: number) => Uint8Array): string {
  return hex(randomBytes(16));
}

import { callerNetwork } from '../../lib/index.js';
import type { PortRange } from '../../webhooks/index.js';

/** What the configuration sets for watches (src/config/variables.ts; docs/configuration.md). */
export interface WatchLimits {
  /** A new watch's interval when it names none (WATCH_INTERVAL_S). */
  intervalS: number;
  /** The least interval a watch may name (WATCH_MIN_INTERVAL_S). */
  minIntervalS: number;
  /** Live watches per caller, per /64 for IPv6 (WATCH_PER_CALLER). */
  perCaller: number;
  /** Live watches per IPv4 /24 or IPv6 /48 (WATCH_PER_NETWORK), besides `networkShareOfMax`. */
  perNetwork: number;
  /** Live watches in the whole service (WATCH_MAX). */
  max: number;
  /** A watch not renewed by a PATCH within this ends (WATCH_TTL_DAYS). */
  ttlMs: number;
  /** A delivery's whole exchange must end within this (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
  /** The ports a webhook URL may name (WEBHOOK_ALLOW_PORTS). */
  webhookAllowPorts: readonly PortRange[];
  /** The operator's credential (OPERATOR_TOKEN): only its watches reach WEBHOOK_ALLOW_NETWORKS. */
  operatorToken?: string;
  /** Deliveries a watch may have waiting; past it the oldest is dropped (WATCH_PENDING_DELIVERIES). */
  pendingDeliveries: number;
  /** Confirmation e-mails the whole service sends a UTC day (EMAIL_CONFIRMATIONS_PER_DAY). */
  emailConfirmationsPerDay: number;
}

/**
 * The most of WATCH_MAX one network may hold, however high WATCH_PER_NETWORK is: the rest stays
 * for everyone else (docs/watches.md, "Limits").
 */
export const networkShareOfMax = 0.1;

/**
 * What one network may hold: WATCH_PER_NETWORK, and at most a tenth of WATCH_MAX, though never
 * fewer than one caller's WATCH_PER_CALLER.
 */
export function networkCap(limits: Pick<WatchLimits, 'perCaller' | 'perNetwork' | 'max'>): number {
  const share = Math.max(limits.perCaller, Math.floor(limits.max * networkShareOfMax));
  return Math.min(limits.perNetwork, share);
}

/** The longest interval a watch may be re-checked at: a week. */
export const maxIntervalS = 7 * 86_400;

/**
 * The network a caller's watches are counted in besides the caller itself (docs/watches.md,
 * "Limits"): an IPv4 /24 or an IPv6 /48 (`callerNetwork`). Takes an address or a quota subject.
 */
export function networkSubject(subject: string): string {
  return callerNetwork(subject);
}

/** What the configuration sets for watches (src/config.ts; docs/configuration.md). */
export interface WatchLimits {
  /** A new watch's interval when it names none (WATCH_INTERVAL_S). */
  intervalS: number;
  /** The least interval a watch may name (WATCH_MIN_INTERVAL_S). */
  minIntervalS: number;
  /** Live watches per caller, per /64 for IPv6 (WATCH_PER_CALLER). */
  perCaller: number;
  /** Live watches in the whole service (WATCH_MAX). */
  max: number;
  /** A watch not renewed by a PATCH within this ends (WATCH_TTL_DAYS). */
  ttlMs: number;
  /** A delivery's whole exchange must end within this (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
  /** Deliveries a watch may have waiting; past it the oldest is dropped (WATCH_PENDING_DELIVERIES). */
  pendingDeliveries: number;
}

/** The longest interval a watch may be re-checked at: a week. */
export const maxIntervalS = 7 * 86_400;

import type { ServiceReadiness } from '../reputation/index.js';
import type { Store } from '../store/index.js';

/**
 * GET /readyz's verdict (docs/operations.md): ready when the lists are trusted (the service is
 * configured) and the store answers. The store is asked at most about once a second however often
 * the probes come, and never waited on longer than a second: a readiness probe must stay cheap
 * and must not hang.
 */

export interface Readiness {
  ready: boolean;
  configured: boolean;
  /** `unknown`: not asked, as on a Worker whose configuration does not validate. */
  store: 'up' | 'down' | 'unknown';
  /** Why not ready, in plain words; only when not ready. */
  reason?: string;
}

/** How long a store's answer stands for the next probes. */
const answerKeptMs = 1000;
/** How long a probe waits for the store. */
const probeTimeoutMs = 1000;
/** A key the probe reads and nothing writes: reading a counter never creates it (store.ts). */
const probeKey = 'probe:readiness';

export function createReadiness(
  store: Store,
  lists: () => ServiceReadiness,
  now: () => number = () => performance.now(),
): () => Promise<Readiness> {
  let last: { at: number; up: Promise<boolean> } | undefined;

  function storeAnswers(): Promise<boolean> {
    const at = now();
    if (last === undefined || at - last.at >= answerKeptMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), probeTimeoutMs);
      });
      const answer = store.count(probeKey).then(
        () => true,
        () => false,
      );
      last = { at, up: Promise.race([answer, timeout]).finally(() => clearTimeout(timer)) };
    }
    return last.up;
  }

  return async () => {
    const up = await storeAnswers();
    const { configured, reason } = lists();
    const reasons = [
      ...(up
        ? []
        : ['the store does not answer: tokens, quotas and cached results cannot be read']),
      ...(configured ? [] : [reason ?? 'no blocklist is proven to answer honestly']),
    ];
    return {
      ready: reasons.length === 0,
      configured,
      store: up ? 'up' : 'down',
      ...(reasons.length > 0 ? { reason: reasons.join('; ') } : {}),
    };
  };
}

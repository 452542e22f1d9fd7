import type { Context } from 'hono';
import { checkIp, type IpCheckResult, runConfirmed, targetOf } from '../../reputation/index.js';
import { resultCacheKey } from '../common/index.js';
import type { ReportsToolDeps } from './deps.js';
import type { SummarySource } from './schemas.js';

/**
 * A source's reputation is its IP check (docs/reports.md, "The summary"): read from the IP tool's
 * result cache (RESULT_TTL_S) under the key the IP tool uses, so a source checked there, or by an
 * earlier summary, shows at once; otherwise null, and a fresh check started in the background,
 * through the pipeline every fresh check runs (readiness, the resolver's confirmation, the lists'
 * holds and the check's deadline), charged to nobody's quota and kept where the IP tool keeps its
 * results. Never a guess: a source without a check says null.
 */

/** Checks of one inbox's sources running at once; more wait for a later summary. */
export const checksPerInbox = 3;
/** Checks of every inbox at once, in this process. */
export const checksAtOnce = 12;

export type Reputation = Pick<SummarySource, 'ptr' | 'reputation'>;

const unknown: Reputation = { ptr: null, reputation: null };

function reputationOf(result: IpCheckResult, token: string): Reputation {
  const score = result.ip_score;
  return {
    ptr: result.ptr,
    reputation: {
      verdict: score.verdict,
      score: score.score,
      listed_on: score.lists
        .filter((list) => list.status === 'listed')
        .map((list) => ({ zone: list.zone, name: list.name })),
      checked_at: score.checked_at,
      token,
    },
  };
}

export interface SourceReputations {
  /**
   * The reputation of each address, from the cache; each not there has a check started (within
   * the bounds), whose promise is handed to `keepAlive` (Workers' waitUntil).
   */
  of(
    inboxId: string,
    ips: readonly string[],
    keepAlive: (work: Promise<unknown>) => void,
  ): Promise<Map<string, Reputation>>;
}

export function createSourceReputations(deps: ReportsToolDeps): SourceReputations {
  const running = new Set<string>();
  const perInbox = new Map<string, number>();

  /** A fresh IP check of `ip`, kept in the result store and remembered in the cache. */
  async function check(ip: string, key: string): Promise<void> {
    const parsed = targetOf('ip', ip);
    if (!parsed.ok || !deps.isConfigured()) return;
    const outcome = await runConfirmed(deps, () => checkIp(deps, parsed.target));
    if (!outcome.ok) return;
    const json = JSON.stringify(outcome.result);
    const token = await deps.results.save('ip', json);
    await deps.results.remember('ip', key, token, json);
  }

  function start(inboxId: string, ip: string, key: string): Promise<void> | undefined {
    const inboxRunning = perInbox.get(inboxId) ?? 0;
    if (running.has(key) || running.size >= checksAtOnce || inboxRunning >= checksPerInbox) {
      return undefined;
    }
    running.add(key);
    perInbox.set(inboxId, inboxRunning + 1);
    return check(ip, key)
      .catch(() => {
        // A failed check (the store, the DNS) is tried again by a later summary.
      })
      .finally(() => {
        running.delete(key);
        const left = (perInbox.get(inboxId) ?? 1) - 1;
        if (left > 0) perInbox.set(inboxId, left);
        else perInbox.delete(inboxId);
      });
  }

  return {
    async of(inboxId, ips, keepAlive) {
      const epoch = deps.verdictEpoch?.() ?? 0;
      const entries = await Promise.all(
        ips.map(async (ip): Promise<[string, Reputation]> => {
          // The IP tool's key: the address, IPv6 in its canonical form.
          const parsed = targetOf('ip', ip);
          if (!parsed.ok) return [ip, unknown];
          const key = resultCacheKey(parsed.text, epoch);
          const cached = await deps.results.cached('ip', key);
          if (cached) {
            return [ip, reputationOf(JSON.parse(cached.json) as IpCheckResult, cached.token)];
          }
          const work = start(inboxId, ip, key);
          if (work) keepAlive(work);
          return [ip, unknown];
        }),
      );
      return new Map(entries);
    },
  };
}

/** Hands background work to the runtime: Workers' waitUntil; Node keeps running anyway. */
export function keepAliveOf(c: Context): (work: Promise<unknown>) => void {
  return (work) => {
    try {
      c.executionCtx.waitUntil(work);
    } catch {
      // Node has no ExecutionContext: the process outlives the response.
    }
  };
}

import type { SmtpProbe } from '../../results/index.js';
import type { MailProbes, SmtpProber, SmtpProbeRequest } from './contract.js';
import { destinationBound } from './service-limits.js';

/** How long an MX probe's answer is kept: as long as a mail check's result is (RESULT_TTL_S's default). */
export const probeCacheMs = 600_000;
/** Probe answers kept at most: a process's worth of distinct MX hosts. */
const maxCachedProbes = 10_000;

/** The mail tool's probes from the cache, and the watches' made afresh with the cache behind. */
export interface CachedProbes {
  /** The mail tool's: a kept answer first, a probe in flight joined. */
  probes: MailProbes;
  /**
   * A watch's re-check's: probed afresh, as it asks the DNS afresh, and the answer kept; when a
   * destination's bound refuses the probe, the kept answer where there is one.
   */
  fresh: MailProbes;
}

/**
 * MX probes kept per host, address and reach apart from the check's DNS part (docs/mail.md,
 * "Bounds and safety"): a check that differs only in its DKIM selectors, or another domain whose
 * MX is the same host, re-probes nothing for `ttlMs`, and a probe in flight is joined, not
 * repeated. What the service's own limits left unprobed is not kept.
 */
export function cacheProbes(probes: MailProbes, ttlMs: number, now: () => number): CachedProbes {
  if ('unavailable' in probes.smtp) return { probes, fresh: probes };
  const inner: SmtpProber = probes.smtp;
  const kept = new Map<string, { at: number; answer: Promise<SmtpProbe> }>();
  const keyOf = (request: SmtpProbeRequest) =>
    `${request.operator === true ? 'operator' : 'public'} ${request.host} ${request.address}`;
  const keptAnswer = (key: string) => {
    const found = kept.get(key);
    return found !== undefined && now() - found.at < ttlMs ? found.answer : undefined;
  };
  const keep = (key: string, answer: Promise<SmtpProbe>) => {
    // The oldest first: a Map iterates in insertion order.
    if (kept.size >= maxCachedProbes) kept.delete(kept.keys().next().value!);
    kept.delete(key);
    kept.set(key, { at: now(), answer });
    void answer.then((probe) => {
      if (probe.status === 'not_probed' && kept.get(key)?.answer === answer) kept.delete(key);
    });
  };
  const cached: SmtpProber = {
    probe(request) {
      const key = keyOf(request);
      const found = keptAnswer(key);
      if (found !== undefined) return found;
      const answer = inner.probe(request);
      keep(key, answer);
      return answer;
    },
  };
  const fresh: SmtpProber = {
    async probe(request) {
      const key = keyOf(request);
      const probe = await inner.probe(request);
      if (probe.status !== 'not_probed') {
        keep(key, Promise.resolve(probe));
        return probe;
      }
      const bounded = probe.detail?.startsWith(destinationBound) === true;
      return (bounded ? await keptAnswer(key) : undefined) ?? probe;
    },
  };
  return { probes: { ...probes, smtp: cached }, fresh: { ...probes, smtp: fresh } };
}

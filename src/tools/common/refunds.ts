import type { QuotaReading } from '../../http/index.js';

/**
 * What a failed check costs (docs/results.md#refunds): a check our DNS failed
 * before any list was asked gets its unit back, while the caller has refunds left today; one that
 * asked lists did their work and is charged, as a bad target found by DNS is. Refunding every
 * `dns_unavailable` let a domain whose own look-ups fail buy list queries for nothing.
 */
export async function chargeFailedCheck(
  reading: QuotaReading,
  failure: { error: string; listsAsked?: number },
): Promise<void> {
  if (failure.error === 'dns_unavailable' && failure.listsAsked === 0) {
    await reading.refundFailedCheck();
  }
}

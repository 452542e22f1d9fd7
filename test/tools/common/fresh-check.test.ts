import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/http/errors.js';
import type { QuotaReading } from '../../../src/http/guard.js';
import { chargedCheck, requireReady } from '../../../src/tools/common/fresh-check.js';

/**
 * How the one fresh-check pipeline settles the caller's unit (docs/results.md, Refunds), for the
 * tools' checks and a watch's creation alike: kept for a result and for the check's own failure
 * that did work, given back by the refund rule for a failure that asked no list, and given back
 * for any refusal that is not the check's or a fault of the service.
 */

/** A reading that records what the pipeline did with the unit. */
function recordingReading() {
  const done: string[] = [];
  const reading: QuotaReading = {
    status: {
      configured: true,
      dailyLimit: 10,
      dailyRemaining: 10,
      captchaRequired: false,
    },
    requireCaptcha: async () => {},
    take: async () => {
      done.push('take');
      return { configured: true, dailyLimit: 10, dailyRemaining: 9, captchaRequired: false };
    },
    refund: async () => {
      done.push('refund');
    },
    refundFailedCheck: async () => {
      done.push('refundFailedCheck');
      return true;
    },
  };
  return { reading, done };
}

const payment = (reading: QuotaReading) => ({
  reading,
  captchaToken: undefined,
  address: '192.0.2.1',
});

describe('chargedCheck', () => {
  it('keeps the unit of a result and answers its quota status', async () => {
    const { reading, done } = recordingReading();
    const { outcome, quota } = await chargedCheck(payment(reading), async () => ({
      ok: true as const,
      result: 1,
    }));
    expect(outcome.result).toBe(1);
    expect(quota.dailyRemaining).toBe(9);
    expect(done).toEqual(['take']);
  });

  it.each([
    ['invalid_target', undefined, ['take']],
    ['dns_unavailable', 3, ['take']],
    ['dns_unavailable', 0, ['take', 'refundFailedCheck']],
    ['not_configured', undefined, ['take', 'refund']],
    ['watch_limit', undefined, ['take', 'refund']],
    ['watch_capacity', undefined, ['take', 'refund']],
    ['invalid_webhook', undefined, ['take', 'refund']],
  ] as const)(
    'settles a %s refusal (lists asked: %s) as %j, and throws it as its ApiError',
    async (error, listsAsked, expected) => {
      const { reading, done } = recordingReading();
      const refusal = {
        ok: false as const,
        error,
        reason: 'why',
        ...(listsAsked === undefined ? {} : { listsAsked }),
      };
      const thrown = await chargedCheck(payment(reading), async () => refusal).catch((e) => e);
      expect(thrown).toBeInstanceOf(ApiError);
      expect(thrown).toMatchObject({ code: error, message: 'why' });
      expect(done).toEqual(expected);
    },
  );

  it('gives the unit back when the check throws, and throws on', async () => {
    const { reading, done } = recordingReading();
    const fault = new Error('store down');
    await expect(chargedCheck(payment(reading), () => Promise.reject(fault))).rejects.toBe(fault);
    expect(done).toEqual(['take', 'refund']);
  });
});

describe('requireReady', () => {
  it('is a 503 not_configured, with the monitor reason, while the service may not check', () => {
    expect(() =>
      requireReady({ isConfigured: () => false, notConfiguredReason: () => 'lists unproven' }),
    ).toThrow(
      expect.objectContaining({ code: 'not_configured', status: 503, message: 'lists unproven' }),
    );
    expect(() => requireReady({ isConfigured: () => true })).not.toThrow();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type CheckReadiness,
  confirmationGraceMs,
  runConfirmed,
} from '../../../src/reputation/checks/confirmed-check.js';
import type { ResolverConfirmation } from '../../../src/reputation/lists/index.js';

type Confirmation = Awaited<ReturnType<ResolverConfirmation['settle']>>;

/**
 * The confirmed check every fresh check runs through (the tools' POSTs, a watch's creation and
 * re-checks): not run while the service is not configured, voided by a resolver caught lying
 * during it, and kept when the confirmation is honest, unknown or later than its grace.
 */

const result = { ok: true as const, result: { listed: 0 } };

/** A confirmation that answers `verdict` after `afterMs`, as the zone monitor's would. */
function confirmationIn(verdict: Confirmation, afterMs: number): ResolverConfirmation {
  const answer = new Promise<Confirmation>((resolve) =>
    setTimeout(() => resolve(verdict), afterMs),
  );
  return {
    settle: (graceMs) =>
      Promise.race([
        answer,
        new Promise<Confirmation>((resolve) => setTimeout(() => resolve('unknown'), graceMs)),
      ]),
  };
}

function readiness(overrides: Partial<CheckReadiness> = {}): CheckReadiness {
  return { isConfigured: () => true, ...overrides };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('runConfirmed', () => {
  it('does not run the check while the service is not configured, and says why', async () => {
    const check = vi.fn(async () => result);
    const outcome = await runConfirmed(
      readiness({ isConfigured: () => false, notConfiguredReason: () => 'no list proven yet' }),
      check,
    );
    expect(outcome).toEqual({ ok: false, error: 'not_configured', reason: 'no list proven yet' });
    expect(check).not.toHaveBeenCalled();
  });

  it('names the resolver when the monitor gives no reason', async () => {
    const outcome = await runConfirmed(
      readiness({ isConfigured: () => false }),
      async () => result,
    );
    expect(outcome).toMatchObject({
      error: 'not_configured',
      reason: expect.stringMatching(/DNS resolver/),
    });
  });

  it.each([
    ['honest', 'keeps', 10, result],
    ['unknown', 'keeps', 10, result],
    ['lying', 'voids', 10, { ok: false, error: 'not_configured', reason: 'the resolver lies' }],
    ['lying', 'keeps (too late to know)', confirmationGraceMs + 50, result],
  ] as const)('%s confirmation: %s the outcome', async (verdict, _what, afterMs, expected) => {
    vi.useFakeTimers();
    const outcome = runConfirmed(
      readiness({
        notConfiguredReason: () => 'the resolver lies',
        confirmResolver: () => confirmationIn(verdict, afterMs),
      }),
      async () => result,
    );
    await vi.advanceTimersByTimeAsync(confirmationGraceMs + 100);
    expect(await outcome).toEqual(expected);
  });

  it('passes a failed check on as it is', async () => {
    const failed = {
      ok: false as const,
      error: 'dns_unavailable' as const,
      reason: 'x',
      listsAsked: 0,
    };
    expect(await runConfirmed(readiness(), async () => failed)).toBe(failed);
  });
});

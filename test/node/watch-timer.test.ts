import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/node/config.js';
import { createNodeServices } from '../../src/node/services.js';
import { startWatchTimer } from '../../src/node/watch-timer.js';
import type { TickReport, WatchRunner } from '../../src/watch/index.js';
import { startWatchDns, watchedIp } from '../watch/support.js';

/**
 * The timer that drives the watch runner on Node, over a runner that only counts its claims and
 * fake timers (time is the point, the wire is not): a claim every 250 ms when idle, sooner for
 * work known to fall due, at once after a full claim or a wake, never two claims at once, and a
 * stop that waits for the work under way.
 */

afterEach(() => {
  vi.useRealTimers();
});

function countingRunner(reports: Partial<TickReport>[] = []) {
  const wakeListeners: (() => void)[] = [];
  let nextDue: number | undefined;
  let finishWork: () => void = () => {};
  const work = new Promise<void>((resolve) => {
    finishWork = resolve;
  });
  let working = false;
  const runner: WatchRunner & { claims: number; setNextDue(at: number): void; finish(): void } = {
    claims: 0,
    async start() {
      runner.claims++;
      const report = { checks: 0, deliveries: 0, full: false, ...reports.shift() };
      if (report.checks > 0) working = true;
      return { ...report, done: work };
    },
    tick: async () => ({ checks: 0, deliveries: 0, full: false }),
    settled: () => (working ? work : Promise.resolve()),
    nextDueAt: (now) => (nextDue !== undefined && nextDue > now ? nextDue : undefined),
    wake: () => wakeListeners.forEach((listener) => listener()),
    onWake: (listener) => wakeListeners.push(listener),
    setNextDue: (at) => {
      nextDue = at;
    },
    finish: () => finishWork(),
  };
  return runner;
}

const log = () => {};

describe('the watch timer', () => {
  it('claims at once, then every 250 ms while there is nothing to do', async () => {
    vi.useFakeTimers();
    const runner = countingRunner();
    const timer = startWatchTimer(runner, { clock: () => new Date(), log });
    await vi.advanceTimersByTimeAsync(0);
    expect(runner.claims).toBe(1);
    await vi.advanceTimersByTimeAsync(249);
    expect(runner.claims).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runner.claims).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runner.claims).toBe(6);
    await timer.stop();
  });

  it('claims again at once after a full claim, and when woken', async () => {
    vi.useFakeTimers();
    const runner = countingRunner([{}, { checks: 128, full: true }]);
    const timer = startWatchTimer(runner, { clock: () => new Date(), log });
    await vi.advanceTimersByTimeAsync(250);
    expect(runner.claims).toBe(2);
    // A timer of 0 ms fires after 1 ms, as Node's do.
    await vi.advanceTimersByTimeAsync(1);
    expect(runner.claims).toBe(3);
    runner.finish();
    runner.wake();
    await vi.advanceTimersByTimeAsync(1);
    expect(runner.claims).toBe(4);
    await timer.stop();
  });

  it('wakes for work known to fall due before its next poll', async () => {
    vi.useFakeTimers();
    const runner = countingRunner();
    runner.setNextDue(Date.now() + 40);
    const timer = startWatchTimer(runner, { clock: () => new Date(), log });
    await vi.advanceTimersByTimeAsync(0);
    expect(runner.claims).toBe(1);
    await vi.advanceTimersByTimeAsync(40);
    expect(runner.claims).toBe(2);
    await timer.stop();
  });

  it('stops claiming once stopped, after the work under way has run', async () => {
    vi.useFakeTimers();
    const runner = countingRunner([{ checks: 1 }]);
    const timer = startWatchTimer(runner, { clock: () => new Date(), log });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = timer.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(false);
    runner.finish();
    await stopping;
    const claims = runner.claims;
    await vi.advanceTimersByTimeAsync(1000);
    expect(runner.claims).toBe(claims);
  });

  it('logs a runner that cannot claim once, not at every poll', async () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const runner = countingRunner();
    runner.start = async () => {
      runner.claims++;
      throw new Error('store unavailable');
    };
    const timer = startWatchTimer(runner, {
      clock: () => new Date(),
      log: (level, message) => lines.push(`${level} ${message}`),
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(runner.claims).toBeGreaterThan(3);
    expect(lines).toEqual(['error watch runner cannot claim']);
    await timer.stop();
  });
});

describe('the Node services', () => {
  it('run the watches on their timer from the start, and stop it when they close', async () => {
    const dns = await startWatchDns();
    const services = await createNodeServices(
      readConfig({
        DNS_SERVERS: dns.address,
        STORE_URL: 'memory:',
        LOG_LEVEL: 'silent',
        WATCH_MIN_INTERVAL_S: '1',
      }),
      () => {},
    );
    try {
      const created = await services.watches.create(
        {
          target: watchedIp,
          interval_s: 1,
        },
        { caller: '198.51.100.20' },
      );
      if (!created.ok) throw new Error(created.reason);
      const checkedAt = async () => (await services.watches.view(created.watch.id))?.checked_at;
      const first = await checkedAt();
      await expect.poll(checkedAt, { timeout: 5000 }).not.toBe(first);
    } finally {
      await services.close();
      await dns.close();
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/node/config.js';
import { startMonitorTimer } from '../../src/node/monitor-timer.js';
import { createNodeServices } from '../../src/node/services.js';
import { startWatchDns } from '../watch/support.js';

/**
 * The timer that drives the zone monitor on Node, over a monitor that only counts its ticks and
 * fake timers (time is the point, the wire is not): a tick when the monitor's work falls due and
 * none before, the timer moved sooner when the monitor says its work did, a tick that fails
 * followed by the next, nothing after `stop()`, and a timer that never keeps the process alive.
 */

afterEach(() => {
  vi.useRealTimers();
});

/** A monitor whose next work falls due at `dueAt`: each tick moves it `everyMs` on. */
function countingMonitor(dueAt: number, everyMs = 1000) {
  const listeners: (() => void)[] = [];
  const monitor = {
    ticks: 0,
    dueAt,
    failing: false,
    wakeAt: () => monitor.dueAt,
    async tick() {
      monitor.ticks++;
      monitor.dueAt = Date.now() + everyMs;
      if (monitor.failing) throw new Error('the resolver is gone');
    },
    onScheduleChange: (listener: () => void) => listeners.push(listener),
    /** The work moved (sooner or later): tell the scheduler, as the monitor does. */
    moveTo(at: number) {
      monitor.dueAt = at;
      for (const listener of listeners) listener();
    },
  };
  return monitor;
}

describe('the monitor timer', () => {
  it('ticks when the work falls due, not before, and arms again for the next', async () => {
    vi.useFakeTimers();
    const monitor = countingMonitor(Date.now() + 500);
    const timer = startMonitorTimer(monitor);
    await vi.advanceTimersByTimeAsync(499);
    expect(monitor.ticks).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(monitor.ticks).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(monitor.ticks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(monitor.ticks).toBe(2);
    timer.stop();
  });

  it('ticks at once for work already due', async () => {
    vi.useFakeTimers();
    const monitor = countingMonitor(Date.now() - 5000);
    const timer = startMonitorTimer(monitor);
    await vi.advanceTimersByTimeAsync(1);
    expect(monitor.ticks).toBe(1);
    timer.stop();
  });

  it('moves sooner when the work does (a list went on hold), and stays when it moves later', async () => {
    vi.useFakeTimers();
    const monitor = countingMonitor(Date.now() + 60_000);
    const timer = startMonitorTimer(monitor);
    monitor.moveTo(Date.now() + 2000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(monitor.ticks).toBe(1);
    // After that tick the work is due in 1 s; a later moment announced now changes nothing armed.
    monitor.moveTo(Date.now() + 30_000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(monitor.ticks).toBe(2);
    timer.stop();
  });

  it('goes on after a tick that fails', async () => {
    vi.useFakeTimers();
    const monitor = countingMonitor(Date.now() + 100);
    monitor.failing = true;
    const timer = startMonitorTimer(monitor);
    await vi.advanceTimersByTimeAsync(100);
    expect(monitor.ticks).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(monitor.ticks).toBe(2);
    timer.stop();
  });

  it('ticks no more once stopped, whatever the monitor announces', async () => {
    vi.useFakeTimers();
    const monitor = countingMonitor(Date.now() + 100);
    const timer = startMonitorTimer(monitor);
    timer.stop();
    monitor.moveTo(Date.now());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(monitor.ticks).toBe(0);
  });

  it('never keeps the process alive', () => {
    const keepingAlive = () =>
      process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = keepingAlive();
    const timer = startMonitorTimer(countingMonitor(Date.now() + 60_000));
    expect(keepingAlive()).toBe(before);
    timer.stop();
  });
});

describe('the Node services', () => {
  it('run the self-test on its timer from the start, and end it on stopMonitor (the first step of a shutdown)', async () => {
    const dns = await startWatchDns();
    const selfTests = () =>
      dns.dns.queries.filter((query) => query.name.startsWith('2.0.0.127.')).length;
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const services = await createNodeServices(
      readConfig({ DNS_SERVERS: dns.address, STORE_URL: 'memory:', LOG_LEVEL: 'silent' }),
      () => {},
      { selfTestIntervalMs: 200 },
    );
    try {
      const first = selfTests();
      expect(first).toBeGreaterThan(0);
      await expect.poll(selfTests, { timeout: 5000 }).toBeGreaterThan(first);
      services.stopMonitor();
      // A run under way when stopped ends on its own; after it, none starts (three intervals on).
      await wait(300);
      const afterStop = selfTests();
      await wait(600);
      expect(selfTests()).toBe(afterStop);
    } finally {
      await services.close();
      await dns.close();
    }
  });
});

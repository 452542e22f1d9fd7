import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startWatchService, type WatchService } from '../watch/support.js';

/**
 * A resolver that answers nothing (docs/edge.md, "A resolver that cannot be reached"): the
 * service's own services (the zone monitor's self-test and its probes of every list on hold) over
 * UDP to a socket on 127.0.0.1 that counts each datagram and never answers. The service sends
 * its first self-test, then one probe per back-off wait, and says so in a few log lines with
 * counts, not one per query. Without the back-off the same 12 s sent 2,316 queries.
 */

let service: WatchService | undefined;
let silent: Socket | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  silent?.close();
  silent = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a DNS resolver that answers nothing', () => {
  it(
    'is asked with back-off, and logged once per wait with a count',
    { timeout: 30_000 },
    async () => {
      let datagrams = 0;
      silent = createSocket('udp4');
      silent.on('message', () => datagrams++);
      await new Promise<void>((resolve) => silent!.bind(0, '127.0.0.1', resolve));
      const { port } = silent.address() as AddressInfo;
      const logs: string[] = [];
      service = await startWatchService(`127.0.0.1:${port}`, {
        logs,
        env: { DNS_TIMEOUT_MS: '500' },
        // Lists on hold are probed every 200 ms: without the back-off, each probe is on the wire.
        services: { holdProbeMs: 200 },
      });
      const reports = () =>
        logs
          .map((line) => JSON.parse(line) as { msg: string; [field: string]: unknown })
          .filter((entry) => entry.msg.startsWith('DNS resolver'));
      // The first self-test's queries go out before any can fail; a second with no answer and
      // the resolver is held.
      await expect.poll(() => reports().length, { timeout: 5000 }).toBe(1);
      const held = datagrams;
      await sleep(10_000);
      // From then on, one probe per wait of 1, 2, 4 and 8 s.
      expect(datagrams - held).toBeLessThanOrEqual(5);
      expect(datagrams).toBeLessThan(600);
      expect(reports()[0]).toMatchObject({
        msg: 'DNS resolver answers nothing: queries fail at once, probed with back-off',
        failures_in_a_row: expect.any(Number),
      });
      expect(reports().length).toBeLessThanOrEqual(5);
      expect(reports().slice(1)).toContainEqual(
        expect.objectContaining({
          msg: 'DNS resolver still answers nothing',
          failed_since_last_report: expect.any(Number),
        }),
      );
    },
  );
});

import { describe, expect, it } from 'vitest';
import type { DnsOutcome, QueryOptions, Resolver } from '../../../src/dns/index.js';
import { createCheckDns } from '../../../src/reputation/lookups/check-dns.js';
import { createDeadline } from '../../../src/reputation/lookups/deadline.js';

/** A resolver that answers every question at once and remembers what it was asked, and how. */
function recordingResolver() {
  const asked: { name: string; options: QueryOptions | undefined }[] = [];
  const resolver: Resolver = {
    query(name, _type, options) {
      asked.push({ name, options });
      return Promise.resolve({ status: 'nodata' } as DnsOutcome<never>);
    },
  };
  return { resolver, asked };
}

describe('createCheckDns', () => {
  it.each(['metadata.google.internal', 'db.cluster.local', 'localhost', 'host.LAN.', 'mailhost'])(
    'answers NXDOMAIN for %s without asking',
    async (name) => {
      const { resolver, asked } = recordingResolver();
      const deadline = createDeadline(1000);
      const dns = createCheckDns(resolver, deadline, 10);
      expect(await dns.query(name, 'A')).toEqual({ status: 'nxdomain' });
      expect(asked).toEqual([]);
      expect(dns.asked).toBe(0);
      deadline.clear();
    },
  );

  it('answers timeout unasked once its budget is spent, and says so', async () => {
    const { resolver, asked } = recordingResolver();
    const deadline = createDeadline(1000);
    const dns = createCheckDns(resolver, deadline, 3);
    const outcomes = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((label) => dns.query(`${label}.example.com`, 'A')),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'nodata',
      'nodata',
      'nodata',
      'timeout',
      'timeout',
    ]);
    expect(asked).toHaveLength(3);
    expect(dns).toMatchObject({ asked: 3, exhausted: true });
    deadline.clear();
  });

  it('gives every query the check’s signal and lane, a shorter deadline’s own when it passes them', async () => {
    const { resolver, asked } = recordingResolver();
    const deadline = createDeadline(1000);
    const inner = createDeadline(500, deadline);
    const dns = createCheckDns(resolver, deadline, 10);
    await dns.query('one.example.com', 'A');
    await dns.query('two.example.com', 'A', { ...inner.queryOptions, bypassCache: true });
    expect(asked[0]?.options).toEqual(deadline.queryOptions);
    expect(asked[1]?.options).toEqual({ ...inner.queryOptions, bypassCache: true });
    // One check, one lane in the fair share of the in-flight cap.
    expect(inner.queryOptions.check).toBe(deadline.queryOptions.check);
    inner.clear();
    deadline.clear();
  });

  it('sends nothing once the deadline has passed', async () => {
    const { resolver, asked } = recordingResolver();
    const deadline = createDeadline(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const dns = createCheckDns(resolver, deadline, 10);
    expect(await dns.query('late.example.com', 'A')).toEqual({ status: 'timeout' });
    expect(asked).toEqual([]);
  });
});

describe('createDeadline', () => {
  it('aborts its signal when it passes, and when the check is done', async () => {
    const passing = createDeadline(5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(passing).toMatchObject({ expired: true, signal: { aborted: true } });

    const done = createDeadline(10_000);
    expect(done.signal.aborted).toBe(false);
    done.clear();
    expect(done.signal.aborted).toBe(true);
    // Done is not late: work that raced it is not reported as timed out by `expired`.
    expect(done.expired).toBe(false);
  });

  it('passes within a check when the check’s own deadline passes first', async () => {
    const check = createDeadline(5);
    const part = createDeadline(10_000, check);
    expect(await part.race(new Promise(() => {}), 'late')).toBe('late');
    expect(part.expired).toBe(true);
    part.clear();
  });
});

import { randomBytes } from 'node:crypto';
import type { DnsOutcome, Resolver } from '../dns/index.js';
import { queryZone } from './dnsbl.js';
import { reversedOctets } from './ipv4.js';
import { readAnswer } from './return-codes.js';
import type { DnsblZone } from './zones.js';

/**
 * RFC 5782 §5 self-test of every zone: the test entry must be listed (127.0.0.2, or `test` for
 * domain lists), the never-listed entry must not be (127.0.0.1, `invalid`), and a random label
 * must not be either, or the zone is a wildcard that "lists" everything (as bl.spamcop.net did
 * for a day when its domain lapsed in 2021). A zone that fails is disabled until it passes again.
 */

export type SelfTestVerdict =
  | { zone: string; state: 'passed' }
  | { zone: string; state: 'failed'; reason: string }
  /** No usable answer (timeout, SERVFAIL): the zone's state is left as it was. */
  | { zone: string; state: 'inconclusive'; reason: string };

export interface SelfTestRun {
  verdicts: SelfTestVerdict[];
  /** Whether the resolver answered at all: any reply, even NXDOMAIN, shows it is alive. */
  resolverAnswered: boolean;
}

type Probe = DnsOutcome<string>;

export async function selfTestZones(
  resolver: Resolver,
  zones: readonly DnsblZone[],
  spamhausDqsKey?: string,
): Promise<SelfTestRun> {
  const outcomes: Probe[] = [];
  const verdicts = await Promise.all(
    zones.map(async (zone) => {
      const probes = testEntries(zone).map(async (entry) => {
        const name = `${entry.label}.${queryZone(zone, spamhausDqsKey)}`;
        const outcome = await resolver.query(name, 'A', { bypassCache: true });
        outcomes.push(outcome);
        return { ...entry, outcome };
      });
      return judge(zone, await Promise.all(probes));
    }),
  );
  return { verdicts, resolverAnswered: outcomes.some((outcome) => outcome.status !== 'timeout') };
}

interface TestEntry {
  label: string;
  expect: 'listed' | 'not listed';
  what: string;
}

function testEntries(zone: DnsblZone): TestEntry[] {
  const ip = zone.type === 'ip';
  const listed =
    zone.selfTest?.listed === undefined ? (ip ? '127.0.0.2' : 'test') : zone.selfTest.listed;
  const notListed =
    zone.selfTest?.notListed === undefined
      ? ip
        ? '127.0.0.1'
        : 'invalid'
      : zone.selfTest.notListed;
  const entries: TestEntry[] = [
    // A label no list can hold: an answer means the zone answers everything.
    {
      label: `selftest-${randomBytes(6).toString('hex')}`,
      expect: 'not listed',
      what: 'a random label',
    },
  ];
  if (notListed !== null) {
    entries.push({
      label: entryLabel(zone, notListed),
      expect: 'not listed',
      what: `test entry ${notListed}`,
    });
  }
  if (listed !== null)
    entries.push({
      label: entryLabel(zone, listed),
      expect: 'listed',
      what: `test entry ${listed}`,
    });
  return entries;
}

function entryLabel(zone: DnsblZone, entry: string): string {
  return zone.type === 'ip' ? reversedOctets(entry) : entry;
}

/** A failure found by any probe wins over a probe that got no answer; all must pass to pass. */
function judge(zone: DnsblZone, probes: (TestEntry & { outcome: Probe })[]): SelfTestVerdict {
  const failures = probes.map(failureOf).filter((reason) => reason !== undefined);
  if (failures.length > 0)
    return { zone: zone.zone, state: 'failed', reason: `self-test: ${failures[0]}` };
  const silent = probes.find(({ outcome }) => !answeredAtAll(outcome));
  if (silent) {
    return {
      zone: zone.zone,
      state: 'inconclusive',
      reason: `${silent.what}: ${silent.outcome.status}`,
    };
  }
  return { zone: zone.zone, state: 'passed' };

  function failureOf({
    outcome,
    expect,
    what,
  }: TestEntry & { outcome: Probe }): string | undefined {
    if (!answeredAtAll(outcome)) return undefined;
    if (expect === 'not listed') {
      if (outcome.status !== 'answer') return undefined;
      const reading = readAnswer(zone, outcome.records);
      return reading.status === 'error'
        ? `${what}: ${reading.error}`
        : `${what} answered ${outcome.records.join(', ')} (the zone answers everything)`;
    }
    if (outcome.status !== 'answer') return `${what} is not listed`;
    const reading = readAnswer(zone, outcome.records);
    return reading.status === 'error' ? `${what}: ${reading.error}` : undefined;
  }
}

/** SERVFAIL, REFUSED or no answer: the probe tells nothing about the zone's data. */
function answeredAtAll(outcome: Probe): boolean {
  return (
    outcome.status !== 'timeout' && outcome.status !== 'servfail' && outcome.status !== 'refused'
  );
}

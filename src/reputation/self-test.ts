import type { DnsOutcome, Resolver } from '../dns/index.js';
import { queryZone } from './dnsbl.js';
import { reversedOctets } from './ipv4.js';
import { readAnswer } from './return-codes.js';
import type { DnsblZone } from './zones.js';

/**
 * RFC 5782 §5 self-test of every zone: the test entry must be listed (127.0.0.2, or `test` for
 * domain lists, or the entry its operator documents) and answer as documented, the never-listed
 * entry must not be (127.0.0.1, `invalid`), and a random label must answer NXDOMAIN: otherwise the
 * zone "lists" everything (as bl.spamcop.net did for a day when its domain lapsed in 2021) or the
 * resolver rewrites NXDOMAIN. A resolver that answers NXDOMAIN to everything passes every negative
 * probe and no positive one, which is why a pass needs both.
 */

export type SelfTestVerdict =
  /** `positive`: the zone's own documented test entry answered as documented. */
  | { zone: string; state: 'passed'; positive: boolean }
  | { zone: string; state: 'failed'; reason: string }
  /** No usable answer (timeout, SERVFAIL, REFUSED): `silent` when nothing came back at all. */
  | { zone: string; state: 'inconclusive'; reason: string; silent: boolean };

/** What the run's probes say about the resolver path as a whole (see resolver-diagnosis.ts). */
export interface ProbeTally {
  sent: number;
  timeouts: number;
  /** SERVFAIL or REFUSED. */
  refusals: number;
  /** Lists proven honest: their documented test entry answered as documented, a random name NXDOMAIN. */
  provenLists: number;
  /** Documented test entries that answered NXDOMAIN or NODATA. */
  testEntriesMissing: number;
  /** Answers outside 127.0.0.0/8 to any probe: the resolver rewrites answers. */
  rewrites: string[];
  /** Spamhaus' answer for queries that come through a public resolver (127.255.255.254). */
  publicResolverRefusals: number;
}

export interface SelfTestRun {
  verdicts: SelfTestVerdict[];
  tally: ProbeTally;
}

type Probe = DnsOutcome<string>;

interface TestEntry {
  label: string;
  expect: 'listed' | 'not listed';
  what: string;
  /** The codes the operator documents for a listed entry; undefined: any documented listing. */
  answers?: readonly string[];
  random?: boolean;
}

type Probed = TestEntry & { outcome: Probe };

export async function selfTestZones(
  resolver: Resolver,
  zones: readonly DnsblZone[],
  spamhausDqsKey?: string,
): Promise<SelfTestRun> {
  const probed: { zone: DnsblZone; probes: Probed[] }[] = await Promise.all(
    zones.map(async (zone) => {
      const probes = await Promise.all(
        testEntries(zone).map(async (entry) => {
          const name = `${entry.label}.${queryZone(zone, spamhausDqsKey)}`;
          const outcome = await resolver.query(name, 'A', { bypassCache: true });
          return { ...entry, outcome };
        }),
      );
      return { zone, probes };
    }),
  );
  const verdicts = probed.map(({ zone, probes }) => judge(zone, probes));
  const tally = tallyOf(probed);
  tally.provenLists = verdicts.filter(
    (verdict) => verdict.state === 'passed' && verdict.positive,
  ).length;
  return { verdicts, tally };
}

/** The documented positive entry of a zone, or undefined when its operator documents none. */
export function positiveEntry(zone: DnsblZone): string | undefined {
  const listed = zone.selfTest?.listed;
  if (listed === null) return undefined;
  return listed ?? (zone.type === 'ip' ? '127.0.0.2' : 'test');
}

export type TestEntryReading =
  | { kind: 'as-documented' }
  /** NXDOMAIN, NODATA, or another answer than the documented one. */
  | { kind: 'wrong'; reason: string }
  | { kind: 'no-answer'; reason: string };

/**
 * One look at a zone's documented test entry, past every cache: the per-check confirmation that
 * the resolver still answers honestly (zone-monitor.ts).
 */
export async function probeTestEntry(
  resolver: Resolver,
  zone: DnsblZone,
  spamhausDqsKey?: string,
): Promise<TestEntryReading> {
  const entry = positiveTestEntry(zone);
  if (!entry) return { kind: 'no-answer', reason: `${zone.zone} documents no test entry` };
  const name = `${entry.label}.${queryZone(zone, spamhausDqsKey)}`;
  const outcome = await resolver.query(name, 'A', { bypassCache: true });
  if (!answeredAtAll(outcome))
    return { kind: 'no-answer', reason: `${entry.what}: ${outcome.status}` };
  const failure = failureOf(zone, { ...entry, outcome });
  return failure === undefined
    ? { kind: 'as-documented' }
    : { kind: 'wrong', reason: `${zone.zone}: ${failure}` };
}

function testEntries(zone: DnsblZone): TestEntry[] {
  const ip = zone.type === 'ip';
  const notListed =
    zone.selfTest?.notListed === undefined
      ? ip
        ? '127.0.0.1'
        : 'invalid'
      : zone.selfTest.notListed;
  const entries: TestEntry[] = [
    // A label no list can hold: an answer means the zone answers everything, or the resolver
    // invents answers for names that do not exist.
    {
      label: `selftest-${randomHex(6)}`,
      expect: 'not listed',
      what: 'a random label',
      random: true,
    },
  ];
  if (notListed !== null) {
    entries.push({
      label: entryLabel(zone, notListed),
      expect: 'not listed',
      what: `test entry ${notListed}`,
    });
  }
  const positive = positiveTestEntry(zone);
  if (positive) entries.push(positive);
  return entries;
}

function positiveTestEntry(zone: DnsblZone): TestEntry | undefined {
  const listed = positiveEntry(zone);
  if (listed === undefined) return undefined;
  return {
    label: entryLabel(zone, listed),
    expect: 'listed',
    what: `test entry ${listed}`,
    ...(zone.selfTest?.answers ? { answers: zone.selfTest.answers } : {}),
  };
}

/** Web Crypto rather than node:crypto: the core runs on Workers too. */
function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}

function entryLabel(zone: DnsblZone, entry: string): string {
  return zone.type === 'ip' ? reversedOctets(entry) : entry;
}

/** A failure found by any probe wins over a probe that got no answer; all must pass to pass. */
function judge(zone: DnsblZone, probes: Probed[]): SelfTestVerdict {
  const failures = probes.map((probe) => failureOf(zone, probe)).filter((reason) => !!reason);
  if (failures.length > 0)
    return { zone: zone.zone, state: 'failed', reason: `self-test: ${failures[0]}` };
  const silent = probes.find(({ outcome }) => !answeredAtAll(outcome));
  if (silent) {
    return {
      zone: zone.zone,
      state: 'inconclusive',
      reason: `${silent.what}: ${silent.outcome.status}`,
      silent: probes.every(({ outcome }) => outcome.status === 'timeout'),
    };
  }
  return {
    zone: zone.zone,
    state: 'passed',
    positive: probes.some((probe) => probe.expect === 'listed'),
  };
}

function failureOf(zone: DnsblZone, probe: Probed): string | undefined {
  const { outcome, expect, what } = probe;
  if (!answeredAtAll(outcome)) return undefined;
  if (expect === 'not listed') {
    if (outcome.status !== 'answer') return undefined;
    const reading = readAnswer(zone, outcome.records);
    if (reading.status === 'error' && probe.random && outsideLoopback(outcome.records)) {
      return `${what} answered ${outcome.records.join(', ')}: the resolver turns NXDOMAIN into addresses`;
    }
    return reading.status === 'error'
      ? `${what}: ${reading.error}`
      : `${what} answered ${outcome.records.join(', ')} (the zone answers everything)`;
  }
  if (outcome.status !== 'answer') return `${what} is not listed`;
  const reading = readAnswer(zone, outcome.records);
  if (probe.answers) {
    // The operator's own word on what its test entry answers outranks the code table: SURBL's
    // test.surbl.org sets every bit, including ones no real listing uses.
    const unexpected = outcome.records.filter((code) => !probe.answers!.includes(code));
    if (unexpected.length === 0) return undefined;
    return reading.status === 'error'
      ? `${what}: ${reading.error}`
      : `${what} answered ${unexpected.join(', ')}, documented: ${probe.answers.join(' or ')}`;
  }
  return reading.status === 'error' ? `${what}: ${reading.error}` : undefined;
}

/** SERVFAIL, REFUSED or no answer: the probe tells nothing about the zone's data. */
function answeredAtAll(outcome: Probe): boolean {
  return (
    outcome.status !== 'timeout' && outcome.status !== 'servfail' && outcome.status !== 'refused'
  );
}

const inLoopback = (code: string) => code.startsWith('127.');

function outsideLoopback(codes: readonly string[]): boolean {
  return codes.some((code) => !inLoopback(code));
}

function tallyOf(probed: { probes: Probed[] }[]): ProbeTally {
  const tally: ProbeTally = {
    sent: 0,
    timeouts: 0,
    refusals: 0,
    provenLists: 0,
    testEntriesMissing: 0,
    rewrites: [],
    publicResolverRefusals: 0,
  };
  for (const { probes } of probed) {
    for (const probe of probes) {
      const { outcome } = probe;
      tally.sent++;
      if (outcome.status === 'timeout') tally.timeouts++;
      if (outcome.status === 'servfail' || outcome.status === 'refused') tally.refusals++;
      if (outcome.status === 'answer') {
        for (const code of outcome.records) {
          if (!inLoopback(code) && !tally.rewrites.includes(code)) tally.rewrites.push(code);
        }
        if (outcome.records.includes('127.255.255.254')) tally.publicResolverRefusals++;
      }
      if (probe.expect === 'listed') {
        if (outcome.status === 'nxdomain' || outcome.status === 'nodata')
          tally.testEntriesMissing++;
      }
    }
  }
  return tally;
}

import type { DnsOutcome, Resolver } from '../../dns/index.js';
import { canonicalIpv6, hex, reversedNibbles, reversedOctets } from '../../lib/index.js';
import { queryZone } from './dnsbl.js';
import type { ListKeys } from './list-keys.js';
import { type ListSide, ipv6TestEntries, sidesOf } from './list-sides.js';
import { readAnswer } from './return-codes.js';
import type { DnsblZone } from './zones.js';

/**
 * RFC 5782 §5 self-test of every zone: the test entry must be listed (127.0.0.2, or `test` for
 * domain lists, or the entry its operator documents) and answer as documented, the never-listed
 * entry must not be (127.0.0.1, `invalid`), and a random label must answer NXDOMAIN: otherwise the
 * zone "lists" everything (as bl.spamcop.net did for a day when its domain lapsed in 2021) or the
 * resolver rewrites NXDOMAIN. A resolver that answers NXDOMAIN to everything passes every negative
 * probe and no positive one, which is why a pass needs both.
 *
 * A list that answers for IPv6 addresses has its IPv6 side tested apart, with RFC 5782 §5's IPv6
 * entries (`::FFFF:7F00:2` listed, `::FFFF:7F00:1` not, a random name NXDOMAIN) asked in the
 * nibble format of §2.4: an IPv6 "not listed" is believed only while that side is proven.
 */

/** `side`: which side of the list `zone` the verdict is about (list-sides.ts). */
export type SelfTestVerdict = { zone: string; side: ListSide } &
  /** `positive`: the zone's own documented test entry answered as documented. */
  (
    | { state: 'passed'; positive: boolean }
    | { state: 'failed'; reason: string }
    /** No usable answer (timeout, SERVFAIL, REFUSED): `silent` when nothing came back at all. */
    | { state: 'inconclusive'; reason: string; silent: boolean }
  );

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
  /** Every list's primary side, in the zone list's order, then the IPv6 sides. */
  verdicts: SelfTestVerdict[];
  /** The primary sides' probes: IPv6 sides tell nothing more about the resolver. */
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

/**
 * Self-tests the sides of `zones`: every side of each (its IPv6 one too, where it has one), or
 * only `side` when given (a side on hold is probed alone).
 */
export async function selfTestZones(
  resolver: Resolver,
  zones: readonly DnsblZone[],
  keys: ListKeys = {},
  side?: ListSide,
): Promise<SelfTestRun> {
  const tested = (['primary', 'ipv6'] as const)
    .filter((each) => side === undefined || each === side)
    .flatMap((each) =>
      zones.filter((zone) => sidesOf(zone).includes(each)).map((zone) => ({ zone, side: each })),
    );
  const probed: { zone: DnsblZone; side: ListSide; probes: Probed[] }[] = await Promise.all(
    tested.map(async ({ zone, side: tests }) => {
      const probes = await Promise.all(
        testEntries(zone, tests).map(async (entry) => {
          const name = `${entry.label}.${queryZone(zone, keys, tests)}`;
          const outcome = await resolver.query(name, 'A', { bypassCache: true });
          return { ...entry, outcome };
        }),
      );
      return { zone, side: tests, probes };
    }),
  );
  const verdicts = probed.map(({ zone, side: tests, probes }) => judge(zone, tests, probes, keys));
  const tally = tallyOf(probed.filter((each) => each.side === 'primary'));
  tally.provenLists = verdicts.filter(
    (verdict) => verdict.side === 'primary' && verdict.state === 'passed' && verdict.positive,
  ).length;
  return { verdicts, tally };
}

/**
 * The documented positive entry of a zone's side, or undefined when its operator documents none
 * (or the list has no IPv6 side). IPv6 entries in RFC 5952 form.
 */
export function positiveEntry(zone: DnsblZone, side: ListSide = 'primary'): string | undefined {
  if (side === 'ipv6') {
    if (zone.ipv6 === undefined) return undefined;
    const listed = zone.ipv6.selfTest?.listed;
    if (listed === null) return undefined;
    return canonicalIpv6(listed ?? ipv6TestEntries.listed);
  }
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
  keys: ListKeys = {},
): Promise<TestEntryReading> {
  const entry = positiveTestEntry(zone);
  if (!entry) return { kind: 'no-answer', reason: `${zone.zone} documents no test entry` };
  const name = `${entry.label}.${queryZone(zone, keys)}`;
  const outcome = await resolver.query(name, 'A', { bypassCache: true });
  if (!answeredAtAll(outcome))
    return { kind: 'no-answer', reason: `${entry.what}: ${outcome.status}` };
  const failure = failureOf(zone, { ...entry, outcome });
  return failure === undefined
    ? { kind: 'as-documented' }
    : { kind: 'wrong', reason: `${zone.zone}: ${failure}` };
}

/** The entry a side must not list: RFC 5782 §5's, unless its `selfTest` says otherwise. */
function negativeEntry(zone: DnsblZone, side: ListSide): string | null {
  if (side === 'ipv6') {
    const notListed = zone.ipv6?.selfTest?.notListed;
    if (notListed === null) return null;
    return canonicalIpv6(notListed ?? ipv6TestEntries.notListed);
  }
  if (zone.selfTest?.notListed !== undefined) return zone.selfTest.notListed;
  return zone.type === 'ip' ? '127.0.0.1' : 'invalid';
}

function testEntries(zone: DnsblZone, side: ListSide): TestEntry[] {
  const notListed = negativeEntry(zone, side);
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
      label: entryLabel(zone, notListed, side),
      expect: 'not listed',
      what: `test entry ${notListed}`,
    });
  }
  const positive = positiveTestEntry(zone, side);
  if (positive) entries.push(positive);
  return entries;
}

function positiveTestEntry(zone: DnsblZone, side: ListSide = 'primary'): TestEntry | undefined {
  const listed = positiveEntry(zone, side);
  if (listed === undefined) return undefined;
  // The IPv4 side's documented answers are not the IPv6 side's: ZEN documents what 127.0.0.2
  // answers, nothing of ::FFFF:7F00:2.
  const answers = side === 'ipv6' ? zone.ipv6?.selfTest?.answers : zone.selfTest?.answers;
  return {
    label: entryLabel(zone, listed, side),
    expect: 'listed',
    what: `test entry ${listed}`,
    ...(answers ? { answers } : {}),
  };
}

/** Web Crypto rather than node:crypto: the core runs on Workers too. */
export function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return hex(values);
}

/** RFC 5782 §2.1 reversed octets, §2.4 reversed nibbles, §2.3 a domain list's name as it is. */
function entryLabel(zone: DnsblZone, entry: string, side: ListSide): string {
  if (side === 'ipv6') return reversedNibbles(entry);
  return zone.type === 'ip' ? reversedOctets(entry) : entry;
}

/** Spamhaus' answer to a query that came through a public resolver. */
const publicResolverCode = '127.255.255.254';

/**
 * What to do about a Spamhaus list that refuses the resolver as a public one, as it refuses every
 * public DoH resolver (the edge build's, docs/edge.md): ask its Data Query Service with a key.
 */
function publicResolverHint(zone: DnsblZone, probes: Probed[], keys: ListKeys): string {
  const refused = probes.some(
    ({ outcome }) => outcome.status === 'answer' && outcome.records.includes(publicResolverCode),
  );
  const spamhaus = queryZone(zone, { SPAMHAUS_DQS_KEY: 'key' }) !== zone.zone;
  if (!refused || keys.SPAMHAUS_DQS_KEY !== undefined || !spamhaus) return '';
  return (
    '; Spamhaus refuses queries that come through a public resolver (as every public DoH ' +
    'resolver is): set SPAMHAUS_DQS_KEY to ask its Data Query Service instead'
  );
}

/** A failure found by any probe wins over a probe that got no answer; all must pass to pass. */
function judge(zone: DnsblZone, side: ListSide, probes: Probed[], keys: ListKeys): SelfTestVerdict {
  const failures = probes.map((probe) => failureOf(zone, probe)).filter((reason) => !!reason);
  if (failures.length > 0) {
    const hint = publicResolverHint(zone, probes, keys);
    return { zone: zone.zone, side, state: 'failed', reason: `self-test: ${failures[0]}${hint}` };
  }
  const silent = probes.find(({ outcome }) => !answeredAtAll(outcome));
  if (silent) {
    return {
      zone: zone.zone,
      side,
      state: 'inconclusive',
      reason: `${silent.what}: ${silent.outcome.status}`,
      silent: probes.every(({ outcome }) => outcome.status === 'timeout'),
    };
  }
  return {
    zone: zone.zone,
    side,
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
        if (outcome.records.includes(publicResolverCode)) tally.publicResolverRefusals++;
      }
      if (probe.expect === 'listed') {
        if (outcome.status === 'nxdomain' || outcome.status === 'nodata')
          tally.testEntriesMissing++;
      }
    }
  }
  return tally;
}

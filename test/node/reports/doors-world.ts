import { readFileSync } from 'node:fs';
import { webCrypto } from '../../../src/platform.js';
import {
  createInboxes,
  createMemoryReportStore,
  createReportIntake,
  createReportReader,
  defaultReadLimits,
  type Inbox,
  inboxAddress,
  parseReportsMailbox,
  type ReportIntake,
  type ReportStore,
} from '../../../src/reports/index.js';
import type { ReadLimits } from '../../../src/reports/read/index.js';
import { memoryResolver, memoryWorld } from '../../support/memory-resolver.js';
import { type DoorSample, inboxCounts } from '../../support/report-samples.js';

/**
 * What the mail doors' suites stand on: the reports tool's own intake (src/reports/) over a memory
 * report store and its inboxes, under REPORTS_ADDRESS `dmarc@reports.example.org`, with an inbox
 * for every domain of parsedmarc's samples, verified as an operator's are, and one left
 * unverified (its domain's DNS names no inbox). Nothing of the intake is replaced: a door's test
 * sees what the service would keep.
 */

export const reportsAddress = 'dmarc@reports.example.org';
const mailbox = parseReportsMailbox(reportsAddress)!;
const operatorToken = 'operator-token-of-the-doors-tests';

export interface DoorsWorld {
  store: ReportStore;
  intake: ReportIntake;
  /** An inbox per domain of the samples, verified. */
  inboxes: Map<string, Inbox>;
  /** An inbox of `unverified.example.net` that its domain does not name. */
  unverified: Inbox;
  addressOf(inbox: Pick<Inbox, 'id'>): string;
  /** Every report kept in any inbox. */
  keptReports(): Promise<number>;
}

export async function createDoorsWorld(
  limits: ReadLimits = defaultReadLimits,
  store: ReportStore = createMemoryReportStore(),
): Promise<DoorsWorld> {
  const clock = () => new Date();
  const inboxes = createInboxes({
    store,
    resolver: memoryResolver(memoryWorld(), 1000),
    ...webCrypto,
    clock,
    mailbox,
    deadlineMs: 1000,
    operatorToken,
  });
  const intake = createReportIntake({
    store,
    reader: createReportReader(limits),
    clock,
    mailbox,
    verify: (inbox) => inboxes.verify(inbox),
  });
  const byDomain = new Map<string, Inbox>();
  for (const { domain } of inboxCounts) {
    const { inbox } = await inboxes.create({ domain, lang: 'en', credential: operatorToken });
    byDomain.set(domain, inbox);
  }
  const { inbox: unverified } = await inboxes.create({
    domain: 'unverified.example.net',
    lang: 'en',
  });
  return {
    store,
    intake,
    inboxes: byDomain,
    unverified,
    addressOf: (inbox) => inboxAddress(mailbox, inbox.id),
    async keptReports() {
      const all = [...byDomain.values(), unverified];
      const counts = await Promise.all(
        all.map(
          async (inbox) =>
            (
              await store.received(
                inbox.id,
                { from: '1970-01-01', to: '2099-12-31' },
                { limit: 1000 },
              )
            ).length,
        ),
      );
      return counts.reduce((sum, count) => sum + count, 0);
    },
  };
}

const samplesFolder = new URL('../../fixtures/reports/parsedmarc/', import.meta.url);

/** A sample's bytes, as parsedmarc publishes them. */
export function sampleBytes(sample: Pick<DoorSample, 'file'>): Uint8Array {
  return new Uint8Array(readFileSync(new URL(sample.file, samplesFolder)));
}

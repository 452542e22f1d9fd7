import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/worker.js';
import type { WorkerEnv } from '../../src/workers/app.js';
import {
  type DoorSample,
  doorSamples,
  type InboxCount,
  inboxCount,
  inboxCounts,
  refusedSamples,
  sampleMessage,
} from '../support/report-samples.js';
import { basePath, startWorld } from './support/service.js';

/**
 * The reports on Workers, through the Worker's own entry point (src/worker.ts) as Cloudflare runs
 * it: messages handed to its email() handler as Email Routing hands them, and files posted to the
 * upload route, kept in the inboxes' Durable Objects. parsedmarc's samples give the hand counts
 * of test/support/report-samples.ts either way; every refusal is a rejection with nothing kept.
 */

// The samples' bytes as published, bundled into the test (test/workerd/vitest.config.ts).
const bundled = import.meta.glob<string>(
  '../fixtures/reports/parsedmarc/**/*.{xml,gz,zip,eml,json}',
  { query: '?inline', import: 'default', eager: true },
);

async function sampleBytes(sample: Pick<DoorSample, 'file'>): Promise<Uint8Array> {
  const dataUrl = bundled[`../fixtures/reports/parsedmarc/${sample.file}`];
  if (dataUrl === undefined) throw new Error(`no bundled sample ${sample.file}`);
  return new Uint8Array(await (await fetch(dataUrl)).arrayBuffer());
}

const operatorToken = 'an-operator-token-of-the-workerd-reports-tests';
const maxBytes = 128 * 1024;

let world: Awaited<ReturnType<typeof startWorld>>;
let workerEnv: WorkerEnv;

beforeAll(async () => {
  world = await startWorld({ listings: {} });
  workerEnv = {
    ...(env as unknown as WorkerEnv),
    DOH_URL: world.dohUrl,
    DNS_TIMEOUT_MS: '1000',
    DNS_RETRIES: '0',
    CHECK_DEADLINE_MS: '3000',
    REPORTS_ADDRESS: 'dmarc@reports.example.org',
    REPORTS_MAX_BYTES: String(maxBytes),
    OPERATOR_TOKEN: operatorToken,
    // Each suite makes some twenty inboxes from one caller.
    DAILY_LIMIT: '1000',
    // The Worker's own entry logs each request and intake on the console, which the pool prints
    // on a passing run; an error still shows.
    LOG_LEVEL: 'error',
  };
});

afterAll(() => world.close());

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`http://edge.test${basePath}${path}`, init);
  request.headers.set('cf-connecting-ip', '192.0.2.7');
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    request as Parameters<typeof worker.fetch>[0],
    workerEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

interface MadeInbox {
  id: string;
  key: string;
  address: string;
  domain: string;
}

async function createInbox(domain: string, credential?: string): Promise<MadeInbox> {
  const response = await call('/reports/v1', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
    },
    body: JSON.stringify({ domain }),
  });
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
  return (await response.json()) as MadeInbox;
}

/** An inbox of the operator's (verified at once) per domain of the samples. */
async function inboxesPerDomain(): Promise<Map<string, MadeInbox>> {
  const made = await Promise.all(
    inboxCounts.map(({ domain }) => createInbox(domain, operatorToken)),
  );
  return new Map(made.map((inbox) => [inbox.domain, inbox]));
}

/** What the summary says, in InboxCount's terms. */
async function countOf(inbox: MadeInbox): Promise<InboxCount> {
  const response = await call(`/reports/v1/${inbox.id}?from=1970-01-01&to=2099-12-31`, {
    headers: { authorization: `Bearer ${inbox.key}` },
  });
  expect(response.status).toBe(200);
  const { dmarc, tls } = (await response.json()) as {
    dmarc: Omit<InboxCount['dmarc'], 'spfAligned' | 'dkimAligned'> & {
      spf_aligned: number;
      dkim_aligned: number;
    };
    tls: { reports: number; sessions: { success: number; failure: number } };
  };
  const { spf_aligned: spfAligned, dkim_aligned: dkimAligned, ...counted } = dmarc;
  return inboxCount(inbox.domain, { ...counted, spfAligned, dkimAligned }, tls);
}

/** How the inbox's reports came, as GET /received lists them. */
async function receivedVia(inbox: MadeInbox): Promise<string[]> {
  const response = await call(`/reports/v1/${inbox.id}/received?from=1970-01-01&to=2099-12-31`, {
    headers: { authorization: `Bearer ${inbox.key}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { reports: { via: string }[] }).reports.map((r) => r.via);
}

const receivedCount = async (inbox: MadeInbox) => (await receivedVia(inbox)).length;

/** Hands a message to the Worker's email() handler as Email Routing does; what it rejected. */
async function mail(
  to: string,
  bytes: Uint8Array,
  declaredSize = bytes.length,
): Promise<string | undefined> {
  let rejected: string | undefined;
  const message = {
    from: 'reports@receiver.example',
    to,
    headers: new Headers(),
    raw: new Response(bytes).body!,
    rawSize: declaredSize,
    setReject(reason: string) {
      rejected = reason;
    },
    forward: () => Promise.reject(new Error('the reports never forward')),
    reply: () => Promise.reject(new Error('the reports never reply')),
    canBeForwarded: false,
  };
  await worker.email(message as unknown as ForwardableEmailMessage, workerEnv);
  return rejected;
}

describe('reports by Email Routing on workerd', () => {
  let inboxes: Map<string, MadeInbox>;
  beforeAll(async () => {
    inboxes = await inboxesPerDomain();
  });

  it("takes parsedmarc's samples through email() and every inbox shows the hand count", async () => {
    for (const sample of doorSamples) {
      const inbox = inboxes.get(sample.domain)!;
      const message = sampleMessage(sample, await sampleBytes(sample), inbox.address);
      expect(await mail(inbox.address, message), sample.file).toBeUndefined();
    }
    for (const expected of inboxCounts) {
      expect(await countOf(inboxes.get(expected.domain)!)).toEqual(expected);
    }
    expect(new Set(await receivedVia(inboxes.get('example.com')!))).toEqual(new Set(['email']));
  });

  it.each(refusedSamples)('rejects $file, keeping nothing', async (sample) => {
    const inbox = inboxes.get(sample.domain)!;
    const before = await receivedCount(inbox);
    const message = sampleMessage(sample, await sampleBytes(sample), inbox.address);
    expect(await mail(inbox.address, message)).toMatch(/^invalid_report: /);
    expect(await receivedCount(inbox)).toBe(before);
  });

  it('rejects mail for no inbox, for an unverified inbox and about another domain', async () => {
    const sample = doorSamples.find((s) => s.domain === 'example.de')!;
    const bytes = await sampleBytes(sample);
    const unverified = await createInbox('unverified.example.net');
    const borschow = inboxes.get('borschow.com')!;
    const before = await receivedCount(borschow);
    const send = (to: string) => mail(to, sampleMessage(sample, bytes, to));
    expect(await send('dmarc+nosuchinbox@reports.example.org')).toMatch(
      /^unknown_recipient: dmarc\+nosuchinbox@reports\.example\.org is not a reports inbox here$/,
    );
    expect(await send(unverified.address)).toMatch(/^inbox_unverified: /);
    expect(await send(borschow.address)).toMatch(/^report_domain_mismatch: .*example\.de/);
    expect(await receivedCount(borschow)).toBe(before);
    expect(await receivedCount(unverified)).toBe(0);
  });

  it('rejects a message past REPORTS_MAX_BYTES, as declared or as it streams', async () => {
    const inbox = inboxes.get('example.com')!;
    const before = await receivedCount(inbox);
    const big = new TextEncoder().encode(`Subject: big\r\n\r\n${'X'.repeat(maxBytes + 1)}`);
    expect(await mail(inbox.address, big)).toMatch(/^report_too_large: /);
    // A size Email Routing understated: the stream is read no further than the bound.
    expect(await mail(inbox.address, big, 1000)).toMatch(/^report_too_large: /);
    expect(await receivedCount(inbox)).toBe(before);
  });
});

describe('reports uploaded on workerd', () => {
  it("takes parsedmarc's samples through the upload route and every inbox shows the hand count", async () => {
    const inboxes = await inboxesPerDomain();
    for (const sample of doorSamples) {
      const inbox = inboxes.get(sample.domain)!;
      const response = await call(`/reports/v1/${inbox.id}/upload`, {
        method: 'POST',
        headers: { 'content-type': sample.mediaType, authorization: `Bearer ${inbox.key}` },
        body: await sampleBytes(sample),
      });
      expect(response.status, sample.file).toBe(201);
    }
    for (const expected of inboxCounts) {
      expect(await countOf(inboxes.get(expected.domain)!)).toEqual(expected);
    }
    expect(new Set(await receivedVia(inboxes.get('example.com')!))).toEqual(new Set(['upload']));
  });
});

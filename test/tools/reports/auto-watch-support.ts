import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import type { Listings } from '../../../fixtures/dnsbl-world.js';
import type { ReceivedWebhook, WebhookReceiver } from '../../../fixtures/webhook-receiver.js';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import type { TestService } from '../../support/service.js';
import { aggregateXml, type CreatedInbox, gzipped, type Row, send, upload } from './support.js';

/**
 * What the auto-watch suites share (docs/reports.md, "Reports meet watches"): reports dated in the
 * window the service's clock reads, the inbox's auto-watch as GET …/auto-watch answers it, the
 * webhooks a receiver got, verified with Standard Webhooks' own verifier, and a wait on the
 * service's own timers.
 */

export const domain = 'autowatch-fixture.net';
const zoneList = await loadZoneList();
export const world = (listings: Listings = {}) => dnsblWorld(zoneList, listings);

const dayMs = 86_400_000;
/** The UTC date `days` before `at`. */
export const dateBefore = (at: number, days: number) =>
  new Date(at - days * dayMs).toISOString().slice(0, 10);

let reports = 0;

/** An aggregate report of `date`, gzipped as receivers mail them, uploaded into the inbox. */
export async function uploadRows(
  service: TestService,
  inbox: CreatedInbox,
  date: string,
  rows: Row[],
): Promise<void> {
  const xml = aggregateXml({ org: 'google.com', reportId: `aw-${++reports}`, domain, date, rows });
  const response = await upload(service, inbox, gzipped(xml), 'application/gzip');
  expect(response.status, await response.clone().text()).toBe(201);
}

export interface AutoWatchStatus {
  auto_watch: unknown;
  email: { address: string; state: string } | null;
  watches: { ip: string; watch_id: string; watch_url: string }[];
}

export async function autoWatchOf(
  service: TestService,
  inbox: CreatedInbox,
): Promise<AutoWatchStatus> {
  const response = await send(service, 'GET', `/reports/v1/${inbox.id}/auto-watch`, {
    key: inbox.key,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AutoWatchStatus;
}

/** The sources watched, by address. */
export const watchedIps = async (service: TestService, inbox: CreatedInbox) =>
  (await autoWatchOf(service, inbox)).watches.map((watch) => watch.ip).sort();

export async function patchAutoWatch(
  service: TestService,
  inbox: CreatedInbox,
  autoWatch: object | null,
): Promise<{ webhook_secret?: string; email_confirmed?: boolean }> {
  const response = await send(service, 'PATCH', `/reports/v1/${inbox.id}`, {
    key: inbox.key,
    body: { auto_watch: autoWatch },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { webhook_secret?: string };
}

/** Polls until `check` holds: the service's timers run the inboxes and the watches. */
export async function until(check: () => Promise<boolean> | boolean, what: string, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Delivered {
  request: ReceivedWebhook;
  event: { type: string; data: Record<string, unknown> & { watch?: { target: string } } };
}

/**
 * What the receiver got on `path`, each verified with `secret` as a receiver does it (the
 * signature over id, timestamp and body, and a timestamp within 5 minutes); one that does not
 * verify fails the test.
 */
export function deliveredTo(receiver: WebhookReceiver, path: string, secret: string): Delivered[] {
  return receiver.received
    .filter((request) => request.path === path)
    .map((request) => ({
      request,
      event: new Webhook(secret).verify(request.body, request.headers) as Delivered['event'],
    }));
}

export const failingOf = (delivered: Delivered[], ip: string) =>
  delivered.filter(
    ({ event }) => event.type === 'reports.source_failing' && event.data.source_ip === ip,
  );

export const listedOf = (delivered: Delivered[], ip: string) =>
  delivered.filter(({ event }) => event.type === 'watch.listed' && event.data.watch?.target === ip);

import type { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type DovecotServer,
  messagesPerFolder,
  startDovecotServer,
} from '../../../fixtures/dovecot-server.js';
import { issueCertificate } from '../../../fixtures/mail-world.js';
import { createLogger } from '../../../src/lib/index.js';
import { startMailDoors } from '../../../src/node/reports/mail-doors.js';
import { createMemoryStore } from '../../../src/store/index.js';
import {
  type ImapDoor,
  type ImapDoorOptions,
  startImapDoor,
} from '../../../src/node/reports/imap-door.js';
import {
  countOf,
  type DoorSample,
  doorSamples,
  inboxCounts,
  refusedSamples,
  sampleMessage,
} from '../../support/report-samples.js';
import { createDoorsWorld, type DoorsWorld, sampleBytes } from './doors-world.js';

/**
 * The IMAP door (src/node/reports/imap-door.ts) against a real Dovecot on 127.0.0.1 (one for the
 * file: fixtures/dovecot-server.ts), over TLS on a certificate of the run's test CA that imapflow
 * verifies (NODE_EXTRA_CA_CERTS). Messages are appended to its INBOX as a mail server would have
 * delivered them, Delivered-To naming the inbox's address; each poll is then asked for by the
 * test, so every assertion reads what one poll did.
 */

const maxBytes = 256 * 1024;
const logs: string[] = [];

let dovecot: DovecotServer;
let world: DoorsWorld;
let mail: ImapFlow;
const doors: ImapDoor[] = [];

/** A door of the world's intake on the Dovecot's INBOX, its timer far off: polls are asked for. */
async function startDoor(overrides: Partial<ImapDoorOptions> = {}): Promise<ImapDoor> {
  const door = startImapDoor({
    intake: world.intake,
    url: dovecot.url,
    intervalMs: 3_600_000,
    doneFolder: 'Processed',
    maxBytes,
    log: createLogger('debug', (line) => logs.push(line)),
    ...overrides,
  });
  doors.push(door);
  // The poll every door makes at start, over before the test appends anything.
  await door.poll();
  return door;
}

/** A sample as the mailbox holds it once delivered for `inbox`'s address. */
function delivered(sample: DoorSample, to: string): Uint8Array {
  const message = sampleMessage(sample, sampleBytes(sample), to);
  const header = new TextEncoder().encode(`Delivered-To: ${to}\r\n`);
  const bytes = new Uint8Array(header.length + message.length);
  bytes.set(header);
  bytes.set(message, header.length);
  return bytes;
}

async function append(...messages: Uint8Array[]): Promise<void> {
  for (const message of messages) await mail.append('INBOX', Buffer.from(message));
}

/** The messages in each folder. */
const folders = () => messagesPerFolder(mail);

beforeAll(async () => {
  const tls = await issueCertificate(inject('mailCa'), ['127.0.0.1']);
  dovecot = await startDovecotServer({ tls });
  world = await createDoorsWorld({ maxBytes, maxRecords: 100_000 });
  mail = await dovecot.client();
}, 30_000);

afterAll(async () => {
  for (const door of doors) await door.stop();
  await mail?.logout();
  await dovecot?.stop();
});

describe('the IMAP door', () => {
  it("takes parsedmarc's samples, moves them to Processed, and every inbox shows the hand count", async () => {
    const door = await startDoor();
    expect(await folders()).toMatchObject({ INBOX: 0, Processed: 0, Invalid: 0 });
    await append(
      ...doorSamples.map((sample) =>
        delivered(sample, world.addressOf(world.inboxes.get(sample.domain)!)),
      ),
    );
    expect(await door.poll()).toEqual({ taken: doorSamples.length, invalid: 0, left: 0 });
    expect(await folders()).toMatchObject({
      INBOX: 0,
      Processed: doorSamples.length,
      Invalid: 0,
    });
    for (const expected of inboxCounts) {
      expect(await countOf(world.store, world.inboxes.get(expected.domain)!)).toEqual(expected);
    }
  });

  it('routes by X-Original-To, To or Cc when no Delivered-To names an inbox', async () => {
    const door = await startDoor();
    const inbox = world.inboxes.get('twlnet.com')!;
    const sample = doorSamples.find((s) => s.domain === 'twlnet.com')!;
    const message = new TextDecoder('latin1').decode(sampleBytes(sample));
    const before = await folders();
    await append(
      new TextEncoder().encode(
        `Delivered-To: someone@elsewhere.example\r\nX-Original-To: ${world.addressOf(inbox)}\r\n${message}`,
      ),
    );
    expect(await door.poll()).toEqual({ taken: 1, invalid: 0, left: 0 });
    expect((await folders()).Processed).toBe(before.Processed! + 1);
    // The same report again: kept once.
    expect((await countOf(world.store, inbox)).dmarc.reports).toBe(1);
  });

  it.each(refusedSamples)('moves $file to Invalid and keeps nothing', async (sample) => {
    const door = await startDoor();
    const before = { folders: await folders(), kept: await world.keptReports() };
    await append(delivered(sample, world.addressOf(world.inboxes.get(sample.domain)!)));
    expect(await door.poll()).toEqual({ taken: 0, invalid: 1, left: 0 });
    expect((await folders()).Invalid).toBe(before.folders.Invalid! + 1);
    expect(await world.keptReports()).toBe(before.kept);
  });

  it('moves to Invalid a message for no inbox, for an unverified one, and a report of another domain', async () => {
    const door = await startDoor();
    const before = { folders: await folders(), kept: await world.keptReports() };
    const example = doorSamples.find((s) => s.domain === 'example.de')!;
    await append(
      delivered(example, 'someone@elsewhere.example'),
      delivered(example, world.addressOf(world.unverified)),
      delivered(example, world.addressOf(world.inboxes.get('borschow.com')!)),
    );
    expect(await door.poll()).toEqual({ taken: 0, invalid: 3, left: 0 });
    expect((await folders()).Invalid).toBe(before.folders.Invalid! + 3);
    expect(await world.keptReports()).toBe(before.kept);
    const refusals = logs
      .map((line) => JSON.parse(line) as { msg: string; code?: string })
      .filter((entry) => entry.msg === 'reports refused by imap')
      .slice(-3)
      .map((entry) => entry.code);
    expect(refusals).toEqual(['unknown_recipient', 'inbox_unverified', 'report_domain_mismatch']);
  });

  it('moves a message larger than REPORTS_MAX_BYTES to Invalid without reading it', async () => {
    const door = await startDoor();
    const before = await folders();
    const to = world.addressOf(world.inboxes.get('example.com')!);
    const line = `${'X'.repeat(998)}\r\n`;
    await append(
      new TextEncoder().encode(`Delivered-To: ${to}\r\n\r\n${line.repeat(maxBytes / 900)}`),
    );
    expect(await door.poll()).toEqual({ taken: 0, invalid: 1, left: 0 });
    expect((await folders()).Invalid).toBe(before.Invalid! + 1);
  });

  it('leaves a message in the folder while its reports cannot be kept, for the next poll', async () => {
    const failing = await createDoorsWorld({ maxBytes, maxRecords: 100_000 });
    const to = failing.addressOf(failing.inboxes.get('ab.id.au')!);
    await failing.store.close();
    const door = await startDoor({ intake: failing.intake });
    const sample = doorSamples.find((s) => s.domain === 'ab.id.au')!;
    await append(delivered(sample, to));
    expect(await door.poll()).toEqual({ taken: 0, invalid: 0, left: 1 });
    expect(await door.poll()).toEqual({ taken: 0, invalid: 0, left: 1 });
    expect((await folders()).INBOX).toBe(1);
    expect(
      logs.filter((line) => line.includes('"msg":"reports imap delivery failed"')),
    ).toHaveLength(2);
    await door.stop();
    await mail.messageDelete('1:*');
  });

  it('creates the done folder REPORTS_IMAP_DONE names', async () => {
    const door = await startDoor({ doneFolder: 'Reports taken' });
    expect(Object.keys(await folders())).toContain('Reports taken');
    const sample = doorSamples.find((s) => s.domain === 'indemed.com')!;
    await append(delivered(sample, world.addressOf(world.inboxes.get('indemed.com')!)));
    expect(await door.poll()).toEqual({ taken: 1, invalid: 0, left: 0 });
    expect((await folders())['Reports taken']).toBe(1);
  });

  it('lets one process of several poll in each interval, claimed in the store they share', async () => {
    const shared = createMemoryStore();
    const log = createLogger('debug', (line) => logs.push(line));
    const processes = await Promise.all(
      [1, 2, 3].map(() =>
        startMailDoors({
          intake: world.intake,
          log,
          maxBytes,
          imap: {
            url: dovecot.url,
            intervalMs: 3_600_000,
            doneFolder: 'Processed',
            sharedStore: shared,
            clock: () => new Date(),
          },
        }),
      ),
    );
    try {
      const polls = await Promise.all(processes.map((doors) => doors.imap!.poll()));
      expect(polls.filter((summary) => summary !== undefined)).toHaveLength(1);
    } finally {
      await Promise.all(processes.map((doors) => doors.stop()));
      await shared.close();
    }
  });

  it('runs one poll at a time', async () => {
    const door = await startDoor();
    const [first, second] = [door.poll(), door.poll()];
    expect(second).toBe(first);
    await first;
  });

  it('logs a poll that cannot log in, without its password, and goes on', async () => {
    const wrong = new URL(dovecot.url);
    wrong.password = 'not-the-password';
    // Dovecot answers each further failed login from an address 2 s later than the last: one
    // poll, the one the door makes at start.
    const door = startImapDoor({
      intake: world.intake,
      url: wrong.toString(),
      intervalMs: 3_600_000,
      doneFolder: 'Processed',
      maxBytes,
      log: createLogger('debug', (line) => logs.push(line)),
    });
    doors.push(door);
    expect(await door.poll()).toBeUndefined();
    const failure = logs.find((line) => line.includes('reports imap poll failed'))!;
    expect(failure).not.toContain('not-the-password');
    expect(JSON.parse(failure)).toMatchObject({
      level: 'error',
      mailbox: `imaps://127.0.0.1:${dovecot.port}/INBOX`,
      error: expect.stringMatching(/AUTHENTICATIONFAILED|Authentication failed/i),
    });
  });
});

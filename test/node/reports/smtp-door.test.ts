import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { issueCertificate } from '../../../fixtures/mail-world.js';
import { connectionClient, countClientConnections } from '../../../src/node/client-connections.js';
import { type SmtpDoor, startSmtpDoor } from '../../../src/node/reports/smtp-door.js';
import { createLogger } from '../../../src/lib/index.js';
import {
  countOf,
  doorSamples,
  inboxCounts,
  refusedSamples,
  sampleMessage,
} from '../../support/report-samples.js';
import { openSmtpSession } from '../../support/smtp-session.js';
import { createDoorsWorld, type DoorsWorld, sampleBytes } from './doors-world.js';

/**
 * The SMTP door (src/node/reports/smtp-door.ts) on 127.0.0.1 with STARTTLS on a certificate of the
 * run's test CA, which nodemailer, the sending MTA here, trusts through NODE_EXTRA_CA_CERTS and
 * verifies: parsedmarc's samples sent through it give the hand counts, and every refusal is a
 * 5xx reply with nothing kept.
 */

const mxName = 'mx.reports.example.org';
const maxBytes = 256 * 1024;
const logs: string[] = [];

let world: DoorsWorld;
let door: SmtpDoor;

async function startDoor(overrides: Partial<Parameters<typeof startSmtpDoor>[0]> = {}) {
  const tls = await issueCertificate(inject('mailCa'), [mxName]);
  return startSmtpDoor({
    intake: world.intake,
    host: '127.0.0.1',
    port: 0,
    name: 'reports.example.org',
    tls,
    maxBytes,
    maxConnections: 20,
    clients: countClientConnections(3),
    clientOf: connectionClient,
    idleTimeoutMs: 60_000,
    closeGraceMs: 1000,
    log: createLogger('debug', (line) => logs.push(line)),
    ...overrides,
  });
}

function transport(port = door.port) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    requireTLS: true,
    tls: { servername: mxName },
  });
}

/** Sends `message` to `to` as an MTA would: STARTTLS, the envelope, the bytes as they are. */
function send(to: string | string[], message: Uint8Array, port = door.port) {
  const sender = transport(port);
  return sender
    .sendMail({
      envelope: { from: 'reports@receiver.example', to },
      raw: Buffer.from(message),
    })
    .finally(() => sender.close());
}

beforeAll(async () => {
  world = await createDoorsWorld({ maxBytes, maxRecords: 100_000 });
  door = await startDoor();
});

afterAll(async () => {
  await door?.close();
});

describe('the SMTP door', () => {
  it("takes parsedmarc's samples over STARTTLS and every inbox shows the hand count", async () => {
    for (const sample of doorSamples) {
      const address = world.addressOf(world.inboxes.get(sample.domain)!);
      const info = await send(address, sampleMessage(sample, sampleBytes(sample), address));
      expect(info.response, sample.file).toMatch(/^250 2\.6\.0 1 report taken$/);
    }
    for (const expected of inboxCounts) {
      expect(await countOf(world.store, world.inboxes.get(expected.domain)!)).toEqual(expected);
    }
  });

  it('answers a report sent again 250, says it was kept already, and counts it once', async () => {
    const sample = doorSamples.find((s) => s.domain === 'twlnet.com')!;
    const inbox = world.inboxes.get('twlnet.com')!;
    const address = world.addressOf(inbox);
    const info = await send(address, sampleMessage(sample, sampleBytes(sample), address));
    expect(info.response).toBe('250 2.6.0 1 report taken, 1 of them already kept');
    expect((await countOf(world.store, inbox)).dmarc.messages).toBe(1);
  });

  it('refuses a recipient that is no inbox’s with 550 5.1.1, before the data', async () => {
    const before = await world.keptReports();
    const sample = doorSamples[5]!;
    for (const to of ['postmaster@reports.example.org', 'dmarc+unknownid@reports.example.org']) {
      await expect(send(to, sampleMessage(sample, sampleBytes(sample), to))).rejects.toMatchObject({
        responseCode: 550,
        response: expect.stringMatching(/^550 5\.1\.1 .* is not a reports inbox here$/),
      });
    }
    expect(await world.keptReports()).toBe(before);
  });

  it('refuses another domain’s address: nothing is relayed', async () => {
    const session = await openSmtpSession(door.port);
    await session.reply();
    await session.command('EHLO sender.example');
    expect((await session.command('MAIL FROM:<a@sender.example>')).code).toBe(250);
    const rcpt = await session.command('RCPT TO:<someone@elsewhere.example>');
    expect(rcpt.code).toBe(550);
    expect(rcpt.lines[0]).toMatch(/^5\.1\.1 /);
    expect((await session.command('DATA')).code).toBe(503);
    session.close();
  });

  it('refuses an unverified inbox’s address with 550 5.7.1', async () => {
    const to = world.addressOf(world.unverified);
    await expect(
      send(to, sampleMessage(doorSamples[5]!, sampleBytes(doorSamples[5]!), to)),
    ).rejects.toMatchObject({
      responseCode: 550,
      response: expect.stringMatching(/^550 5\.7\.1 unverified\.example\.net's DMARC/),
    });
  });

  it.each(refusedSamples)('refuses $file with 550 5.6.0 and keeps nothing', async (sample) => {
    const before = await world.keptReports();
    const to = world.addressOf(world.inboxes.get(sample.domain)!);
    await expect(send(to, sampleMessage(sample, sampleBytes(sample), to))).rejects.toMatchObject({
      responseCode: 550,
      response: expect.stringMatching(/^550 5\.6\.0 /),
    });
    expect(await world.keptReports()).toBe(before);
  });

  it('refuses a report about another domain with 550 5.7.1 and keeps nothing', async () => {
    const before = await world.keptReports();
    const sample = doorSamples.find((s) => s.domain === 'example.de')!;
    const to = world.addressOf(world.inboxes.get('borschow.com')!);
    await expect(send(to, sampleMessage(sample, sampleBytes(sample), to))).rejects.toMatchObject({
      responseCode: 550,
      response: expect.stringMatching(/^550 5\.7\.1 .*is about example\.de, not borschow\.com/),
    });
    expect(await world.keptReports()).toBe(before);
  });

  it('announces REPORTS_MAX_BYTES in SIZE, offers STARTTLS and no AUTH', async () => {
    const session = await openSmtpSession(door.port);
    expect((await session.reply()).lines[0]).toBe('reports.example.org ESMTP reports');
    const ehlo = await session.command('EHLO sender.example');
    expect(ehlo.lines).toContain(`SIZE ${maxBytes}`);
    expect(ehlo.lines).toContain('STARTTLS');
    expect(ehlo.lines.some((line) => line.startsWith('AUTH'))).toBe(false);
    session.close();
  });

  it('refuses a message declared larger than the bound at MAIL FROM, with 552', async () => {
    const session = await openSmtpSession(door.port);
    await session.reply();
    await session.command('EHLO sender.example');
    const mail = await session.command(`MAIL FROM:<a@sender.example> SIZE=${maxBytes + 1}`);
    expect(mail.code).toBe(552);
    session.close();
  });

  it('reads a message past the bound no further than the bound and answers 552 5.3.4', async () => {
    const before = await world.keptReports();
    const to = world.addressOf(world.inboxes.get('example.com')!);
    const padding = 'X'.repeat(998);
    const big = new TextEncoder().encode(
      `Subject: big\r\n\r\n${`${padding}\r\n`.repeat(Math.ceil((maxBytes * 2) / 1000))}`,
    );
    await expect(send(to, big)).rejects.toMatchObject({
      responseCode: 552,
      response: expect.stringMatching(/^552 5\.3\.4 the message is larger than 262144 bytes/),
    });
    expect(await world.keptReports()).toBe(before);
  });

  it('delivers one message to each inbox it names, and answers 250 when one took it', async () => {
    const sample = doorSamples.find((s) => s.domain === 'ab.id.au')!;
    const taker = world.addressOf(world.inboxes.get('ab.id.au')!);
    const refuser = world.addressOf(world.inboxes.get('example.de')!);
    const info = await send([refuser, taker], sampleMessage(sample, sampleBytes(sample), taker));
    expect(info.accepted).toEqual([refuser, taker]);
    expect(info.response).toMatch(/^250 2\.6\.0 1 report taken/);
    expect((await countOf(world.store, world.inboxes.get('example.de')!)).dmarc.reports).toBe(1);
  });
});

describe('the SMTP door’s connections', () => {
  it('tells a client past its share of connections 421 4.7.0 and closes', async () => {
    const held = await Promise.all([1, 2, 3].map(() => openSmtpSession(door.port)));
    for (const session of held) expect((await session.reply()).code).toBe(220);
    const refused = await openSmtpSession(door.port);
    const reply = await refused.reply();
    expect(reply).toEqual({
      code: 421,
      lines: ['4.7.0 too many connections from your address; try again later'],
    });
    await refused.closed;
    held[0]!.close();
    await held[0]!.closed;
    // A connection closed gives its place back.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await openSmtpSession(door.port);
    expect((await again.reply()).code).toBe(220);
    for (const session of [...held, again]) session.close();
  });

  it('closes a client that says nothing for its idle time', async () => {
    const quick = await startDoor({ idleTimeoutMs: 300 });
    try {
      const session = await openSmtpSession(quick.port);
      await session.reply();
      const reply = await session.reply();
      expect(reply.code).toBe(421);
      await session.closed;
    } finally {
      await quick.close();
    }
  });

  it('answers 451 4.3.0 when the store fails, so the sender tries again', async () => {
    const failing = await createDoorsWorld({ maxBytes, maxRecords: 100_000 });
    const to = failing.addressOf(failing.inboxes.get('ab.id.au')!);
    await failing.store.close();
    const broken = await startDoor({ intake: failing.intake });
    try {
      const sample = doorSamples.find((s) => s.domain === 'ab.id.au')!;
      await expect(
        send(to, sampleMessage(sample, sampleBytes(sample), to), broken.port),
      ).rejects.toMatchObject({
        responseCode: 451,
        response: expect.stringMatching(/^451 4\.3\.0 /),
      });
    } finally {
      await broken.close();
    }
  });

  it('stops listening when closed, telling a session still open 421', async () => {
    const closing = await startDoor({ closeGraceMs: 200 });
    const session = await openSmtpSession(closing.port);
    await session.reply();
    await closing.close();
    expect((await session.reply()).code).toBe(421);
    await expect(openSmtpSession(closing.port)).rejects.toThrow(/ECONNREFUSED/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeProbes } from '../../../src/node/probes/index.js';
import {
  destinationBound,
  destinationBounds,
  type MailProbes,
  serviceProbes,
  type SmtpProber,
} from '../../../src/reputation/mail/index.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { parseAddressRanges } from '../../../src/lib/index.js';
import { freePort } from '../../../fixtures/free-port.js';
import { type SmtpWorldServer, startSmtpServer } from '../../../fixtures/mail-world.js';

/**
 * A watch's re-check past a destination's bound (docs/mail.md, "Bounds and safety"), with the Node
 * probes against a real SMTP server: it probes afresh while the bound allows, and once the
 * address's bound is reached the host's kept probe answers; a host never probed reads
 * `not_probed` for the destination's bound.
 */

let server: SmtpWorldServer;
let probes: MailProbes;
beforeAll(async () => {
  const port = await freePort();
  server = await startSmtpServer({ host: '127.0.0.2', port });
  probes = createNodeProbes({
    allowNetworks: parseAddressRanges(['127.0.0.0/8']).ranges,
    timeoutMs: 3000,
    smtpPort: port,
    httpsPort: port,
    publicUrl: undefined,
    tlsaServers: [],
    dnsTimeoutMs: 1000,
  });
});
afterAll(() => server.close());

const probe = (smtp: MailProbes['smtp'], host: string) =>
  (smtp as SmtpProber).probe({
    host,
    address: '127.0.0.2',
    operator: true,
    signal: new AbortController().signal,
  });

describe('a watch’s probes past a destination’s bound', () => {
  it('probes afresh up to the bound, then answers from the probe cache, and leaves a host never probed unprobed', async () => {
    const fleet = {
      store: createMemoryStore(),
      idOf: async (subject: string) => subject,
      randomBytes: (length: number) => crypto.getRandomValues(new Uint8Array(length)),
    };
    const { fresh } = serviceProbes(probes, fleet, Date.now);
    for (let i = 0; i < destinationBounds.perAddress; i++) {
      expect(await probe(fresh.smtp, 'mx.watched.example')).toMatchObject({
        status: 'no_starttls',
      });
    }
    expect(server.sessions()).toBe(destinationBounds.perAddress);
    const kept = await probe(fresh.smtp, 'mx.watched.example');
    expect(kept).toMatchObject({ status: 'no_starttls', address: '127.0.0.2' });
    const never = await probe(fresh.smtp, 'mx.other.example');
    expect(never).toMatchObject({
      status: 'not_probed',
      detail: expect.stringContaining(destinationBound),
    });
    expect(server.sessions()).toBe(destinationBounds.perAddress);
  }, 60_000);
});

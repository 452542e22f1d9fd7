import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureZone } from '../../../fixtures/dns-server.js';
import {
  expectError,
  postError,
  startTestService,
  type TestService,
} from '../../support/service.js';

/**
 * The mail tool while no blocklist is proven (an offline start: a resolver that answers every
 * name NXDOMAIN, the lists' test entries too): its records and probes need no list, so it checks,
 * and its note says why the sender addresses' listings are missing; the list tools answer 503.
 */

const world: FixtureZone[] = [
  {
    origin: 'net',
    records: {
      'solid.net': {
        TXT: ['v=spf1 ip4:185.44.0.10 -all'],
        MX: [{ exchange: 'mx.solid.net', priority: 10 }],
      },
      'mx.solid.net': { A: ['185.44.0.25'] },
      '_dmarc.solid.net': { TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@solid.net'] },
    },
  },
];

let service: TestService;
beforeAll(async () => {
  // No blocklist's zone in the world: every test entry is NXDOMAIN, so none is proven.
  service = await startTestService({ world });
});
afterAll(() => service.close());

interface MailAnswer {
  dmarc: { policy: string };
  spf: { record: string | null };
  notes: string[];
  requirements: { gmail: { rules: { rule: string; status: string; detail: string }[] } };
  dailyRemaining: number;
}

describe('POST /mail/v1 while no blocklist is proven', () => {
  it('checks the domain’s own records, says why the listings are missing, and takes its unit', async () => {
    const status = (await (await service.get('/mail/v1/status')).json()) as {
      configured: boolean;
      dailyRemaining: number;
    };
    expect(status.configured).toBe(false);
    const response = await service.post('/mail/v1', { domain: 'solid.net' });
    expect(response.status, await response.clone().text()).toBe(200);
    const answer = (await response.json()) as MailAnswer;
    expect(answer.dmarc.policy).toBe('reject');
    expect(answer.spf.record).toBe('v=spf1 ip4:185.44.0.10 -all');
    expect(answer.notes).toContainEqual(
      expect.stringMatching(
        /^No blocklist was asked about the sender addresses: the blocklists are not ready \(.*DNS_SERVERS.*\)\.$/,
      ),
    );
    // The providers' listing rule: unknown, not passed, since no list was asked.
    expect(answer.requirements.gmail.rules.find((rule) => rule.rule === 'listing')).toMatchObject({
      status: 'unknown',
    });
    expect(answer.dailyRemaining).toBe(status.dailyRemaining - 1);
  });

  it('leaves the list tools refusing with 503 not_configured', async () => {
    await expectError(
      await service.post('/ip/v1', { target: '185.44.0.10' }),
      503,
      postError('not_configured'),
    );
    await expectError(
      await service.post('/domain/v1', { domain: 'solid.net' }),
      503,
      postError('not_configured'),
    );
  });
});

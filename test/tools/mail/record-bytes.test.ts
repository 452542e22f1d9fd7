import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainCheckResult, MailCheckResult } from '../../../src/reputation/results/index.js';
import { type TestService, startTestService } from '../../support/service.js';

/**
 * TXT records reach their parsers as the DNS server sent them, and the results show them cleaned
 * (docs/http-hardening.md, "One rule for text from DNS"): a DMARC record whose white space is
 * tabs is read as the receivers read it, by both tools, and shown with each tab a visible U+FFFD.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    zones: [
      {
        origin: 'tabbed.net',
        records: {
          'tabbed.net': { TXT: ['v=spf1 ip4:185.80.0.2 -all'] },
          '_dmarc.tabbed.net': { TXT: ['v=DMARC1;\tp=reject;\trua=mailto:d@tabbed.net'] },
        },
      },
    ],
    env: { SMTP_TIMEOUT_MS: '1000', CHECK_DEADLINE_MS: '3000' },
  });
});
afterAll(() => service?.close());

describe('a TXT record with tabs', () => {
  it.each(['/domain/v1', '/mail/v1'])(
    'is read as the receivers read it and shown cleaned, through %s',
    async (path) => {
      const response = await service.post(path, { domain: 'tabbed.net' });
      expect(response.status).toBe(200);
      const { dmarc } = (await response.json()) as DomainCheckResult | MailCheckResult;
      expect(dmarc).toMatchObject({
        status: 'found',
        policy: 'reject',
        record: 'v=DMARC1;\ufffdp=reject;\ufffdrua=mailto:d@tabbed.net',
        errors: [],
      });
    },
  );
});

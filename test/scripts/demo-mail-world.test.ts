import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { MailCheckResult } from '../../src/reputation/results/index.js';
import { demoMail, demoNames } from '../../scripts/demo-world.js';
import { startDemoMailService } from '../support/demo-mail-service.js';
import type { TestService } from '../support/service.js';

/**
 * The demo's mail world as `npm run demo` serves it (scripts/demo-world.ts, scripts/demo-mail.ts:
 * its MX servers on 127.0.0.2 and 127.0.0.3, its MTA-STS policy on 127.0.0.4, on the run's test
 * CA), checked through the real app: each domain reads as what it is.
 */

let service: TestService;

beforeAll(async () => {
  service = await startDemoMailService(inject('mailCa'));
}, 60_000);
afterAll(() => service?.close());

async function mail(domain: string): Promise<MailCheckResult> {
  const response = await service.post('/mail/v1', { domain });
  expect(response.status).toBe(200);
  return (await response.json()) as MailCheckResult;
}

describe('the demo’s mail domains', () => {
  it('reads demo-mail.net as every provider met but for what cannot be seen, and the backup MX’s missing STARTTLS a finding of its own with its fix', async () => {
    const result = await mail(demoMail.domain);
    expect(
      (['gmail', 'yahoo', 'microsoft'] as const).map((provider) => [
        result.requirements[provider].verdict,
        result.requirements[provider].unseen,
      ]),
    ).toEqual([
      ['pass', 4],
      ['pass', 3],
      ['pass', 1],
    ]);
    expect(result.inbound_tls).toMatchObject({ status: 'fail', required: false });
    expect(result.inbound_tls.detail).toContain(demoMail.mxPlain.host);
    expect(result.fixes[0]).toMatchObject({
      code: 'inbound_starttls',
      subject: demoMail.mxPlain.host,
    });
    expect(result.mail_score).toMatchObject({ score: 90, verdict: 'good' });
  });

  it('says spammy-demo.net is on Spamhaus DBL and URIBL, and holds its verdict for it', async () => {
    const result = await mail(demoNames.listedDomain);
    const listed = result.domain_lists.lists
      .filter((list) => list.status === 'listed')
      .map((list) => list.zone);
    expect(listed).toEqual(expect.arrayContaining(['dbl.spamhaus.org', 'multi.uribl.com']));
    expect(result.mail_score.verdict).toBe('poor');
    expect(result.mail_score.factors.map((factor) => factor.code)).toContain('domain_listed');
    expect(result.fixes.map((fix) => fix.code)).toContain('delist_domain');
  });

  it('answers a name that does not exist as the domain tool does', async () => {
    const name = `nope.${demoMail.domain}`;
    const [byMail, byDomain] = await Promise.all([
      service.post('/mail/v1', { domain: name }),
      service.post('/domain/v1', { domain: name }),
    ]);
    expect(byMail.status).toBe(400);
    const [mailBody, domainBody] = (await Promise.all([byMail.json(), byDomain.json()])) as {
      code: string;
      error: string;
    }[];
    expect(mailBody).toMatchObject({ code: 'invalid_target', error: domainBody!.error });
    expect(domainBody).toMatchObject({ code: 'invalid_target' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorAnswer, QuotaStatus } from '../support/responses.js';
import { type TestService, startTestService } from '../support/service.js';

/**
 * Refunds only for work not done (docs/results.md#refunds): a check that sent
 * list queries keeps its unit, one that asked no list gets it back at most REFUNDS_PER_DAY times
 * a day per caller.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    // Every look-up of this domain's own records fails; the lists answer as usual.
    zones: [{ origin: 'broken-sender.net', behaviour: 'servfail' }],
    env: { REFUNDS_PER_DAY: '2', DAILY_LIMIT: '50' },
  });
});
afterAll(() => service.close());

async function remaining(tool: 'ip' | 'domain'): Promise<number> {
  const status = (await (await service.get(`/${tool}/v1/status`)).json()) as QuotaStatus;
  return status.dailyRemaining;
}

async function failedCheck(tool: 'ip' | 'domain', body: object): Promise<ErrorAnswer> {
  const response = await service.post(`/${tool}/v1`, body);
  expect(response.status).toBe(503);
  const answer = (await response.json()) as ErrorAnswer;
  expect(answer.code).toBe('dns_unavailable');
  return answer;
}

describe('a failed check', () => {
  it('is charged when it asked the domain lists, however often it fails', async () => {
    const before = await remaining('domain');
    const asked = () =>
      service.dns.queries.filter((query) => query.name.endsWith('.dbl.spamhaus.org')).length;
    const askedBefore = asked();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const answer = await failedCheck('domain', { domain: 'broken-sender.net' });
      // The error's own quota fields count the charge.
      expect(answer.dailyRemaining).toBe(before - attempt);
    }
    expect(await remaining('domain')).toBe(before - 3);
    expect(asked()).toBeGreaterThan(askedBefore);
  });

  it('that asked no list gets its unit back REFUNDS_PER_DAY times a day, then is charged', async () => {
    const before = await remaining('ip');
    // The IP tool's host name does not resolve: no address, so no list was asked about it.
    await failedCheck('ip', { target: 'broken-sender.net' });
    await failedCheck('ip', { target: 'broken-sender.net' });
    expect(await remaining('ip')).toBe(before);
    const third = await failedCheck('ip', { target: 'broken-sender.net' });
    expect(third.dailyRemaining).toBe(before - 1);
    expect(await remaining('ip')).toBe(before - 1);
    expect(service.logs.some((line) => line.includes('refunds used up'))).toBe(true);
  });
});

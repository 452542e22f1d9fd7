import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadZoneList } from '../../../src/reputation/lists/zones.js';
import { providerRequirements } from '../../../src/reputation/mail/provider-requirements.js';
import { demoAddresses, demoWorld } from '../../../scripts/demo-world.js';
import { type TestService, startTestService } from '../../support/service.js';
import type { IpCheckAnswer } from '../../support/responses.js';

/**
 * The mail requirements' `ptr` and `listing` rules judge the IP tool's verdict, end to end over
 * HTTP in the demo world (docs/score.md#what-receivers-require): `192.0.3.30` has no PTR record and
 * is on Spamhaus PBL (an end-user address), so it is not a good sender, and the share page's
 * "What to do next" says to set a PTR that confirms forward and to send through the provider's
 * relay, citing the providers' pages, in English and Russian.
 */

let service: TestService;
let token: string;
let answer: IpCheckAnswer;

beforeAll(async () => {
  service = await startTestService({ world: demoWorld(await loadZoneList()) });
  const response = await service.post('/ip/v1', { target: demoAddresses.dynamic });
  expect(response.status).toBe(200);
  answer = (await response.json()) as IpCheckAnswer;
  token = answer.token;
});
afterAll(() => service.close());

/** The share page's "What to do next" list, as text with its links' targets. */
async function nextSteps(lang: 'en' | 'ru'): Promise<string> {
  const page = await (await service.get(`/ip/v1/share/${token}?lang=${lang}`)).text();
  const steps = /<ul class="next-steps">([\s\S]*?)<\/ul>/.exec(page);
  expect(steps, 'the page has next steps').not.toBeNull();
  return steps![1]!;
}

describe('an address without PTR, on Spamhaus PBL (the demo world’s 192.0.3.30)', () => {
  it('is not rated good: fair, its score held under 80 by a factor that says why', () => {
    const score = answer.ip_score;
    expect(score.rdns.fcrdns).toBe('none');
    expect(score.verdict).toBe('fair');
    expect(score.score).toBe(79);
    const held = score.factors.find((factor) => factor.kind === 'requirement');
    expect(held?.detail).toBe(
      'held under 80, not a good mail sender: no PTR record; policy listing on Spamhaus ZEN',
    );
    // The factors still add up to the score.
    expect(score.factors.reduce((sum, factor) => sum + factor.points, 100)).toBe(score.score);
  });

  it('carries the PBL listing as a policy listing', () => {
    const zen = answer.ip_score.lists.find((list) => list.zone === 'zen.spamhaus.org');
    expect(zen?.listings).toEqual([
      expect.objectContaining({ code: '127.0.0.10', severity: 'info', policy: true }),
    ]);
  });

  it('says in English to set a forward-confirmed PTR and to send through the relay, citing the providers', async () => {
    const steps = await nextSteps('en');
    expect(steps).toContain('192.0.3.30 has no PTR record');
    expect(steps).toContain('points back to 192.0.3.30');
    // Each provider that requires it, linked to the page that says so (Microsoft: its postmaster
    // policies, where valid reverse DNS is a must).
    expect(steps).toContain('Gmail, Yahoo and Microsoft refuse or junk mail');
    for (const provider of ['gmail', 'yahoo', 'microsoft'] as const) {
      const ptr = providerRequirements[provider].rules.find((rule) => rule.rule === 'ptr');
      expect(steps).toContain(`href="${ptr?.source.url}"`);
    }
    expect(steps).toContain('Spamhaus ZEN lists 192.0.3.30 as an address that should not send');
    expect(steps).toContain('a policy listing, not a spam report');
    expect(steps).toContain('through your provider’s relay');
    // Not read as spam: no "see why it is listed, then ask for removal".
    expect(steps).not.toContain('Listed on Spamhaus ZEN');
  });

  it('says the same in Russian', async () => {
    const steps = await nextSteps('ru');
    expect(steps).toContain('У 192.0.3.30 нет записи PTR');
    expect(steps).toContain('Gmail, Yahoo и Microsoft отклоняют');
    expect(steps).toContain(`href="${providerRequirements.gmail.source.url}"`);
    expect(steps).toContain('политика, а не жалоба на спам');
    expect(steps).toContain('через сервер-релей провайдера');
    expect(steps).not.toContain('Внесён в Spamhaus ZEN');
  });

  it('shows the hold among the score factors in both languages', async () => {
    const en = await (await service.get(`/ip/v1/share/${token}?lang=en`)).text();
    expect(en).toContain('Mail requirements');
    expect(en).toContain(
      'held under 80, not a good mail sender: no PTR record; policy listing on Spamhaus ZEN',
    );
    const ru = await (await service.get(`/ip/v1/share/${token}?lang=ru`)).text();
    expect(ru).toContain('Требования почтовых служб');
    expect(ru).toContain('не выше 80');
    expect(ru).toContain('запись политики в Spamhaus ZEN');
  });
});

describe('the demo world’s other addresses', () => {
  it('keeps a forward-confirmed, unlisted address good', async () => {
    const response = await service.post('/ip/v1', { target: demoAddresses.clean });
    const clean = (await response.json()) as IpCheckAnswer;
    expect(clean.ip_score.verdict).toBe('good');
    expect(clean.ip_score.factors.some((factor) => factor.kind === 'requirement')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/index.js';
import { nextStepsSection } from '../../src/pages/next-steps.js';
import { providerRequirements } from '../../src/reputation/mail/provider-requirements.js';
import type { ShareListing } from '../../src/share/summary.js';
import { summaryFor } from '../share/fixtures.js';

/**
 * "What to do next" follows the mail requirements' rules (docs/score.md#what-receivers-require):
 * a PTR step for no PTR or one not confirmed forward, citing the providers that require it; a
 * policy listing's step says "send through the relay", a spam listing's "see why, ask for removal".
 */

const en = translator('en');
const ru = translator('ru');
const text = (section: unknown) => String(section);

const pbl: ShareListing = {
  list: 'Spamhaus ZEN',
  detail: 'PBL (ISP): end-user address that should not send mail directly',
  severity: 'info',
  steps: [
    {
      list: 'Spamhaus ZEN',
      lookupUrl: 'https://check.spamhaus.org/listed/?searchterm=203.0.113.7',
      delistUrl: 'https://check.spamhaus.org/',
      policy: true,
    },
  ],
};
const spam: ShareListing = {
  list: 'SpamCop Blocking List',
  detail: 'listed',
  severity: 'major',
  steps: [{ list: 'SpamCop Blocking List', lookupUrl: 'https://www.spamcop.net/bl.shtml' }],
};

describe('the ptr step', () => {
  it('says to set a PTR when there is none, citing Gmail and Yahoo (the providers that require it)', async () => {
    const summary = summaryFor('ip', { listings: [], rdns: { ptr: '', fcrdns: 'none' } });
    const section = text(await nextStepsSection(summary, en));
    expect(section).toContain('203.0.113.7 has no PTR record');
    expect(section).toContain(`<a href="${providerRequirements.gmail.source.url}"`);
    expect(section).toContain(`<a href="${providerRequirements.yahoo.source.url}"`);
    expect(section).not.toContain(providerRequirements.microsoft.source.url);
  });

  it('says to make the PTR confirm forward when it does not, in Russian too', async () => {
    const rdns = { ptr: 'host-7.dsl.example', fcrdns: 'fail' as const, ip: '203.0.113.7' };
    const summary = summaryFor('ip', { listings: [], rdns });
    expect(text(await nextStepsSection(summary, en))).toContain(
      '203.0.113.7’s PTR name host-7.dsl.example does not resolve back to it',
    );
    expect(text(await nextStepsSection(summary, ru))).toContain(
      'Имя PTR адреса 203.0.113.7 — host-7.dsl.example — не указывает обратно на него',
    );
  });

  it('is absent for a forward-confirmed PTR and for reverse DNS that did not answer', async () => {
    for (const fcrdns of ['pass', 'error'] as const) {
      const summary = summaryFor('ip', { listings: [], rdns: { ptr: 'x.example', fcrdns } });
      expect(nextStepsSection(summary, en)).toBe('');
    }
  });
});

describe('a policy listing against a spam listing', () => {
  it('reads the policy listing as “send through the relay”, the spam one as a listing', async () => {
    const summary = summaryFor('ip', { listings: [spam, pbl] });
    const section = text(await nextStepsSection(summary, en));
    expect(section).toContain('Listed on SpamCop Blocking List: see why');
    expect(section).toContain(
      'Spamhaus ZEN lists 203.0.113.7 as an address that should not send mail directly (a policy listing, not a spam report)',
    );
    expect(section).not.toContain('Listed on Spamhaus ZEN');
    // The note that an informational entry is no block does not stand beside a policy listing.
    expect(section).not.toContain('class="note"');
  });

  it('names the address of a domain’s sender row on a policy list', async () => {
    const row: ShareListing = {
      ...pbl,
      list: 'Sender IP 192.0.3.30',
      address: { ip: '192.0.3.30', sender: true, lists: ['Spamhaus ZEN'] },
    };
    const summary = summaryFor('domain', { listings: [row] });
    const section = text(await nextStepsSection(summary, ru));
    expect(section).toContain('Spamhaus ZEN числит 192.0.3.30 адресом');
    expect(section).toContain('через сервер-релей провайдера');
  });
});

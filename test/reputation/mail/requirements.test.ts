import { describe, expect, it } from 'vitest';
import {
  bundledSelectorTable,
  selectorsToTry,
} from '../../../src/reputation/mail/dkim-selectors.js';
import { providerRequirements } from '../../../src/reputation/mail/provider-requirements.js';
import {
  judgeRequirements,
  listingFinding,
  ptrFinding,
  type SampledSender,
  verdictOf,
  type Finding,
} from '../../../src/reputation/mail/requirement-rules.js';
import type { AddressSummary } from '../../../src/reputation/results/index.js';
import {
  mailProviders,
  requirementRuleIds,
  requirementsSchema,
} from '../../../src/reputation/results/index.js';

describe('a provider’s verdict', () => {
  it.each([
    [
      'every visible rule passes, unknown ones shown',
      [
        ['pass', true],
        ['unknown', true],
      ],
      'pass',
    ],
    [
      'a required rule fails',
      [
        ['pass', true],
        ['fail', true],
      ],
      'fail',
    ],
    [
      'an advised rule fails',
      [
        ['pass', true],
        ['fail', false],
      ],
      'warn',
    ],
    [
      'a required rule warns',
      [
        ['warn', true],
        ['unknown', true],
      ],
      'warn',
    ],
    ['only unknown rules', [['unknown', true]], 'pass'],
    [
      'rules ready in DNS beside passing ones',
      [
        ['ready', true],
        ['pass', true],
      ],
      'pass',
    ],
  ] as const)('%s: %s', (_case, rules, verdict) => {
    expect(verdictOf(rules.map(([status, required]) => ({ status, required })))).toBe(verdict);
  });
});

describe('the providers’ requirements table', () => {
  it('gives every provider spf, dkim, dmarc, alignment and ptr, each rule with the https page that states it', () => {
    for (const provider of mailProviders) {
      const table = providerRequirements[provider];
      const rules = table.rules.map((rule) => rule.rule);
      expect(rules).toEqual(expect.arrayContaining(['spf', 'dkim', 'dmarc', 'alignment', 'ptr']));
      for (const rule of table.rules) expect(rule.source.url).toMatch(/^https:\/\//);
      expect(table.source.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('cites Microsoft’s postmaster policies, where the page says must, for reverse DNS and RFC 5321/5322 compliance', () => {
    const rules = providerRequirements.microsoft.rules;
    for (const rule of ['ptr', 'message_format'] as const) {
      expect(rules.find((each) => each.rule === rule)).toMatchObject({
        required: true,
        source: { url: 'https://sendersupport.olc.protection.outlook.com/pm/policies.aspx' },
      });
    }
  });

  it('lists no rule a provider’s pages do not state: Yahoo and Microsoft name neither TLS nor blocklists', () => {
    for (const provider of ['yahoo', 'microsoft'] as const) {
      const rules = providerRequirements[provider].rules.map((rule) => rule.rule);
      expect(rules).not.toContain('tls');
      expect(rules).not.toContain('listing');
    }
    expect(providerRequirements.gmail.rules.find((rule) => rule.rule === 'tls')).toMatchObject({
      required: true,
    });
  });

  it('names no volume for Yahoo, and no provider requires inbound_tls', () => {
    const findings = Object.fromEntries(
      requirementRuleIds.map((rule): [string, Finding] => [rule, { status: 'pass', detail: '' }]),
    ) as Record<(typeof requirementRuleIds)[number], Finding>;
    const judged = judgeRequirements(findings);
    expect(judged.scope).toMatch(/Yahoo’s for bulk senders \(Yahoo names no volume\)/);
    for (const provider of mailProviders) {
      expect(judged[provider].rules.map((rule) => rule.rule)).not.toContain('inbound_tls');
    }
  });

  it('keeps unknown rules out of the verdict, never reports them as pass, and counts the required ones as unseen', () => {
    const findings = Object.fromEntries(
      requirementRuleIds.map((rule): [string, Finding] => [
        rule,
        { status: 'pass', detail: 'seen' },
      ]),
    ) as Record<(typeof requirementRuleIds)[number], Finding>;
    for (const unseen of ['spam_rate', 'one_click_unsubscribe', 'message_format', 'tls'] as const) {
      findings[unseen] = { status: 'unknown', detail: 'not visible' };
    }
    findings.dkim = { status: 'ready', detail: 'a key is published' };
    findings.alignment = { status: 'ready', detail: 'signatures would align' };
    const requirements = requirementsSchema.parse(judgeRequirements(findings));
    expect(requirements.gmail).toMatchObject({ verdict: 'pass', unseen: 4 });
    expect(requirements.yahoo).toMatchObject({ verdict: 'pass', unseen: 3 });
    expect(requirements.microsoft).toMatchObject({ verdict: 'pass', unseen: 1 });
    expect(requirements.gmail.rules.find((rule) => rule.rule === 'spam_rate')).toMatchObject({
      status: 'unknown',
    });
    findings.ptr = { status: 'fail', detail: 'no PTR' };
    const judged = judgeRequirements(findings);
    // Every provider asks valid reverse DNS of the sending addresses.
    expect([judged.gmail.verdict, judged.yahoo.verdict, judged.microsoft.verdict]).toEqual([
      'fail',
      'fail',
      'fail',
    ]);
  });
});

describe('the DKIM selectors tried', () => {
  const table = bundledSelectorTable();

  it('tries the caller’s first, then the providers the MX and SPF includes show, then the table', () => {
    const tried = selectorsToTry(table, {
      caller: ['Custom2024'],
      mxHosts: ['example-net.mail.protection.outlook.com'],
      spfDomains: ['example.net', 'sendgrid.net'],
    });
    expect(tried.slice(0, 5)).toEqual([
      { selector: 'custom2024', source: 'caller' },
      { selector: 'selector1', source: 'mx:example-net.mail.protection.outlook.com' },
      { selector: 'selector2', source: 'mx:example-net.mail.protection.outlook.com' },
      { selector: 's1', source: 'spf:sendgrid.net' },
      { selector: 's2', source: 'spf:sendgrid.net' },
    ]);
    expect(tried).toContainEqual({ selector: 'google', source: 'Google Workspace' });
    expect(new Set(tried.map((each) => each.selector)).size).toBe(tried.length);
  });

  it('has a source page for every provider of the table', () => {
    for (const provider of table.providers) expect(provider.source).toMatch(/^https:\/\//);
  });
});

describe('the ptr and listing rules read an address as the IP check does', () => {
  const listing = (
    ip: string,
    listings: AddressSummary['listings'],
    verdict: AddressSummary['verdict'],
  ): AddressSummary =>
    ({
      ip,
      score: 79,
      verdict,
      confidence: 'high',
      listed: listings.length,
      answered: 20,
      listings,
      unanswered: [],
    }) as unknown as AddressSummary;
  const pbl = {
    zone: 'zen.spamhaus.org',
    name: 'Spamhaus ZEN',
    severity: 'info' as const,
    detail: 'PBL (ISP): end-user address that should not send mail directly',
    policy: true as const,
  };
  const psbl = { zone: 'psbl.surriel.com', name: 'PSBL', severity: 'minor' as const, detail: '' };
  const rdns = (fcrdns: 'pass' | 'none' | 'fail') =>
    ({ ptr: '', names: [], fcrdns }) as unknown as SampledSender['rdns'];

  it('fails a policy-listed sender in words of its own, not as spam', () => {
    const finding = listingFinding(
      [{ ip: '192.0.3.30', rdns: rdns('pass'), listing: listing('192.0.3.30', [pbl], 'fair') }],
      1,
    );
    expect(finding.status).toBe('fail');
    expect(finding.detail).toMatch(
      /^on a policy list, an address that should send through its provider’s relay, not directly: 192\.0\.3\.30 \(Spamhaus ZEN\)/,
    );
  });

  it('warns of a minor spam listing as before', () => {
    const finding = listingFinding(
      [{ ip: '192.0.3.40', rdns: rdns('pass'), listing: listing('192.0.3.40', [psbl], 'fair') }],
      1,
    );
    expect(finding).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^on a minor list/),
    });
  });

  it('fails no PTR and an unconfirmed PTR, as the IP verdict does', () => {
    const clean = listing('192.0.3.30', [], 'good');
    expect(
      ptrFinding([{ ip: '192.0.3.30', rdns: rdns('none'), listing: clean }], 1).detail,
    ).toMatch(/^no PTR record for 192\.0\.3\.30/);
    expect(
      ptrFinding([{ ip: '192.0.3.30', rdns: rdns('fail'), listing: clean }], 1).detail,
    ).toMatch(/^PTR not confirmed forward \(FCrDNS\) for 192\.0\.3\.30/);
  });
});

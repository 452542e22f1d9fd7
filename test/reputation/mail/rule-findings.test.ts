import { describe, expect, it } from 'vitest';
import { readDmarcRecord } from '../../../src/reputation/checks/dmarc-record.js';
import { fixesOf, type FixFacts } from '../../../src/reputation/mail/fixes.js';
import { mailScoreOf, type ScoredParts } from '../../../src/reputation/mail/mail-score.js';
import {
  alignmentFinding,
  dkimFinding,
  dmarcFinding,
  type Finding,
  findingsOf,
  judgeRequirements,
  type MailFacts,
} from '../../../src/reputation/mail/requirement-rules.js';
import { inboundTlsFinding, tlsFinding } from '../../../src/reputation/mail/transport-rules.js';
import type {
  Dkim,
  MailDmarc,
  MailMxHost,
  RequirementRuleId,
} from '../../../src/reputation/results/index.js';

/** The rules judged on the side they are about, the score that agrees with its verdict, the fixes. */

const key = (selector: string, bits: number, type: 'rsa' | 'ed25519' = 'rsa') => ({
  selector,
  source: 'caller',
  status: 'found' as const,
  key_type: type,
  key_bits: bits,
  testing: false,
  warning: type === 'rsa' && bits < 2048 ? `an RSA key of ${bits} bits: 2048 is advised` : null,
  detail: null,
});
const dkimOf = (...selectors: ReturnType<typeof key>[]): Dkim => ({
  status: selectors.length > 0 ? 'found' : 'none',
  tried: selectors.map((s) => s.selector),
  selectors,
});

function dmarcOf(record: string | null): MailDmarc {
  const reading = record === null ? null : readDmarcRecord(record);
  return {
    status: reading === null ? 'none' : reading.valid ? 'found' : 'invalid',
    present: reading !== null,
    record,
    policy: reading?.p ?? null,
    applied: reading === null ? null : 'domain',
    domain: reading === null ? null : 'example.org',
    errors: reading?.errors ?? [],
    warnings: reading?.warnings ?? [],
    p: reading?.p ?? null,
    sp: reading?.sp ?? null,
    pct: reading?.pct ?? 100,
    rua: [],
    ruf: [],
    adkim: reading?.adkim ?? 'r',
    aspf: reading?.aspf ?? 'r',
    fo: ['0'],
    rf: ['afrf'],
    ri: 86_400,
    organizational_domain: 'example.org',
  };
}

const smtp = (status: MailMxHost['smtp']['status'], trusted = true): MailMxHost['smtp'] => ({
  status,
  stage: status === 'ok' ? null : 'ehlo',
  address: '192.0.2.25',
  banner: '220 mx',
  starttls: status === 'ok',
  tls: status === 'ok' ? { version: 'TLSv1.3', cipher: 'TLS_AES_128_GCM_SHA256' } : null,
  certificate:
    status === 'ok'
      ? {
          subject_names: trusted ? ['mx1.example.org'] : ['self.example'],
          issuer: 'CN=self.example',
          not_after: '2027-01-01T00:00:00.000Z',
          days_left: 30,
          trusted,
          name_matches: trusted,
          trust_error: trusted ? null : 'DEPTH_ZERO_SELF_SIGNED_CERT',
        }
      : null,
  detail: null,
});
const host = (name: string, status: MailMxHost['smtp']['status'], trusted = true): MailMxHost => ({
  host: name,
  preference: 10,
  addresses: ['192.0.2.25'],
  smtp: smtp(status, trusted),
});

describe('DKIM and alignment say what DNS shows, with a status that is no proof', () => {
  it('reads a published 2048-bit key as ready, saying signatures are not visible', () => {
    expect(dkimFinding(dkimOf(key('google', 2048)), false)).toEqual({
      status: 'ready',
      detail: 'a 2048-bit RSA key at google is published; signatures are not visible from outside',
    });
  });

  it('keeps a 1024-bit key ready, with the 2048-bit advice in the detail, not a lower status', () => {
    const finding = dkimFinding(dkimOf(key('s1', 1024)), false);
    expect(finding.status).toBe('ready');
    expect(finding.detail).toMatch(/2048-bit RSA keys are advised \(RFC 8301 §3\.2\)/);
  });

  it('reads alignment as ready with a DKIM key under the domain, and names the d= that aligns', () => {
    const facts = {
      domain: 'example.org',
      dkim: dkimOf(key('google', 256, 'ed25519')),
      dmarc: dmarcOf('v=DMARC1; p=none'),
      spf: { status: 'found' },
    } as unknown as MailFacts;
    expect(alignmentFinding(facts)).toMatchObject({ status: 'ready' });
    expect(alignmentFinding(facts).detail).toMatch(/d=example\.org/);
  });

  it('fails alignment when the DMARC record is one receivers do not apply', () => {
    const facts = {
      domain: 'example.org',
      dkim: dkimOf(key('google', 2048)),
      dmarc: dmarcOf('v=DMARC1; p=reject; p=none'),
      spf: { status: 'found' },
    } as unknown as MailFacts;
    expect(alignmentFinding(facts).status).toBe('fail');
  });
});

describe('DMARC as both tools read it', () => {
  it('fails a record with a tag named twice, naming why', () => {
    expect(dmarcFinding(dmarcOf('v=DMARC1; p=reject; p=none'))).toEqual({
      status: 'fail',
      detail: 'a DMARC record receivers do not apply: the tag p appears twice',
    });
  });

  it('passes a record without p but with a valid rua, and says it reads as p=none', () => {
    expect(dmarcFinding(dmarcOf('v=DMARC1; rua=mailto:d@example.org'))).toEqual({
      status: 'pass',
      detail: 'DMARC p=none, read as p=none: the record has no valid p (RFC 7489 §6.6.3)',
    });
  });
});

describe('TLS on the side it is about', () => {
  it('cannot see the sending side: the providers’ tls rule is unknown, saying why', () => {
    expect(tlsFinding()).toMatchObject({ status: 'unknown' });
    expect(tlsFinding().detail).toMatch(/sending servers’ TLS cannot be seen from outside/);
  });

  it('fails inbound_tls for an MX without STARTTLS, and passes it when every MX has it', () => {
    expect(
      inboundTlsFinding([host('mx1.example.org', 'ok'), host('mx2.example.org', 'no_starttls')]),
    ).toEqual({
      status: 'fail',
      detail: 'no STARTTLS on mx2.example.org: mail to it travels unencrypted (RFC 3207)',
    });
    expect(inboundTlsFinding([host('mx1.example.org', 'ok')]).status).toBe('pass');
    expect(
      inboundTlsFinding([host('mx1.example.org', 'ok'), host('mx3.example.org', 'timeout')]).status,
    ).toBe('warn');
  });
});

/** Findings of a domain whose visible setup is sound but for an MX without STARTTLS. */
function soundFindings(): Record<RequirementRuleId, Finding> {
  return findingsOf({
    domain: 'example.org',
    spf: { status: 'found' },
    dkim: dkimOf(key('google', 2048)),
    callerSelectors: false,
    dmarc: dmarcOf('v=DMARC1; p=quarantine'),
    senders: [
      {
        ip: '192.0.3.10',
        rdns: { ptr: 'mail.example.org', fcrdns: 'pass' },
        listing: { verdict: 'good', listed: 0, answered: 20, listings: [] },
      },
    ] as unknown as MailFacts['senders'],
    sendersTotal: 1,
    mx: [host('mx1.example.org', 'ok'), host('mx2.example.org', 'no_starttls')],
  });
}

const noLists = {
  listed: 0,
  allowlisted: 0,
  answered: 3,
  not_answered: 0,
  on_hold: 0,
  disabled: 0,
  needs_key: 0,
  total: 3,
  summary: 'not listed on any of 3 lists',
  lists: [],
};

function scoredParts(findings: Record<RequirementRuleId, Finding>): ScoredParts {
  return {
    findings,
    requirements: judgeRequirements(findings),
    dmarcPolicy: 'quarantine',
    mx: [host('mx1.example.org', 'ok'), host('mx2.example.org', 'no_starttls')],
    mtaSts: {
      status: 'none',
      id: null,
      record: null,
      policy: null,
      mx_covered: null,
      uncovered: [],
      detail: null,
    },
    tlsRpt: { status: 'none', record: null, rua: [], detail: null },
    bimi: { status: 'none', record: null, l: null, a: null, dmarc_ready: true, detail: null },
    unauthorisedReports: 0,
    domain: 'example.org',
    domainLists: noLists,
  };
}

describe('one verdict, one colour: the mail score and its verdict agree', () => {
  it('meets every provider and scores good with the backup MX’s missing STARTTLS a finding of its own', () => {
    const findings = soundFindings();
    const parts = scoredParts(findings);
    expect(parts.requirements.gmail).toMatchObject({ verdict: 'pass', unseen: 4 });
    expect(mailScoreOf(parts)).toEqual({
      score: 90,
      verdict: 'good',
      factors: [
        {
          code: 'inbound_tls_fail',
          source: 'inbound_tls',
          detail: 'no STARTTLS on mx2.example.org: mail to it travels unencrypted (RFC 3207)',
          points: -10,
        },
      ],
    });
  });

  it('holds the score under 50 when a provider’s required rule fails, so poor never stands beside 90', () => {
    const findings = { ...soundFindings(), ptr: { status: 'fail' as const, detail: 'no PTR' } };
    const score = mailScoreOf(scoredParts(findings));
    expect(score).toMatchObject({ score: 49, verdict: 'poor' });
    expect(score.factors.map((factor) => factor.code)).toContain('provider_rules_not_met');
    expect(score.factors.reduce((sum, factor) => sum + factor.points, 100)).toBe(49);
  });

  it('lets the domain’s own listings move the score and the verdict', () => {
    const parts = scoredParts(soundFindings());
    parts.domainLists = {
      ...noLists,
      listed: 1,
      lists: [
        {
          zone: 'dbl.spamhaus.org',
          name: 'Spamhaus DBL',
          type: 'domain',
          severity: 'major',
          status: 'listed',
          listings: [{ code: '127.0.1.2', meaning: 'spam domain', severity: 'major', weight: 35 }],
        },
      ],
    };
    const score = mailScoreOf(parts);
    expect(score).toMatchObject({ score: 49, verdict: 'poor' });
    expect(score.factors.map((factor) => factor.code)).toEqual(
      expect.arrayContaining(['domain_listed', 'domain_on_major_list']),
    );
  });
});

/** What the fixes are made of, for a domain sound but for mx2's STARTTLS, with `overrides`. */
function fixFacts(overrides: Partial<FixFacts>, findings = soundFindings()): FixFacts {
  const requirements = judgeRequirements(findings);
  const parts = { ...scoredParts(findings), requirements };
  return {
    domain: 'example.org',
    findings,
    requirements,
    score: mailScoreOf(parts),
    dmarc: dmarcOf('v=DMARC1; p=quarantine'),
    dmarcReading: readDmarcRecord('v=DMARC1; p=quarantine'),
    spf: { status: 'found' },
    dkim: dkimOf(key('google', 2048)),
    providers: [],
    senders: [],
    mx: parts.mx,
    mtaSts: parts.mtaSts,
    tlsRpt: parts.tlsRpt,
    bimi: parts.bimi,
    domainLists: noLists,
    ...overrides,
  };
}

describe('what to fix first', () => {
  it('puts the DMARC record first for a domain without one, built for the domain, then the MX’s STARTTLS', () => {
    const findings = {
      ...soundFindings(),
      dmarc: { status: 'fail' as const, detail: 'no DMARC policy' },
      alignment: { status: 'fail' as const, detail: 'no DMARC policy applies' },
    };
    const fixes = fixesOf(fixFacts({ dmarc: dmarcOf(null), dmarcReading: null }, findings));
    expect(fixes[0]).toMatchObject({
      code: 'publish_dmarc',
      rules: ['dmarc', 'alignment'],
      moves: 6,
      record: {
        name: '_dmarc.example.org',
        type: 'TXT',
        value: 'v=DMARC1; p=none; rua=mailto:dmarc-reports@example.org',
      },
    });
    expect(fixes.map((fix) => fix.code)).toEqual(['publish_dmarc', 'inbound_starttls']);
  });

  it('rebuilds an invalid DMARC record keeping what is valid in it', () => {
    const record = 'v=DMARC1; p=reject; adkim=x; aspf=s; rua=mailto:d@example.org';
    const findings = {
      ...soundFindings(),
      dmarc: { status: 'fail' as const, detail: 'invalid' },
    };
    const [fix] = fixesOf(
      fixFacts({ dmarc: dmarcOf(record), dmarcReading: readDmarcRecord(record) }, findings),
    );
    expect(fix?.record?.value).toBe('v=DMARC1; p=reject; aspf=s; rua=mailto:d@example.org');
  });

  it('names the MX host without STARTTLS in one sentence, with no record', () => {
    const fixes = fixesOf(fixFacts({}));
    expect(fixes).toEqual([
      {
        code: 'inbound_starttls',
        rules: ['inbound_tls'],
        moves: 0,
        record: null,
        detail:
          'Turn on STARTTLS on mx2.example.org with a certificate valid for its name (RFC 3207): mail to it travels unencrypted.',
        subject: 'mx2.example.org',
      },
    ]);
  });
});

describe('an MX certificate that does not verify', () => {
  it('is a failing finding of its own, with the host and Node’s reason, and a fix', () => {
    const findings = soundFindings();
    const parts = scoredParts(findings);
    parts.mx = [host('mx1.example.org', 'ok', false), host('mx2.example.org', 'no_starttls')];
    const score = mailScoreOf(parts);
    expect(score.factors).toContainEqual({
      code: 'mx_certificate',
      source: 'inbound_tls',
      detail:
        'a certificate that does not verify: mx1.example.org: not valid for mx1.example.org (self.example); DEPTH_ZERO_SELF_SIGNED_CERT',
      points: -5,
    });
    const fixes = fixesOf({ ...fixFacts({ mx: parts.mx }, findings), score });
    expect(fixes.find((fix) => fix.code === 'mx_certificate')).toMatchObject({
      subject: 'mx1.example.org',
      detail: expect.stringContaining('DEPTH_ZERO_SELF_SIGNED_CERT'),
    });
  });
});

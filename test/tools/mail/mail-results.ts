import { fixesOf } from '../../../src/reputation/mail/fixes.js';
import { judgeRequirements } from '../../../src/reputation/mail/requirement-rules.js';
import type { Finding } from '../../../src/reputation/mail/requirement-rules.js';
import { mailScoreOf } from '../../../src/reputation/mail/mail-score.js';
import { inboundTlsRule } from '../../../src/reputation/mail/transport-rules.js';
import {
  type MailCheckResult,
  mailCheckResultSchema,
  type RequirementRuleId,
} from '../../../src/reputation/results/index.js';

/**
 * Three mail results for the pages, badge and card, parsed by the result's schema so they are
 * what the tool stores: a sound domain, a failing one, and one whose third MX is a tarpit. Their
 * requirements, scores and fixes are made by the check's own rules (`judgeRequirements`,
 * `mailScoreOf`, `fixesOf`) from the findings, so the verdicts agree as a real check's would.
 */

const unseen: Pick<
  Record<RequirementRuleId, Finding>,
  'spam_rate' | 'one_click_unsubscribe' | 'message_format' | 'tls'
> = {
  spam_rate: { status: 'unknown', detail: 'only Postmaster Tools and the feedback loops see it' },
  one_click_unsubscribe: { status: 'unknown', detail: 'in the messages' },
  message_format: { status: 'unknown', detail: 'in the messages' },
  tls: { status: 'unknown', detail: 'the sending servers’ TLS cannot be seen from outside' },
};

/** The domain on none of the domain lists that answered. */
const notOnDomainLists = {
  listed: 0,
  allowlisted: 0,
  answered: 4,
  not_answered: 0,
  on_hold: 0,
  disabled: 0,
  needs_key: 0,
  total: 4,
  summary: 'not listed on any of 4 lists',
  lists: [],
};

const certificate = (host: string, daysLeft: number, trusted = true) => ({
  subject_names: [host],
  issuer: 'CN=Demo Mail CA',
  not_after: new Date(Date.UTC(2026, 11, 1) + daysLeft * 86_400_000).toISOString(),
  days_left: daysLeft,
  trusted,
  name_matches: trusted,
  trust_error: trusted ? null : 'ERR_TLS_CERT_ALTNAME_INVALID',
});

type Mx = MailCheckResult['mx'][number];

const okMx = (host: string, address: string, daysLeft = 80): Mx => ({
  host,
  preference: 10,
  addresses: [address],
  smtp: {
    status: 'ok',
    stage: null,
    address,
    banner: `220 ${host} ESMTP`,
    starttls: true,
    tls: { version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384' },
    certificate: certificate(host, daysLeft),
    detail: null,
  },
});

type Parts = Omit<
  MailCheckResult,
  'requirements' | 'mail_score' | 'domain' | 'checked_at' | 'fixes' | 'inbound_tls' | 'domain_lists'
> &
  Partial<Pick<MailCheckResult, 'domain_lists'>>;

function build(
  domain: string,
  findings: Record<RequirementRuleId, Finding>,
  parts: Parts,
  unauthorisedReports = 0,
): MailCheckResult {
  const requirements = judgeRequirements(findings);
  const domainLists = parts.domain_lists ?? notOnDomainLists;
  const mail_score = mailScoreOf({
    findings,
    requirements,
    dmarcPolicy: parts.dmarc.p,
    mx: parts.mx,
    mtaSts: parts.mta_sts,
    tlsRpt: parts.tls_rpt,
    bimi: parts.bimi,
    unauthorisedReports,
    domain,
    domainLists,
  });
  const fixes = fixesOf({
    domain,
    findings,
    requirements,
    score: mail_score,
    dmarc: parts.dmarc,
    dmarcReading: null,
    spf: parts.spf,
    dkim: parts.dkim,
    providers: [],
    senders: [],
    mx: parts.mx,
    mtaSts: parts.mta_sts,
    tlsRpt: parts.tls_rpt,
    bimi: parts.bimi,
    domainLists,
  });
  return mailCheckResultSchema.parse({
    domain,
    fixes,
    ...parts,
    requirements,
    inbound_tls: inboundTlsRule(findings.inbound_tls),
    domain_lists: domainLists,
    mail_score,
    checked_at: '2026-11-27T10:30:00.000Z',
  });
}

const spfFound = (domain: string, record: string) => ({
  domain,
  record,
  status: 'found' as const,
  lookups: 1,
  voidLookups: 0,
  domains: [domain],
  notEnumerable: [],
  skipped: [],
  nonPass: [],
});

const dmarc = (
  domain: string,
  p: 'none' | 'quarantine' | 'reject' | null,
  rua: MailCheckResult['dmarc']['rua'] = [],
) => ({
  status: p === null ? ('none' as const) : ('found' as const),
  present: p !== null,
  record:
    p === null
      ? null
      : `v=DMARC1; p=${p}${rua.length > 0 ? `; rua=${rua.map((r) => r.uri).join(',')}` : ''}`,
  policy: p,
  applied: p === null ? null : ('domain' as const),
  domain: p === null ? null : domain,
  p,
  sp: null,
  pct: 100,
  rua,
  ruf: [],
  adkim: 'r' as const,
  aspf: 'r' as const,
  fo: ['0'],
  rf: ['afrf'],
  ri: 86_400,
  organizational_domain: domain,
  errors: [],
  warnings: [],
});

const noDane = {
  status: 'not_checked' as const,
  validating: null,
  hosts: [],
  detail: 'no TLSA lookup',
};

export const goodMail: MailCheckResult = build(
  'demo-mail.example',
  {
    spf: { status: 'pass', detail: 'v=spf1 ip4:192.0.3.10 -all evaluates without error' },
    dkim: {
      status: 'ready',
      detail: 'an Ed25519 key at google is published; signatures are not visible from outside',
    },
    dmarc: { status: 'pass', detail: 'p=reject' },
    alignment: {
      status: 'ready',
      detail: 'signatures with the published key (d=demo-mail.example) align with From',
    },
    ptr: { status: 'pass', detail: '192.0.3.10: out.demo-mail.example, confirmed forward' },
    inbound_tls: { status: 'pass', detail: 'STARTTLS on every MX host probed' },
    listing: { status: 'pass', detail: '192.0.3.10 is on no major list' },
    ...unseen,
  },
  {
    spf: spfFound('demo-mail.example', 'v=spf1 ip4:192.0.3.10 -all'),
    dkim: {
      status: 'found',
      tried: ['google', 'selector1', 'selector2', 's1', 's2', 'k1'],
      selectors: [
        {
          selector: 'google',
          source: 'Google Workspace',
          status: 'found',
          key_type: 'ed25519',
          key_bits: 256,
          testing: false,
          warning: null,
          detail: null,
        },
        {
          selector: 'selector1',
          source: 'Microsoft 365',
          status: 'found',
          key_type: 'rsa',
          key_bits: 2048,
          testing: false,
          warning: null,
          detail: null,
        },
      ],
    },
    dmarc: dmarc('demo-mail.example', 'reject', [
      {
        uri: 'mailto:dmarc@demo-mail.example',
        domain: 'demo-mail.example',
        external: false,
        authorized: null,
        detail: null,
      },
      {
        uri: 'mailto:reports@reports.example.org',
        domain: 'reports.example.org',
        external: true,
        authorized: true,
        detail: null,
      },
    ]),
    bimi: {
      status: 'found',
      record: 'v=BIMI1; l=https://demo-mail.example/logo.svg',
      l: 'https://demo-mail.example/logo.svg',
      a: null,
      dmarc_ready: true,
      detail: null,
    },
    null_mx: false,
    implicit_mx: false,
    mx_total: 1,
    mx: [okMx('mx1.demo-mail.example', '127.0.0.2')],
    mta_sts: {
      status: 'enforce',
      id: '20261127',
      record: 'v=STSv1; id=20261127',
      policy: { mode: 'enforce', mx: ['*.demo-mail.example'], max_age: 604800 },
      mx_covered: true,
      uncovered: [],
      detail: null,
    },
    tls_rpt: {
      status: 'found',
      record: 'v=TLSRPTv1; rua=mailto:tls@demo-mail.example',
      rua: ['mailto:tls@demo-mail.example'],
      detail: null,
    },
    dane: {
      status: 'found',
      validating: true,
      hosts: [
        {
          host: 'mx1.demo-mail.example',
          status: 'found',
          authenticated: true,
          records: [{ usage: 3, selector: 1, matching_type: 1, data: 'ab'.repeat(32) }],
        },
      ],
      detail: null,
    },
    notes: [],
  },
);

export const failingMail: MailCheckResult = build(
  'broken-mail.example',
  {
    spf: { status: 'fail', detail: 'no SPF record' },
    dkim: { status: 'warn', detail: 'no key at the 38 selectors tried' },
    dmarc: { status: 'fail', detail: 'no DMARC record' },
    alignment: { status: 'fail', detail: 'neither DKIM nor SPF can align' },
    ptr: { status: 'fail', detail: '192.0.3.30 has no PTR record' },
    inbound_tls: { status: 'fail', detail: 'no STARTTLS on mx.broken-mail.example (RFC 3207)' },
    listing: { status: 'fail', detail: '192.0.3.30 is on Spamhaus ZEN' },
    ...unseen,
  },
  {
    spf: {
      domain: 'broken-mail.example',
      record: null,
      status: 'none',
      lookups: 0,
      voidLookups: 0,
      domains: [],
      notEnumerable: [],
      skipped: [],
      nonPass: [],
    },
    dkim: { status: 'none', tried: ['google', 'selector1', 'selector2'], selectors: [] },
    dmarc: dmarc('broken-mail.example', null),
    bimi: {
      status: 'invalid',
      record: 'v=BIMI1; l=http://broken-mail.example/logo.svg',
      l: null,
      a: null,
      dmarc_ready: false,
      detail: 'l= is not an HTTPS URL',
    },
    null_mx: false,
    implicit_mx: false,
    mx_total: 2,
    mx: [
      {
        host: 'mx.broken-mail.example',
        preference: 10,
        addresses: ['127.0.0.3'],
        smtp: {
          status: 'no_starttls',
          stage: 'ehlo',
          address: '127.0.0.3',
          banner: '220 mx.broken-mail.example ESMTP',
          starttls: false,
          tls: null,
          certificate: null,
          detail: 'the EHLO reply does not offer STARTTLS',
        },
      },
      {
        ...okMx('mx2.broken-mail.example', '127.0.0.2', 5),
        preference: 20,
        smtp: {
          ...okMx('mx2.broken-mail.example', '127.0.0.2', 5).smtp,
          certificate: certificate('mx2.broken-mail.example', 5, false),
        },
      },
    ],
    mta_sts: {
      status: 'error',
      id: '1',
      record: 'v=STSv1; id=1',
      policy: null,
      mx_covered: null,
      uncovered: [],
      detail: 'the policy server answered 404',
    },
    tls_rpt: { status: 'invalid', record: 'v=TLSRPTv1', rua: [], detail: 'no rua=' },
    dane: {
      status: 'none',
      validating: false,
      hosts: [
        { host: 'mx.broken-mail.example', status: 'none', authenticated: false, records: [] },
      ],
      detail: 'the resolver does not validate DNSSEC',
    },
    notes: [],
  },
);

export const tarpitMail: MailCheckResult = build(
  'slow-mail.example',
  {
    spf: { status: 'pass', detail: 'v=spf1 mx -all evaluates without error' },
    dkim: {
      status: 'ready',
      detail:
        'a 1024-bit RSA key at s1 is published; signatures are not visible from outside; 2048-bit RSA keys are advised (RFC 8301 §3.2)',
    },
    dmarc: { status: 'pass', detail: 'p=none' },
    alignment: {
      status: 'ready',
      detail: 'signatures with the published key (d=slow-mail.example) align with From',
    },
    ptr: { status: 'pass', detail: '192.0.3.10: out.slow-mail.example, confirmed forward' },
    listing: {
      status: 'warn',
      detail: 'on a minor list: 192.0.3.10 (1 of 1 sender addresses checked)',
    },
    inbound_tls: {
      status: 'warn',
      detail: 'STARTTLS on 2 of 3 MX hosts probed; mx3.slow-mail.example could not be probed',
    },
    ...unseen,
  },
  {
    spf: spfFound('slow-mail.example', 'v=spf1 mx -all'),
    dkim: {
      status: 'found',
      tried: ['s1'],
      selectors: [
        {
          selector: 's1',
          source: 'caller',
          status: 'found',
          key_type: 'rsa',
          key_bits: 1024,
          testing: true,
          warning: 'RSA 1024 bits: 2048 advised (RFC 8301 §3.2)',
          detail: null,
        },
      ],
    },
    dmarc: dmarc('slow-mail.example', 'none'),
    bimi: { status: 'none', record: null, l: null, a: null, dmarc_ready: false, detail: null },
    null_mx: false,
    implicit_mx: false,
    mx_total: 3,
    mx: [
      okMx('mx1.slow-mail.example', '127.0.0.2'),
      {
        ...okMx('mx2.slow-mail.example', '2001:db8:ffff:ffff:ffff:ffff:ffff:fffe'),
        preference: 20,
      },
      {
        host: 'mx3.slow-mail.example',
        preference: 30,
        addresses: ['127.0.0.4'],
        smtp: {
          status: 'timeout',
          stage: 'greeting',
          address: '127.0.0.4',
          banner: null,
          starttls: null,
          tls: null,
          certificate: null,
          detail: 'no greeting within 10000 ms',
        },
      },
    ],
    mta_sts: {
      status: 'testing',
      id: '1',
      record: 'v=STSv1; id=1',
      policy: { mode: 'testing', mx: ['mx1.slow-mail.example'], max_age: 86400 },
      mx_covered: false,
      uncovered: ['mx2.slow-mail.example', 'mx3.slow-mail.example'],
      detail: null,
    },
    tls_rpt: { status: 'none', record: null, rua: [], detail: null },
    dane: noDane,
    notes: [],
  },
);

export const mailResults = { good: goodMail, failing: failingMail, tarpit: tarpitMail };

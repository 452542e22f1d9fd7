import { describe, expect, it } from 'vitest';
import {
  capacityShortage,
  destinationBound,
  notProbed,
} from '../../src/reputation/mail/probes/index.js';
import { inboundTlsFinding, inboundTlsRule } from '../../src/reputation/mail/transport-rules.js';
import { verdictOf } from '../../src/reputation/mail/requirement-rules.js';
import type { MailCheckResult } from '../../src/reputation/results/index.js';
import {
  type Fact,
  type Known,
  observeMailCheck,
  recordObservation,
  watchSelectors,
} from '../../src/watch/kinds/index.js';
import { goodMail } from '../tools/mail/mail-results.js';

/**
 * What a mail watch compares (docs/watches.md, "Mail watches"), table by table: a result read
 * as facts (src/watch/kinds/mail-observe.ts) and merged into what the watch knew by the engine's
 * one merge with its confirmations (src/watch/kinds/merge.ts). Silence (an SMTP probe that timed
 * out or was never made, an MTA-STS fetch that gave up, a DKIM look-up that failed) keeps what
 * was known; an answer that differs is a change once confirmed.
 */

const observe = observeMailCheck;

/** A mail watch's facts by `<what>:<subject>`, as a table names them. */
const mailFacts = (known: Known): Record<string, Fact> =>
  Object.fromEntries(
    known.facts
      .filter((fact) => fact.what !== 'list')
      .map((fact) => [`${fact.what}:${fact.subject}`, fact]),
  );

/** The changes each result after the first brings, one check each. */
function changesOver(results: MailCheckResult[], confirmations = 1) {
  let known: Known | undefined;
  const reported = [];
  for (const result of results) {
    const step = recordObservation(known, observe(result), confirmations);
    if (known) reported.push(step.change.changes ?? []);
    known = step.known;
  }
  return { reported, known: known! };
}

type Mx = MailCheckResult['mx'][number];
const withMx = (result: MailCheckResult, smtp: (host: Mx) => Mx['smtp']): MailCheckResult => ({
  ...result,
  mx: result.mx.map((host) => ({ ...host, smtp: smtp(host) })),
});
const withDaysLeft = (days: number) =>
  withMx(goodMail, (host) => ({
    ...host.smtp,
    certificate: { ...host.smtp.certificate!, days_left: days, not_after: `day ${days}` },
  }));
/** One rule as the check would word it, the same for every provider (verdicts left as they were). */
const withRule = (
  result: MailCheckResult,
  rule: string,
  status: 'unknown' | 'warn' | 'fail',
  detail: string,
) => ({
  ...result,
  requirements: Object.fromEntries(
    Object.entries(result.requirements).map(([provider, verdict]) => [
      provider,
      typeof verdict === 'string'
        ? verdict
        : {
            ...verdict,
            rules: verdict.rules.map((each) =>
              each.rule === rule ? { ...each, status, detail } : each,
            ),
          },
    ]),
  ) as MailCheckResult['requirements'],
  // The MX servers' STARTTLS is a rule of the result's own, beside the providers' tables.
  inbound_tls:
    rule === 'inbound_tls' ? { ...result.inbound_tls, status, detail } : result.inbound_tls,
});
const withSts = (status: MailCheckResult['mta_sts']['status'], detail: string | null) => ({
  ...goodMail,
  mta_sts: { ...goodMail.mta_sts, status, detail },
});
const withSelector = (status: 'none' | 'revoked', detail: string | null) => ({
  ...goodMail,
  dkim: {
    ...goodMail.dkim,
    selectors: goodMail.dkim.selectors.map((selector) =>
      selector.selector === 'google' ? { ...selector, status, detail, key_type: null } : selector,
    ),
  },
});

describe('a mail watch’s changes', () => {
  it('reports nothing when the same setup is heard again', () => {
    expect(changesOver([goodMail, goodMail, goodMail]).reported).toEqual([[], []]);
  });

  it('reads SMTP never probed (Workers: no port 25) as silence, check after check', () => {
    const workers = withRule(
      withMx(goodMail, () => notProbed('this runtime cannot open TCP port 25')),
      'inbound_tls',
      'unknown',
      'no MX host could be probed: STARTTLS is not known',
    );
    expect(changesOver([workers, workers, workers]).reported).toEqual([[], []]);
    // A Node watch's probe that stops being made says nothing either: its certificate stays.
    const { reported, known } = changesOver([goodMail, workers, goodMail]);
    expect(reported).toEqual([[], []]);
    expect(mailFacts(known)['certificate:mx1.demo-mail.example']?.value).toBe('valid');
  });

  it('keeps what was known while an MX probe times out beside one that answers', () => {
    const timedOut = withRule(
      {
        ...goodMail,
        mx: [
          ...goodMail.mx,
          {
            ...goodMail.mx[0]!,
            host: 'mx2.demo-mail.example',
            smtp: { ...notProbed('x', '127.0.0.3'), status: 'timeout', stage: 'greeting' },
          },
        ],
      },
      'inbound_tls',
      'warn',
      'STARTTLS on 1 of 2 MX hosts probed; the others did not answer',
    );
    expect(changesOver([goodMail, timedOut, timedOut, goodMail]).reported).toEqual([[], [], []]);
    // A connection refused is an answer: the server is down, and the rule's warning is news.
    const refused = withRule(
      {
        ...timedOut,
        mx: timedOut.mx.map((host, index) =>
          index === 0 ? host : { ...host, smtp: { ...host.smtp, status: 'refused' as const } },
        ),
      },
      'inbound_tls',
      'warn',
      'STARTTLS on 1 of 2 MX hosts probed; the others did not answer',
    );
    const [changes] = changesOver([goodMail, refused]).reported;
    expect(changes).toContainEqual(
      expect.objectContaining({
        what: 'requirement',
        subject: 'inbound_tls',
        from: 'pass',
        to: 'warn',
      }),
    );
  });

  it.each([
    ['capacity', `${capacityShortage} (network share, 15 at once)`],
    ['bound on probes to one destination', `${destinationBound} (30 probes to this address)`],
  ])(
    'sends no tls pass ⇄ warn for a probe not made for the service’s %s, as the rule judges it',
    (_limit, reason) => {
      // Two MX hosts answering, then one of them not probed for the service's limit, and back, twice.
      const both: MailCheckResult = {
        ...goodMail,
        mx: [...goodMail.mx, { ...goodMail.mx[0]!, host: 'mx2.demo-mail.example' }],
      };
      const judged = (result: MailCheckResult) => ({
        ...result,
        inbound_tls: inboundTlsRule(inboundTlsFinding(result.mx)),
      });
      const short = judged({
        ...both,
        mx: both.mx.map((host, index) =>
          index === 0
            ? host
            : {
                ...host,
                smtp: notProbed(reason, '127.0.0.3'),
              },
        ),
      });
      expect(short.inbound_tls).toMatchObject({ status: 'unknown' });
      const whole = judged(both);
      expect(whole.inbound_tls).toMatchObject({ status: 'pass' });
      expect(changesOver([whole, short, whole, short, whole]).reported).toEqual([[], [], [], []]);
    },
  );

  it('reports a certificate that falls under 14 days, expires, and is renewed', () => {
    const { reported } = changesOver([
      withDaysLeft(80),
      withDaysLeft(14),
      withDaysLeft(13),
      withDaysLeft(2),
      withDaysLeft(-1),
      withDaysLeft(90),
    ]);
    const moves = reported.map((changes) => changes.map(({ from, to }) => `${from}>${to}`));
    expect(moves).toEqual([[], ['valid>expiring'], [], ['expiring>expired'], ['expired>valid']]);
    expect(reported[1]![0]).toMatchObject({
      what: 'certificate',
      subject: 'mx1.demo-mail.example',
      detail: '13 days left (not after day 13)',
    });
  });

  it('reports the MTA-STS mode, but not a fetch or a DNS look-up that gave up', () => {
    const gaveUp = withSts(
      'error',
      'https://mta-sts.demo-mail.example/.well-known/mta-sts.txt: no whole answer within 1000 ms',
    );
    const noDns = withSts('error', '_mta-sts.demo-mail.example: no usable DNS answer (timeout)');
    const notFound = withSts(
      'error',
      'https://mta-sts.demo-mail.example/.well-known/mta-sts.txt: HTTP 404',
    );
    const { reported } = changesOver([goodMail, gaveUp, noDns, withSts('testing', null), notFound]);
    expect(
      reported.map((changes) => changes.map(({ what, from, to }) => `${what} ${from}>${to}`)),
    ).toEqual([[], [], ['mta_sts enforce>testing'], ['mta_sts testing>error']]);
  });

  it('reports a DKIM key gone or revoked, not a selector whose look-up failed', () => {
    // The check reads a failed look-up as no key: its dkim rule would fail.
    const failed = withRule(
      withSelector('none', 'no usable DNS answer (timeout)'),
      'dkim',
      'fail',
      'no DKIM key at the 6 selectors tried, the named ones among them',
    );
    const { reported } = changesOver([goodMail, failed, withSelector('revoked', 'an empty p=')]);
    expect(reported[0]).toEqual([]);
    expect(reported[1]).toContainEqual({
      what: 'dkim',
      subject: 'google',
      from: 'found',
      to: 'revoked',
      detail: 'an empty p=',
    });
  });

  it('keeps the certificates while no MX host was found (an MX look-up that failed)', () => {
    const noMx = withRule(
      { ...goodMail, mx: [], mx_total: 0 },
      'inbound_tls',
      'unknown',
      'no MX host to probe',
    );
    const { reported } = changesOver([withDaysLeft(80), noMx, withDaysLeft(5)]);
    // Kept, so the certificate that falls under 14 days meanwhile is still news.
    expect(reported.map((changes) => changes.map(({ from, to }) => `${from}>${to}`))).toEqual([
      [],
      ['valid>expiring'],
    ]);
    // A host the domain no longer has, while it has others, is forgotten.
    const moved = withMx(
      { ...goodMail, mx: [{ ...goodMail.mx[0]!, host: 'mx2.demo-mail.example' }] },
      (host) => host.smtp,
    );
    const after = mailFacts(changesOver([goodMail, moved]).known);
    expect(Object.keys(after).filter((key) => key.startsWith('certificate:'))).toEqual([
      'certificate:mx2.demo-mail.example',
    ]);
  });

  it('reports a rule’s status and the providers’ verdicts it moves, judged over the rules known', () => {
    const noTls = withRule(
      goodMail,
      'inbound_tls',
      'fail',
      'no STARTTLS on mx1.demo-mail.example (RFC 3207)',
    );
    // The MX servers' STARTTLS is news, and moves no provider's verdict: none requires it.
    const starttls = changesOver([goodMail, noTls]).reported[0]!.map(
      ({ what, subject, from, to }) => `${what} ${subject} ${from}>${to}`,
    );
    expect(starttls).toEqual(['requirement inbound_tls pass>fail']);
    const noPtr = withRule(goodMail, 'ptr', 'fail', 'no PTR record for 192.0.3.10');
    const { reported } = changesOver([goodMail, noPtr]);
    const moves = reported[0]!.map(
      ({ what, subject, from, to }) => `${what} ${subject} ${from}>${to}`,
    );
    expect(moves).toContain('requirement ptr pass>fail');
    // Each provider's verdict as the check's own rule judges the rules now (withRule leaves the
    // result's verdicts as they were: the watch judges them again).
    const expected = (['gmail', 'microsoft', 'yahoo'] as const)
      .map((provider) => [provider, verdictOf(noPtr.requirements[provider].rules)] as const)
      .filter(([, verdict]) => verdict !== 'pass')
      .map(([provider, verdict]) => `verdict ${provider} pass>${verdict}`);
    expect(moves.filter((move) => move.startsWith('verdict '))).toEqual(expected);
    expect(moves.some((move) => move.startsWith('verdict '))).toBe(true);
  });

  it('reports a change heard by `confirmations` checks in a row, and none that flips back', () => {
    const expiring = withDaysLeft(5);
    const flapped = changesOver([goodMail, expiring, goodMail, expiring, goodMail], 2);
    expect(flapped.reported).toEqual([[], [], [], []]);
    expect(flapped.known.unconfirmed).toBeUndefined();

    const held = changesOver([goodMail, expiring, expiring], 2);
    expect(held.reported[0]).toEqual([]);
    expect(held.reported[1]).toEqual([
      expect.objectContaining({ what: 'certificate', from: 'valid', to: 'expiring' }),
    ]);
    // Silence between the two neither confirms nor contradicts: the count waits.
    const silent = withMx(goodMail, () => notProbed('probe budget spent'));
    const waited = changesOver([goodMail, expiring, silent, expiring], 2);
    expect(waited.reported.map((changes) => changes.length)).toEqual([0, 0, 1]);
  });
});

describe('the selectors a mail watch names', () => {
  it('names its own, then those with a key now, then the others, at most 10', () => {
    const fact = (subject: string, value: string): Fact => ({
      what: 'dkim',
      subject,
      value,
      detail: null,
    });
    const known = [
      ...Array.from({ length: 8 }, (_, i) => fact(`old${i}`, 'none')),
      fact('new1', 'found'),
      fact('new2', 'found'),
    ];
    expect(watchSelectors(['mine'], known)).toEqual([
      'mine',
      'new1',
      'new2',
      ...Array.from({ length: 7 }, (_, i) => `old${i}`),
    ]);
    expect(watchSelectors(undefined, undefined)).toEqual([]);
  });
});

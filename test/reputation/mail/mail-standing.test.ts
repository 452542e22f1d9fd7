import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsblWorld } from '../../../fixtures/dnsbl-world.js';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { checkDomain } from '../../../src/reputation/checks/domain-check.js';
import { checkMail } from '../../../src/reputation/mail/index.js';
import { mailCheckResultSchema } from '../../../src/reputation/results/index.js';
import { memoryMailDeps } from '../../support/mail-deps.js';
import { memoryWorld } from '../../support/memory-resolver.js';

/**
 * The domain's own standing in the mail check, over the DNS world in memory (the wire is not the
 * point here, and no MX is probed: the runtime is given no SMTP, as on Workers): the domain lists
 * the domain tool asks, a name that does not exist, and the sending addresses the ptr rule reads.
 */

const zones = await keylessZoneList();
let dns: MemoryDns;

beforeAll(() => {
  dns = memoryWorld([
    ...dnsblWorld(zones, {
      'spammy.net': { 'dbl.spamhaus.org': ['127.0.1.2'], 'multi.uribl.com': ['127.0.0.2'] },
    }),
    {
      origin: 'net',
      records: {
        'spammy.net': { A: ['185.80.0.20'], TXT: ['v=spf1 ip4:185.80.0.10 -all'] },
        '_dmarc.spammy.net': { TXT: ['v=DMARC1; p=none; rua=mailto:d@spammy.net'] },
        // Sends from 185.80.0.10 (forward-confirmed), receives on 185.80.0.77 (no PTR).
        'senders.net': {
          TXT: ['v=spf1 ip4:185.80.0.10 -all'],
          MX: [{ exchange: 'mx.senders.net', priority: 10 }],
        },
        'mx.senders.net': { A: ['185.80.0.77'] },
        'out.senders.net': { A: ['185.80.0.10'] },
        '_dmarc.senders.net': { TXT: ['v=DMARC1; p=reject'] },
      },
    },
    {
      origin: '0.80.185.in-addr.arpa',
      records: { '10.0.80.185.in-addr.arpa': { PTR: ['out.senders.net'] } },
    },
  ]);
});

afterAll(() => dns.close());

const deps = () => memoryMailDeps(dns, zones);

async function mailOf(name: string) {
  const outcome = await checkMail(deps(), { name, display: name });
  if (!outcome.ok) throw new Error(`${outcome.error}: ${outcome.reason}`);
  return mailCheckResultSchema.parse(outcome.result);
}

describe('the mail check and the domain’s own standing', () => {
  it('says the domain is on Spamhaus DBL and URIBL, as the domain tool does, and lets it hold the verdict', async () => {
    const [mail, domain] = await Promise.all([
      mailOf('spammy.net'),
      checkDomain(deps(), { name: 'spammy.net', display: 'spammy.net' }),
    ]);
    if (!domain.ok) throw new Error(domain.reason);
    const listed = (lists: { status: string; name: string }[]) =>
      lists.filter((list) => list.status === 'listed').map((list) => list.name);
    expect(listed(mail.domain_lists.lists)).toEqual(listed(domain.result.domain_score.lists));
    expect(listed(mail.domain_lists.lists)).toEqual(
      expect.arrayContaining(['Spamhaus DBL', 'URIBL multi']),
    );
    expect(mail.domain_lists.listed).toBe(domain.result.domain_score.listed);
    expect(mail.mail_score.verdict).toBe('poor');
    expect(mail.mail_score.score).toBeLessThan(50);
    expect(mail.mail_score.factors.filter((f) => f.code === 'domain_listed')).toHaveLength(2);
    expect(mail.fixes.map((fix) => fix.code)).toContain('delist_domain');
  });

  it('answers a name that does not exist as the domain tool does, not with a score', async () => {
    const name = { name: 'nope.spammy.net', display: 'nope.spammy.net' };
    const [mail, domain] = await Promise.all([checkMail(deps(), name), checkDomain(deps(), name)]);
    expect(mail).toEqual({
      ok: false,
      error: 'invalid_target',
      reason: 'nope.spammy.net has no public IP address',
    });
    expect(mail).toEqual(domain);
  });

  it('reads reverse DNS of the SPF sender addresses only, not of the MX hosts that only receive', async () => {
    const mail = await mailOf('senders.net');
    const ptr = mail.requirements.gmail.rules.find((rule) => rule.rule === 'ptr');
    expect(ptr).toMatchObject({ status: 'pass' });
    expect(ptr?.detail).toMatch(/1 of 1 sender addresses sampled/);
  });
});

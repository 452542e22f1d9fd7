import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keylessZoneList } from '../../../fixtures/keyless-lists.js';
import type { MemoryDns } from '../../../fixtures/memory-dns.js';
import { checkDomain } from '../../../src/reputation/checks/domain-check.js';
import { checkMail } from '../../../src/reputation/mail/index.js';
import { dmarcDisagreements, dmarcVectors } from '../../fixtures/peers/dmarc-records.js';
import { memoryMailDeps } from '../../support/mail-deps.js';
import { memoryWorld } from '../../support/memory-resolver.js';

/**
 * The domain tool and the mail tool read a DMARC record once (src/reputation/checks/
 * dmarc-record.ts): over a DNS world publishing every record of the peers' tables, each at a
 * domain of its own, both checks show the same record, status, policy, errors and warnings, and
 * the mail check's p is the domain check's policy.
 */

const zones = await keylessZoneList();
const records = [...dmarcVectors.map((v) => v.record), ...dmarcDisagreements.map((d) => d.record)];
const domainOf = (index: number) => `dmarc-case-${index}.com`;
let dns: MemoryDns;

beforeAll(() => {
  dns = memoryWorld([
    {
      origin: 'com',
      records: Object.fromEntries(
        records.flatMap((record, index) => [
          [domainOf(index), { TXT: ['v=spf1 ip4:185.80.0.2 -all'] }],
          [`_dmarc.${domainOf(index)}`, { TXT: [record] }],
        ]),
      ),
    },
  ]);
});

afterAll(() => dns.close());

const deps = () => memoryMailDeps(dns, zones);

describe('one reading of every DMARC record, for the domain tool and the mail tool', () => {
  it.each(records.map((record, index) => [record, index] as const))(
    'reads %j the same in both tools',
    async (_record, index) => {
      const domain = { name: domainOf(index), display: domainOf(index) };
      const checkDeps = deps();
      const [byDomain, byMail] = await Promise.all([
        checkDomain(checkDeps, domain),
        checkMail(checkDeps, domain),
      ]);
      if (!byDomain.ok || !byMail.ok) throw new Error('a check failed');
      const shown = byDomain.result.dmarc;
      const { status, present, record, policy, applied, errors, warnings } = byMail.result.dmarc;
      expect({ status, present, record, policy, applied, errors, warnings }).toEqual({
        status: shown.status,
        present: shown.present,
        record: shown.record,
        policy: shown.policy,
        applied: shown.applied,
        errors: shown.errors,
        warnings: shown.warnings,
      });
      expect(byMail.result.dmarc.p).toBe(shown.policy);
    },
  );
});

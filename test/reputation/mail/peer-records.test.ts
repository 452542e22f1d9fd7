import { describe, expect, it } from 'vitest';
import { readBimiRecord } from '../../../src/reputation/mail/bimi.js';
import { readDkimKey } from '../../../src/reputation/mail/dkim-key.js';
import { parsePolicy, readStsRecords } from '../../../src/reputation/mail/mta-sts.js';
import { readTlsRpt } from '../../../src/reputation/mail/tls-rpt.js';
import {
  bimiVectors,
  dkimKeyVectors,
  mailDisagreements,
  stsPolicyVectors,
  stsRecordVectors,
  tlsRptVectors,
} from '../../fixtures/peers/mail-records.js';

/** The records of the peers' tests (test/fixtures/peers/), read by the mail check's readers. */

describe('TLS-RPT records the peers publish (RFC 8460 §3)', () => {
  it.each(tlsRptVectors.map((vector) => [vector.record, vector.valid] as const))(
    'reads %j as valid: %s',
    (record, valid) => {
      expect(readTlsRpt([record]).status).toBe(valid ? 'found' : 'invalid');
    },
  );
});

describe('MTA-STS records and policies the peers publish (RFC 8461 §3.1, §3.2)', () => {
  it.each(stsRecordVectors.map((vector) => [vector.record, vector.valid] as const))(
    'reads the record %j as valid: %s',
    (record, valid) => {
      expect(readStsRecords([record])?.ok).toBe(valid);
    },
  );

  it.each(stsPolicyVectors.map((vector) => [vector.record, vector] as const))(
    'reads the policy %j as the peers do',
    (record, vector) => {
      const parsed = parsePolicy(record);
      expect(parsed.ok).toBe(vector.valid);
      if (parsed.ok) expect(parsed.policy.mode).toBe(vector.mode);
    },
  );

  it.each(
    mailDisagreements
      .filter((case_) => case_.kind === 'mta-sts policy')
      .map((case_) => [case_.record, case_] as const),
  )('reads the policy %j by the RFC where the peers disagree', (record, case_) => {
    expect(parsePolicy(record).ok).toBe(case_.valid);
  });
});

describe('DKIM key records of dkimpy’s tests (RFC 6376 §3.6.1, RFC 8463)', () => {
  it.each(dkimKeyVectors.map((vector) => [vector.from, vector] as const))(
    'reads %s as dkimpy does',
    (_from, vector) => {
      const key = readDkimKey(vector.record);
      expect(key.status).toBe(vector.valid ? 'found' : 'invalid');
      if (vector.keyType) expect(key.key_type).toBe(vector.keyType);
    },
  );
});

describe('BIMI records the peers publish', () => {
  it.each(bimiVectors.map((vector) => [vector.record, vector] as const))(
    'reads %j as the peers do',
    (record, vector) => {
      expect(readBimiRecord(record, true)).toMatchObject({
        status: vector.valid ? 'found' : 'invalid',
        l: vector.logo,
      });
    },
  );
});

describe('the records’ grammars as receivers read them', () => {
  it.each([
    ['v=TLSRPTv1 ;rua=mailto:tls@example.com', 'found'],
    ['v=TLSRPTv1;\trua=mailto:tls@example.com ,\thttps://r.example.com/tls', 'found'],
    ['v=TLSRPTv1; rua = mailto:tls@example.com', 'invalid'],
    ['v=TLSRPTv1; rua=mailto:tls@example.com; ext=a b', 'invalid'],
    ['v=TLSRPTv1; rua=mailto:tls@example.com; future-ext=1', 'found'],
  ])('reads the TLS-RPT record %j as %s (RFC 8460 §3: *WSP around ";" only)', (record, status) => {
    expect(readTlsRpt([record]).status).toBe(status);
  });

  it.each([
    ['v=STSv1 ; id=20240101', true],
    ['v=STSv1;\tid=20240101;', true],
    ['v=STSv1; id = 20240101', false],
    ['V=STSv1; id=20240101', undefined],
  ])('reads the MTA-STS record %j as valid: %s (RFC 8461 §3.1)', (record, valid) => {
    expect(readStsRecords([record])?.ok).toBe(valid);
  });

  it('refuses an MTA-STS policy that names its mode twice', () => {
    const policy =
      'version: STSv1\r\nmode: testing\r\nmode: enforce\r\nmax_age: 86400\r\nmx: mx.example.com\r\n';
    expect(parsePolicy(policy)).toEqual({ ok: false, reason: 'mode appears twice' });
  });

  it('reads a DKIM key record folded with a line break and tabs (RFC 6376 §3.2 FWS)', () => {
    const key = dkimKeyVectors.find((vector) => vector.keyType === 'ed25519')!.record;
    expect(readDkimKey(key.replace('; p=', ';\r\n\tp='))).toMatchObject({ status: 'found' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  defaultReadLimits,
  type DmarcAggregateReport,
  readReports,
} from '../../../src/reports/read/index.js';
import { aggregateXml, defaultMetadata, recordXml, utf8 } from './builders.js';

/**
 * DMARC aggregate reports as RFC 7489 appendix C and RFC 9990 write them and as receivers really
 * send them (docs/reports.md, "What is read"): the rules, one table each.
 */

async function read(xml: string | Uint8Array): Promise<DmarcAggregateReport> {
  const reports = await readReports(
    typeof xml === 'string' ? utf8(xml) : xml,
    'application/xml',
    defaultReadLimits,
  );
  expect(reports).toHaveLength(1);
  const [report] = reports;
  if (report?.kind !== 'dmarc') throw new Error('not an aggregate report');
  return report;
}

async function refusal(xml: string): Promise<unknown> {
  return readReports(utf8(xml), 'application/xml', defaultReadLimits).then(
    () => 'read',
    (error: unknown) => error,
  );
}

describe('values in any letter case', () => {
  it.each([
    ['Reject', 'PASS', 'Fail', 'reject', true, false],
    ['QUARANTINE', 'fail', 'Pass', 'quarantine', false, true],
    ['None', 'FAIL', 'FAIL', 'none', false, false],
  ])(
    'reads disposition %s, dkim %s, spf %s as %s',
    async (disposition, dkim, spf, expected, dkimAligned, spfAligned) => {
      const report = await read(aggregateXml({ records: [recordXml({ disposition, dkim, spf })] }));
      expect(report.rows[0]).toMatchObject({ disposition: expected, dkimAligned, spfAligned });
    },
  );

  it('lower-cases auth results, policy values and domains', async () => {
    const report = await read(
      aggregateXml({
        policy:
          '<domain>Example.COM.</domain><adkim>S</adkim><aspf>R</aspf><p>REJECT</p><sp>Quarantine</sp><testing>Y</testing>',
        records: [
          recordXml({
            identifiers:
              '<header_from>Example.COM</header_from><envelope_from>Bounce.Example.NET</envelope_from>',
            authResults:
              '<auth_results><dkim><domain>Example.COM</domain><selector>S1</selector><result>PASS</result></dkim><spf><domain>Bounce.Example.NET</domain><scope>MFROM</scope><result>SoftFail</result></spf></auth_results>',
          }),
        ],
      }),
    );
    expect(report.policy).toMatchObject({
      domain: 'example.com',
      p: 'reject',
      sp: 'quarantine',
      adkim: 's',
      aspf: 'r',
      testing: true,
    });
    expect(report.rows[0]).toMatchObject({
      headerFrom: 'example.com',
      envelopeFrom: 'bounce.example.net',
      dkim: [{ domain: 'example.com', selector: 'S1', result: 'pass' }],
      spf: [{ domain: 'bounce.example.net', scope: 'mfrom', result: 'softfail' }],
    });
  });
});

describe("a record's DMARC result", () => {
  it.each([
    ['pass', 'pass', true],
    ['pass', 'fail', true],
    ['fail', 'pass', true],
    ['fail', 'fail', false],
    ['', '', false],
  ])('policy_evaluated dkim %j and spf %j: pass is %s', async (dkim, spf, pass) => {
    const report = await read(aggregateXml({ records: [recordXml({ dkim, spf })] }));
    const row = report.rows[0]!;
    expect(row.dkimAligned || row.spfAligned).toBe(pass);
  });
});

describe('dispositions', () => {
  it.each([
    ['pass', 'none'],
    ['', 'none'],
    ['quarantine', 'quarantine'],
  ])("reads RFC 9990's or a missing disposition %j as %s", async (disposition, expected) => {
    const report = await read(aggregateXml({ records: [recordXml({ disposition })] }));
    expect(report.rows[0]!.disposition).toBe(expected);
  });

  it('refuses a disposition that is none of them, naming the record', async () => {
    const records = [recordXml(), recordXml({ disposition: 'discard' })];
    expect(await refusal(aggregateXml({ records }))).toMatchObject({
      code: 'invalid_report',
      reason: 'record 2: policy_evaluated/disposition "discard" is not none, quarantine or reject',
    });
  });
});

describe('missing optional elements', () => {
  it('reads a report with only the required elements, the rest null or empty', async () => {
    const report = await read(
      aggregateXml({
        metadata:
          '<org_name>receiver.example</org_name><report_id>r-2</report_id><date_range><begin>1700000000</begin><end>1700086399</end></date_range>',
        policy: '<domain>example.com</domain><p>none</p>',
        records: [
          '<record><row><source_ip>192.0.2.1</source_ip><count>1</count><policy_evaluated><disposition>none</disposition><dkim>fail</dkim><spf>pass</spf></policy_evaluated></row><identifiers><header_from>example.com</header_from></identifiers><auth_results></auth_results></record>',
          '<record><row><source_ip>192.0.2.2</source_ip><count>4</count><policy_evaluated/></row></record>',
        ],
      }),
    );
    expect(report.email).toBeNull();
    expect(report.policy).toEqual({
      domain: 'example.com',
      p: 'none',
      sp: null,
      np: null,
      pct: null,
      adkim: null,
      aspf: null,
      testing: null,
    });
    expect(report.rows).toEqual([
      expect.objectContaining({
        ip: '192.0.2.1',
        messages: 1,
        spfAligned: true,
        dkim: [],
        spf: [],
      }),
      {
        ip: '192.0.2.2',
        messages: 4,
        disposition: 'none',
        dkimAligned: false,
        spfAligned: false,
        reasons: [],
        headerFrom: null,
        envelopeFrom: null,
        envelopeTo: null,
        dkim: [],
        spf: [],
      },
    ]);
  });

  it('reads a report with no record as a report of no messages', async () => {
    expect((await read(aggregateXml({ records: [] }))).rows).toEqual([]);
  });
});

describe('several results and reasons', () => {
  it('keeps every DKIM and SPF result of a record in order, and those of a second auth_results', async () => {
    const dkim = (domain: string, result: string) =>
      `<dkim><domain>${domain}</domain><selector>s</selector><result>${result}</result></dkim>`;
    const report = await read(
      aggregateXml({
        records: [
          recordXml({
            authResults: `<auth_results>${dkim('a.example', 'pass')}${dkim('b.example', 'fail')}${dkim('c.example', 'temperror')}<spf><domain>helo.example</domain><scope>helo</scope><result>none</result></spf><spf><domain>mail.example</domain><scope>mfrom</scope><result>pass</result></spf></auth_results><auth_results>${dkim('d.example', 'neutral')}</auth_results>`,
          }),
        ],
      }),
    );
    expect(report.rows[0]!.dkim.map((result) => [result.domain, result.result])).toEqual([
      ['a.example', 'pass'],
      ['b.example', 'fail'],
      ['c.example', 'temperror'],
      ['d.example', 'neutral'],
    ]);
    expect(report.rows[0]!.spf.map((result) => [result.domain, result.scope])).toEqual([
      ['helo.example', 'helo'],
      ['mail.example', 'mfrom'],
    ]);
  });

  it('keeps every override reason, drops empty reason elements, leaves out results naming no domain', async () => {
    const report = await read(
      aggregateXml({
        records: [
          recordXml({
            evaluated:
              '<reason><type>Forwarded</type><comment>list</comment></reason><reason><type></type><comment></comment></reason><reason><type>local_policy</type></reason><reason/>',
            authResults:
              '<auth_results><dkim><domain></domain><result>none</result></dkim><spf><result>none</result></spf></auth_results>',
          }),
        ],
      }),
    );
    expect(report.rows[0]).toMatchObject({
      reasons: [
        { type: 'forwarded', comment: 'list' },
        { type: 'local_policy', comment: null },
      ],
      dkim: [],
      spf: [],
    });
  });
});

describe('namespaces, prefixes and extensions', () => {
  it.each([
    [
      'the RFC 9990 namespace',
      '<feedback xmlns="urn:ietf:params:xml:ns:dmarc-2.0">',
      '</feedback>',
    ],
    [
      'XML Schema instance attributes',
      '<feedback xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="x">',
      '</feedback>',
    ],
    [
      'a prefixed root',
      '<dmarc:feedback xmlns:dmarc="urn:ietf:params:xml:ns:dmarc-2.0">',
      '</dmarc:feedback>',
    ],
  ])('reads a report under %s', async (_, open, close) => {
    const report = await read(aggregateXml({ open, close }));
    expect(report).toMatchObject({ org: 'receiver.example', policy: { domain: 'example.com' } });
    expect(report.rows).toHaveLength(1);
  });

  it('reads prefixed elements throughout', async () => {
    const xml = aggregateXml({
      open: '<d:feedback xmlns:d="urn:ietf:params:xml:ns:dmarc-2.0">',
      close: '</d:feedback>',
    }).replace(/<(\/?)(?!d:|\?)([a-z_]+)>/g, '<$1d:$2>');
    expect(xml).toContain('<d:source_ip>');
    expect((await read(xml)).rows[0]).toMatchObject({ ip: '192.0.2.10', messages: 3 });
  });

  it("ignores RFC 9990's extensions at file and record level and its generator", async () => {
    const report = await read(
      aggregateXml({
        open: '<feedback xmlns="urn:ietf:params:xml:ns:dmarc-2.0" xmlns:ext="https://ext.example/arc">',
        metadata: `${defaultMetadata}<generator>Example Reporter 1.2</generator>`,
        policy:
          '<domain>example.com</domain><discovery_method>treewalk</discovery_method><p>quarantine</p><np>reject</np><testing>n</testing>',
        extension: '<extension><ext:arc-override>never</ext:arc-override></extension>',
        records: [
          recordXml({ extra: '<ext:arc-results><ext:chain>pass</ext:chain></ext:arc-results>' }),
        ],
      }),
    );
    expect(report.policy).toMatchObject({ p: 'quarantine', np: 'reject', testing: false });
    expect(report.rows[0]).toMatchObject({ ip: '192.0.2.10', messages: 3 });
  });
});

describe('text and encodings', () => {
  it('reads Latin-1 bytes under an ISO-8859-1 declaration', async () => {
    const xml = aggregateXml({
      prolog: '<?xml version="1.0" encoding="ISO-8859-1"?>',
      metadata: defaultMetadata.replace('receiver.example</org_name>', 'Réception SA</org_name>'),
    });
    const bytes = Uint8Array.from(xml, (character) => character.charCodeAt(0));
    expect((await read(bytes)).org).toBe('Réception SA');
  });

  it('reads bytes that are not UTF-8 under a UTF-8 declaration as U+FFFD, without failing', async () => {
    const xml = utf8(
      aggregateXml({
        records: [
          recordXml({ evaluated: '<reason><type>other</type><comment>§</comment></reason>' }),
        ],
      }),
    );
    const at = xml.indexOf(0xc2); // the first byte of §
    xml[at] = 0xff;
    expect((await read(xml)).rows[0]!.reasons[0]!.comment).toBe('\ufffd\ufffd');
  });

  it('reads a UTF-8 byte order mark, predefined entities, character references and CDATA', async () => {
    const report = await read(
      new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...utf8(
          aggregateXml({
            metadata: defaultMetadata.replace(
              'receiver.example</org_name>',
              'AT&amp;T &#233;&#x2713; &lt;mail&gt; &unknown;</org_name>',
            ),
            records: [
              recordXml({
                evaluated:
                  '<reason><type>other</type><comment><![CDATA[a <b> & c]]></comment></reason>',
              }),
            ],
          }),
        ),
      ]),
    );
    expect(report.org).toBe('AT&T é✓ <mail> &unknown;');
    expect(report.rows[0]!.reasons[0]!.comment).toBe('a <b> & c');
  });

  it('takes the report id out of the angle brackets some write around it', async () => {
    const report = await read(
      aggregateXml({ metadata: defaultMetadata.replace('r-1', '&lt;r-1@receiver.example&gt;') }),
    );
    expect(report.reportId).toBe('r-1@receiver.example');
  });
});

describe('source addresses', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::ffff:192.0.2.44', '192.0.2.44'],
    [' 198.51.100.7 ', '198.51.100.7'],
  ])('reads source_ip %j as %s', async (sourceIp, ip) => {
    const report = await read(aggregateXml({ records: [recordXml({ sourceIp })] }));
    expect(report.rows[0]!.ip).toBe(ip);
  });

  it.each([
    ['mail.example.com', 'record 2: row/source_ip "mail.example.com" is not an IP address'],
    ['192.0.2.256', 'record 2: row/source_ip "192.0.2.256" is not an IP address'],
    ['010.0.0.1', 'record 2: row/source_ip "010.0.0.1" is not an IP address'],
    ['', 'record 2: row/source_ip is missing'],
  ])('refuses the report whose record has source_ip %j', async (sourceIp, reason) => {
    const records = [recordXml(), recordXml({ sourceIp })];
    expect(await refusal(aggregateXml({ records }))).toMatchObject({
      code: 'invalid_report',
      reason,
    });
  });
});

describe('counts', () => {
  it.each(['0', '1', '007', '999999999999999'])('reads count %j', async (count) => {
    const report = await read(aggregateXml({ records: [recordXml({ count })] }));
    expect(report.rows[0]!.messages).toBe(Number(count));
  });

  it.each(['-1', '1.5', '1e3', 'many', '', '1000000000000000'])(
    'refuses the report whose record has count %j',
    async (count) => {
      expect(await refusal(aggregateXml({ records: [recordXml({ count })] }))).toMatchObject({
        code: 'invalid_report',
        reason: `record 1: row/count ${JSON.stringify(count)} is not a whole number of messages`,
      });
    },
  );
});

describe('what is not a report', () => {
  it.each([
    [
      'an HTML page',
      '<html><body>hello</body></html>',
      'no feedback element: not a DMARC aggregate report',
    ],
    [
      'a feedback without report_metadata',
      '<feedback><policy_published><domain>example.com</domain></policy_published></feedback>',
      'report_metadata is missing: not a DMARC aggregate report',
    ],
    [
      'no org_name nor email',
      aggregateXml({
        metadata: '<report_id>r</report_id><date_range><begin>1</begin><end>2</end></date_range>',
      }),
      'report_metadata/org_name is missing',
    ],
    [
      'no report_id',
      aggregateXml({
        metadata: '<org_name>o</org_name><date_range><begin>1</begin><end>2</end></date_range>',
      }),
      'report_metadata/report_id is missing',
    ],
    [
      'no begin',
      aggregateXml({
        metadata:
          '<org_name>o</org_name><report_id>r</report_id><date_range><end>2</end></date_range>',
      }),
      'report_metadata/date_range/begin is missing',
    ],
    [
      'a begin that is no time',
      aggregateXml({
        metadata:
          '<org_name>o</org_name><report_id>r</report_id><date_range><begin>yesterday</begin><end>2</end></date_range>',
      }),
      'report_metadata/date_range/begin "yesterday" is not a time in seconds since 1970',
    ],
    [
      'no policy domain',
      aggregateXml({ policy: '<p>none</p>' }),
      'policy_published/domain is missing',
    ],
    [
      'a record without a row',
      aggregateXml({ records: ['<record><identifiers/></record>'] }),
      'record 1: row is missing',
    ],
    ['XML cut short', aggregateXml().slice(0, 300), expect.stringMatching(/^not well-formed XML/)],
  ])('refuses %s', async (_, xml, reason) => {
    expect(await refusal(xml)).toMatchObject({ code: 'invalid_report', reason });
  });

  it('reads 1530133200.0 as a time, as some receivers write it', async () => {
    const report = await read(
      aggregateXml({ metadata: defaultMetadata.replace('1700000000', '1700000000.0') }),
    );
    expect(report.begin).toBe(1700000000);
  });
});

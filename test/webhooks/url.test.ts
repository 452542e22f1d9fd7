import { describe, expect, it } from 'vitest';
import type { DnsOutcome, QueryOptions, RecordType, Resolver } from '../../src/dns/index.js';
import { inAddressRanges, parseAddressRange } from '../../src/lib/address-ranges.js';
import { webhookAddress } from '../../src/webhooks/address.js';
import { checkWebhookUrl, parsePortRanges, reachableWith } from '../../src/webhooks/url.js';

/**
 * Where a webhook may point: http(s) only, never a non-public address (RFC 6890) unless the
 * operator allows its network, checked on the URL at creation and on every address its host name
 * resolves to at each delivery (here with an in-process resolver: the wire is not the point).
 */

const publicOnly = reachableWith(() => false);
const allowing = (...cidrs: string[]) => {
  const ranges = cidrs.map((cidr) => parseAddressRange(cidr)!);
  return reachableWith((address) => inAddressRanges(address, ranges));
};

describe('a webhook URL at creation', () => {
  it.each([
    'https://hooks.example.com/watch?token=x',
    'http://8.8.8.8:8080/hook',
    'https://[2a00:1450:4001:81a::200e]/hook',
    'https://hooks.example.com./trailing-dot',
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url, publicOnly)).toMatchObject({ ok: true });
  });

  it.each([
    ['file:///etc/passwd', /http or https/],
    ['ftp://hooks.example.com/', /http or https/],
    ['javascript:alert(1)', /http or https/],
    ['not a url', /not a URL/],
    ['http://10.0.0.1/hook', /10\.0\.0\.1, which is not a public address/],
    ['http://10.255.1.2:9000/', /not a public address/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
    ['http://127.0.0.1/', /not a public address/],
    ['http://100.64.0.1/', /not a public address/],
    ['http://192.168.1.1/', /not a public address/],
    ['http://192.0.2.1/', /not a public address/],
    ['http://224.0.0.1/', /not a public address/],
    ['http://0.0.0.0/', /not a public address/],
    // Numeric forms the URL parser reads as an IPv4 address, as every client would.
    ['http://2130706433/', /127\.0\.0\.1/],
    ['http://0x7f.1/', /127\.0\.0\.1/],
    ['http://[::1]/', /::1, which is not a public address/],
    ['http://[::ffff:127.0.0.1]/', /not a public address/],
    ['http://[::ffff:a00:1]/', /not a public address/],
    ['http://[fd12:3456::1]/', /not a public address/],
    ['http://[fe80::1]/', /not a public address/],
    ['http://[2001:db8::1]/', /not a public address/],
    ['http://[ff02::1]/', /not a public address/],
    ['http://localhost:8080/', /localhost, which is not a public host name/],
    ['http://metadata.internal/', /not a public host name/],
    ['http://printer/', /not a public host name/],
    ['https://user:pass@hooks.example.com/', /user name or password/],
    [`https://hooks.example.com/${'x'.repeat(2100)}`, /longer than 2048/],
  ])('refuses %s', (url, reason) => {
    const checked = checkWebhookUrl(url, publicOnly);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.reason).toMatch(reason);
  });

  it('applies the length limit to the URL as stored, after the parser percent-encodes it', () => {
    // 2,000 characters that each become 9 (three UTF-8 bytes, each %XX).
    const url = `https://hooks.example.com/${'€'.repeat(2000)}`;
    expect(url.length).toBeLessThan(2048);
    const checked = checkWebhookUrl(url, publicOnly);
    expect(checked.ok ? '' : checked.reason).toMatch(/longer than 2048/);
  });

  it.each(['http://localhost../', 'http://localhost.../hook', 'http://metadata.internal../'])(
    'normalises every trailing dot before the special-use names: refuses %s',
    (url) => {
      const checked = checkWebhookUrl(url, publicOnly);
      expect(checked.ok ? '' : checked.reason).toMatch(/not a public host name/);
    },
  );

  it.each([
    ['http://8.8.8.8:0/', 0],
    ['http://8.8.8.8:22/', 22],
    ['https://hooks.example.com:25/', 25],
    ['http://hooks.example.com:1023/', 1023],
  ])('refuses %s: a port other than 80, 443 or 1024 to 65535', (url, port) => {
    const checked = checkWebhookUrl(url, publicOnly);
    expect(checked.ok ? '' : checked.reason).toMatch(new RegExp(`port ${port}\\b`));
  });

  it.each([
    'http://8.8.8.8/',
    'https://8.8.8.8/',
    'http://8.8.8.8:443/',
    'http://8.8.8.8:1024/',
    'http://8.8.8.8:6379/',
    'https://8.8.8.8:65535/',
  ])('accepts %s by default', (url) => {
    expect(checkWebhookUrl(url, publicOnly).ok).toBe(true);
  });

  it('takes the ports WEBHOOK_ALLOW_PORTS names instead', () => {
    const ports = parsePortRanges(['443', '8000-8999'])!;
    expect(checkWebhookUrl('https://8.8.8.8/', publicOnly, ports).ok).toBe(true);
    expect(checkWebhookUrl('http://8.8.8.8:8080/', publicOnly, ports).ok).toBe(true);
    expect(checkWebhookUrl('http://8.8.8.8/', publicOnly, ports).ok).toBe(false);
    expect(checkWebhookUrl('http://8.8.8.8:9000/', publicOnly, ports).ok).toBe(false);
  });

  it('accepts a non-public address inside WEBHOOK_ALLOW_NETWORKS, and only there', () => {
    const reachable = allowing('10.0.0.0/8', 'fd00::/8');
    expect(checkWebhookUrl('http://10.1.2.3/hook', reachable).ok).toBe(true);
    expect(checkWebhookUrl('http://[fd00::5]/hook', reachable).ok).toBe(true);
    expect(checkWebhookUrl('http://[::ffff:10.1.2.3]/hook', reachable).ok).toBe(true);
    expect(checkWebhookUrl('http://192.168.1.1/hook', reachable).ok).toBe(false);
    expect(checkWebhookUrl('http://169.254.169.254/', reachable).ok).toBe(false);
  });
});

/** An in-process resolver answering A and AAAA from a table. */
function resolverOf(table: Record<string, { A?: string[]; AAAA?: string[] }>) {
  const asked: { name: string; options?: QueryOptions }[] = [];
  const resolver: Resolver = {
    async query<T extends RecordType>(name: string, type: T, options?: QueryOptions) {
      asked.push({ name, ...(options ? { options } : {}) });
      const records = table[name]?.[type as 'A' | 'AAAA'];
      const outcome = records
        ? { status: 'answer' as const, records, ttl: 60 }
        : { status: 'nxdomain' as const };
      return outcome as DnsOutcome<never>;
    },
  };
  return { resolver, asked };
}

describe('a webhook address at delivery', () => {
  const { resolver, asked } = resolverOf({
    'hooks.example.com': { A: ['8.8.4.4'], AAAA: ['2a00:1450:4001:81a::200e'] },
    'inside.example.com': { A: ['10.0.0.5'] },
    'both.example.com': { A: ['8.8.4.4', '192.168.1.10'] },
    'mapped.example.com': { AAAA: ['::ffff:127.0.0.1'] },
    'allowed.example.com': { A: ['127.0.0.1'] },
  });

  it('is the first address of a public name, asked past the DNS cache', async () => {
    expect(await webhookAddress('https://hooks.example.com/x', resolver, publicOnly)).toEqual({
      ok: true,
      address: '8.8.4.4',
    });
    expect(asked.filter((query) => query.name === 'hooks.example.com')).toHaveLength(2);
    expect(asked.every((query) => query.options?.bypassCache === true)).toBe(true);
  });

  it.each([
    [
      'a name resolving to a private address',
      'http://inside.example.com/',
      /resolves to 10\.0\.0\.5/,
    ],
    [
      'a name with one private address among public ones',
      'http://both.example.com/',
      /192\.168\.1\.10/,
    ],
    [
      'a name resolving to an IPv4-mapped loopback',
      'http://mapped.example.com/',
      /::ffff:127\.0\.0\.1/,
    ],
    ['a literal private address', 'http://10.0.0.1/', /10\.0\.0\.1/],
  ])('refuses %s', async (_, url, reason) => {
    const address = await webhookAddress(url, resolver, publicOnly);
    expect(address).toMatchObject({ ok: false, outcome: 'refused' });
    expect(address.ok ? '' : address.reason).toMatch(reason);
  });

  it('fails, without refusing, a name that does not resolve', async () => {
    expect(await webhookAddress('http://gone.example.com/', resolver, publicOnly)).toMatchObject({
      ok: false,
      outcome: 'failed',
    });
  });

  it('lets a name reach an allowed network', async () => {
    expect(
      await webhookAddress('http://allowed.example.com:8080/', resolver, allowing('127.0.0.0/8')),
    ).toEqual({ ok: true, address: '127.0.0.1' });
  });
});

import { describe, expect, inject, it } from 'vitest';
import { createDohTransport } from '../../src/dns/doh-transport.js';
import worker from '../../src/worker.js';

/**
 * Inside workerd: the DNS codec (dns-packet on nodejs_compat's Buffer) and the DoH transport
 * over the runtime's own fetch, against the fixture DoH endpoint on 127.0.0.1, and the spike
 * worker's routes.
 */

const dohUrl = inject('dohUrl');
const base = 'http://edge.test/tools/ip-reputation';

describe('the DoH transport inside workerd', () => {
  it('runs in the Workers runtime, not in Node', () => {
    const runtime = globalThis as { navigator?: { userAgent?: string } };
    expect(runtime.navigator?.userAgent).toBe('Cloudflare-Workers');
  });

  it('resolves A, TXT and MX records, following a CNAME, with their TTL', async () => {
    const transport = createDohTransport({ endpoints: [dohUrl], timeoutMs: 2000, retries: 0 });
    expect(await transport.query('www.example.org', 'A')).toEqual({
      status: 'answer',
      records: ['192.0.2.10'],
      ttl: 120,
    });
    expect(await transport.query('mail.example.org', 'TXT')).toMatchObject({
      records: ['v=spf1 ip4:192.0.2.10 -all'],
    });
    expect(await transport.query('mail.example.org', 'MX')).toMatchObject({
      records: [{ exchange: 'mail.example.org', priority: 10 }],
    });
  });

  it('reports nxdomain and servfail as on Node', async () => {
    const transport = createDohTransport({ endpoints: [dohUrl], timeoutMs: 2000, retries: 0 });
    expect(await transport.query('nowhere.example.org', 'A')).toEqual({ status: 'nxdomain' });
    expect(await transport.query('a.servfail.test', 'A')).toEqual({ status: 'servfail' });
  });
});

describe('the worker', () => {
  it('answers its health route', async () => {
    const response = await worker.fetch(new Request(`${base}/edge/v1/health`), {});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', runtime: 'workers' });
  });

  it('resolves through DOH_URL', async () => {
    const response = await worker.fetch(
      new Request(`${base}/edge/v1/resolve?name=mail.example.org&type=A`),
      { DOH_URL: dohUrl },
    );
    expect(await response.json()).toEqual({ status: 'answer', records: ['192.0.2.10'], ttl: 120 });
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPolicyFetcher, type PolicyFetchOptions } from '../../../src/node/probes/index.js';
import {
  issueCertificate,
  type Listening,
  type Pem,
  servePolicy,
  startPolicyServer,
  startTarpit,
} from '../../../fixtures/mail-world.js';

const ca = inject('mailCa');
const servers: Listening[] = [];
let certificate: Pem;
const host = 'mta-sts.example.net';
const path = '/.well-known/mta-sts.txt';
const policy = 'version: STSv1\r\nmode: enforce\r\nmx: mx.example.net\r\nmax_age: 86400\r\n';

beforeAll(async () => {
  certificate = await issueCertificate(ca, [host]);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function fetchFrom(
  handler: Parameters<typeof startPolicyServer>[0]['handler'],
  overrides: Partial<PolicyFetchOptions> & { tls?: Pem; asHost?: string } = {},
) {
  const server = await startPolicyServer({ tls: overrides.tls ?? certificate, handler });
  servers.push(server);
  const fetcher = createPolicyFetcher({
    port: server.port,
    timeoutMs: 2000,
    reachable: (address) => address.startsWith('127.'),
    ...overrides,
  });
  const result = await fetcher.fetch({
    host: overrides.asHost ?? host,
    address: '127.0.0.1',
    path,
    operator: true,
    signal: new AbortController().signal,
  });
  return { result, server };
}

describe('the MTA-STS policy fetch', () => {
  it('GETs the policy from the pinned address, with the host as SNI and Host', async () => {
    const { result, server } = await fetchFrom(servePolicy(policy));
    expect(result).toEqual({ ok: true, body: policy, contentType: 'text/plain' });
    expect(server.requests()).toEqual([`${host}:${server.port} ${path}`]);
  });

  it('does not follow a redirect (RFC 8461 §3.3)', async () => {
    const { result, server } = await fetchFrom((_request, response) => {
      response.writeHead(301, { location: `https://${host}/elsewhere` });
      response.end();
    });
    expect(result).toEqual({ ok: false, reason: expect.stringMatching(/^HTTP 301: a redirect/) });
    expect(server.requests()).toHaveLength(1);
  });

  it('reports a status other than 200', async () => {
    const { result } = await fetchFrom((_request, response) => {
      response.writeHead(404);
      response.end('no');
    });
    expect(result).toEqual({ ok: false, reason: 'HTTP 404' });
  });

  it('stops reading past 64 KB', async () => {
    const { result } = await fetchFrom(servePolicy(`${policy}${'# padding\r\n'.repeat(7000)}`));
    expect(result).toEqual({ ok: false, reason: 'a policy over 64 KB' });
  });

  it('refuses a certificate that is not valid for the policy host, with Node’s reason', async () => {
    const { result } = await fetchFrom(servePolicy(policy), { asHost: 'mta-sts.other.example' });
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/altnames|does not match/i),
    });
  });

  it('refuses an expired certificate', async () => {
    const expired = await issueCertificate(ca, [host], {
      notBefore: new Date(Date.now() - 100 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const { result } = await fetchFrom(servePolicy(policy), { tls: expired });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/expired/i) });
  });

  it('gives up on a server that never answers within its time bound', async () => {
    const tarpit = await startTarpit();
    servers.push(tarpit);
    const started = performance.now();
    const result = await createPolicyFetcher({
      port: tarpit.port,
      timeoutMs: 400,
      reachable: () => true,
    }).fetch({
      host,
      address: '127.0.0.1',
      path,
      operator: true,
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ ok: false, reason: 'no whole answer within 400 ms' });
    expect(performance.now() - started).toBeLessThan(1200);
  });

  it('never connects to an address the rule refuses', async () => {
    const { result, server } = await fetchFrom(servePolicy(policy), { reachable: () => false });
    expect(result).toEqual({ ok: false, reason: '127.0.0.1 is not a public address' });
    expect(server.requests()).toEqual([]);
  });
});

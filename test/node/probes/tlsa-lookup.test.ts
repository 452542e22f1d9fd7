import { type AddressInfo, createServer, type Server } from 'node:net';
import dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { createTlsaLookup, type DnsServerAddress } from '../../../src/node/probes/index.js';
import {
  type ScriptedDnsServer,
  type ScriptedQuery,
  startScriptedDnsServer,
} from '../../../fixtures/scripted-dns-server.js';

const name = '_25._tcp.mx.example.net';
const certificate = Buffer.from(
  '8cb0fc6c527506a053f4f14c8464bebbd6dede2738d11468dd953d7d6a3021f1',
  'hex',
);
const tlsa: dnsPacket.Answer = {
  type: 'TLSA',
  name,
  ttl: 300,
  data: { usage: 3, selector: 1, matchingType: 1, certificate },
};
const started: ScriptedDnsServer[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

function answer(
  query: ScriptedQuery,
  options: { ad?: boolean; rcode?: number; tc?: boolean; answers?: dnsPacket.Answer[] },
) {
  return dnsPacket.encode({
    type: 'response',
    id: query.packet.id ?? 0,
    flags:
      dnsPacket.RECURSION_DESIRED |
      dnsPacket.RECURSION_AVAILABLE |
      (options.ad ? dnsPacket.AUTHENTIC_DATA : 0) |
      (options.tc ? dnsPacket.TRUNCATED_RESPONSE : 0) |
      (options.rcode ?? 0),
    questions: query.packet.questions ?? [],
    answers: options.answers ?? [],
  });
}

async function serve(
  onQuery: (query: ScriptedQuery) => void,
): Promise<{ server: ScriptedDnsServer; address: DnsServerAddress }> {
  const server = await startScriptedDnsServer({ onQuery });
  started.push(server);
  const port = Number(server.address.split(':')[1]);
  return { server, address: { host: '127.0.0.1', port, family: 4 } };
}

/**
 * Binds the TCP server to a free port and the scripted UDP server to the same number. Another
 * process may hold that number for UDP, so a taken pair is given back and another one tried.
 */
async function listenOnOnePort(
  tcp: Server,
  onQuery: (query: ScriptedQuery) => void,
): Promise<DnsServerAddress> {
  for (let attempt = 0; ; attempt += 1) {
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(0, '127.0.0.1', () => {
        tcp.off('error', reject);
        resolve();
      });
    });
    const { port } = tcp.address() as AddressInfo;
    try {
      const server = await startScriptedDnsServer({ port, onQuery });
      started.push(server);
      return { host: '127.0.0.1', port, family: 4 };
    } catch (error) {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      if (attempt === 9) throw error;
    }
  }
}

const signal = () => new AbortController().signal;

describe('the TLSA lookup', () => {
  it('asks with AD and DO set, and reports the records with the AD bit of the answer', async () => {
    const { server, address } = await serve((query) =>
      query.reply(answer(query, { ad: true, answers: [tlsa] })),
    );
    const result = await createTlsaLookup({ servers: [address], timeoutMs: 500 })(name, signal());
    expect(result).toEqual({
      status: 'answer',
      authenticated: true,
      records: [{ usage: 3, selector: 1, matching_type: 1, data: certificate.toString('hex') }],
    });
    const [query] = server.queries;
    expect((query!.packet.flags ?? 0) & dnsPacket.AUTHENTIC_DATA).not.toBe(0);
    const opt = query!.packet.additionals?.find(
      (record) => record.type === 'OPT',
    ) as dnsPacket.OptAnswer;
    expect(opt.flag_do).toBe(true);
  });

  it('reports an answer without the AD bit as not authenticated', async () => {
    const { address } = await serve((query) => query.reply(answer(query, { answers: [tlsa] })));
    expect(
      await createTlsaLookup({ servers: [address], timeoutMs: 500 })(name, signal()),
    ).toMatchObject({
      status: 'answer',
      authenticated: false,
    });
  });

  it('reports NXDOMAIN and NODATA with their AD bit', async () => {
    const nx = await serve((query) => query.reply(answer(query, { ad: true, rcode: 3 })));
    expect(
      await createTlsaLookup({ servers: [nx.address], timeoutMs: 500 })(name, signal()),
    ).toEqual({
      status: 'nxdomain',
      authenticated: true,
    });
    const empty = await serve((query) => query.reply(answer(query, {})));
    expect(
      await createTlsaLookup({ servers: [empty.address], timeoutMs: 500 })(name, signal()),
    ).toEqual({
      status: 'nodata',
      authenticated: false,
    });
  });

  it('asks again over TCP when the UDP answer is truncated (RFC 7766 §5)', async () => {
    const tcp = createServer((socket) => {
      socket.on('data', (bytes: Buffer) => {
        const packet = dnsPacket.decode(bytes.subarray(2));
        const response = answer({ packet } as ScriptedQuery, { ad: true, answers: [tlsa] });
        const framed = Buffer.alloc(2 + response.length);
        framed.writeUInt16BE(response.length, 0);
        response.copy(framed, 2);
        socket.end(framed);
      });
    });
    const address = await listenOnOnePort(tcp, (query) => query.reply(answer(query, { tc: true })));
    try {
      expect(
        await createTlsaLookup({ servers: [address], timeoutMs: 500 })(name, signal()),
      ).toMatchObject({
        status: 'answer',
        authenticated: true,
      });
    } finally {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });

  it('tries the next server when one does not answer, each within its time bound', async () => {
    const silent = await serve(() => {});
    const answering = await serve((query) =>
      query.reply(answer(query, { ad: true, answers: [tlsa] })),
    );
    const began = performance.now();
    const result = await createTlsaLookup({
      servers: [silent.address, answering.address],
      timeoutMs: 300,
    })(name, signal());
    expect(result).toMatchObject({ status: 'answer' });
    expect(performance.now() - began).toBeLessThan(900);
  });
});

import { createSocket } from 'node:dgram';
import dns from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDgramTransport,
  type DgramTransport,
  type DgramTransportOptions,
} from '../../../src/node/dns/dgram-transport.js';
import { describeTransportOutcomes, transportWorld } from '../../dns/transport-outcomes.js';
import {
  type FixtureDnsServer,
  type FixtureZone,
  startFixtureDnsServer,
} from '../../../fixtures/dns-server.js';
import {
  responseTo,
  type ScriptedQuery,
  startScriptedDnsServer,
} from '../../../fixtures/scripted-dns-server.js';
import { importOf, runChildScript } from '../../support/child-script.js';

/**
 * The UDP transport on node:dgram against the fixture DNS server on 127.0.0.1 (the outcomes every
 * transport shares, forged answers, truncation), and against servers scripted per test for what
 * only the wire shows: the bytes of a query, an answer to the second try only, a malformed answer.
 */

const zones: FixtureZone[] = [
  ...transportWorld,
  {
    origin: 'forged.test',
    forge: true,
    latencyMs: 30,
    records: { 'a.forged.test': { A: ['192.0.2.50'] }, 't.forged.test': { TXT: ['truth'] } },
  },
  {
    origin: 'sizes.test',
    records: {
      // Over 512 octets, under EDNS0's 1232: one datagram with EDNS, TC without.
      'medium.sizes.test': { TXT: ['m'.repeat(1000)] },
      // Over 1232: truncated even with EDNS, then asked over TCP.
      'large.sizes.test': { TXT: ['l'.repeat(3000)] },
    },
  },
];

let server: FixtureDnsServer;
let other: FixtureDnsServer;
let transport: DgramTransport;

function dgramTransport(options: Partial<DgramTransportOptions> = {}): DgramTransport {
  return createDgramTransport({
    servers: [server.address],
    timeoutMs: 1000,
    retries: 0,
    ...options,
  });
}

beforeAll(async () => {
  [server, other] = await Promise.all([
    startFixtureDnsServer({ zones }),
    startFixtureDnsServer({
      zones: [{ origin: 'example.org', records: { 'mail.example.org': { A: ['192.0.2.99'] } } }],
    }),
  ]);
  transport = dgramTransport();
});

afterAll(async () => {
  transport.close();
  await Promise.all([server.close(), other.close()]);
});

/** A UDP port nothing listens on: bound once to learn a free one, then closed. */
async function closedPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** Queries the fixture server received since `before`. */
const askedSince = (before: number) => server.queries.slice(before);

describeTransportOutcomes('the dgram transport', () => transport);

describe('the dgram transport, answers', () => {
  it('answers a name the wire cannot carry as servfail without sending it', async () => {
    const before = server.queries.length;
    expect(await transport.query(`${'x'.repeat(64)}.example.org`, 'A')).toEqual({
      status: 'servfail',
    });
    expect(askedSince(before)).toEqual([]);
  });

  it('frees every ID once its query is answered', async () => {
    await Promise.all(
      ['mail.example.org', 'nowhere.example.org', 'a.servfail.test'].map((name) =>
        transport.query(name, 'A'),
      ),
    );
    expect(transport.waiting()).toBe(0);
  });
});

describe('the dgram transport, forged answers (RFC 5452 §3)', () => {
  it('ignores answers with another ID, about another question or from another port, and takes the real one', async () => {
    const before = server.queries.length;
    expect(await transport.query('a.forged.test', 'A')).toEqual({
      status: 'answer',
      records: ['192.0.2.50'],
      ttl: 300,
    });
    expect(await transport.query('t.forged.test', 'TXT')).toMatchObject({ records: ['truth'] });
    // Each asked once: the forgeries neither ended the query nor made it ask again.
    expect(askedSince(before)).toEqual([
      { name: 'a.forged.test', type: 'A' },
      { name: 't.forged.test', type: 'TXT' },
    ]);
  });
});

describe('the dgram transport, on the wire', () => {
  it('sends a recursive query with a random ID and an EDNS0 OPT of 1232 octets (RFC 6891)', async () => {
    const scripted = await startScriptedDnsServer({
      onQuery: (query) => query.reply(responseTo(query.packet, [], 3)),
    });
    try {
      const asking = dgramTransport({ servers: [scripted.address] });
      for (let i = 0; i < 4; i++) await asking.query('mail.example.org', 'MX');
      const [first] = scripted.queries;
      expect(first?.packet).toMatchObject({
        type: 'query',
        flag_rd: true,
        questions: [{ name: 'mail.example.org', type: 'MX', class: 'IN' }],
        answers: [],
        authorities: [],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232, ednsVersion: 0 }],
      });
      // Four draws of 16 bits all equal: one chance in 2^48, or no randomness at all.
      expect(new Set(scripted.queries.map((query) => query.packet.id)).size).toBeGreaterThan(1);
      asking.close();
    } finally {
      await scripted.close();
    }
  });

  it('takes a 1,000-octet answer in one datagram: EDNS0 lets it past 512 octets', async () => {
    const before = server.queries.length;
    expect(await transport.query('medium.sizes.test', 'TXT')).toMatchObject({
      records: ['m'.repeat(1000)],
    });
    expect(askedSince(before)).toHaveLength(1);
  });

  it('asks again over TCP when the answer comes back truncated (RFC 1035 §4.2.1, RFC 7766)', async () => {
    const before = server.queries.length;
    expect(await transport.query('large.sizes.test', 'TXT')).toMatchObject({
      status: 'answer',
      records: ['l'.repeat(3000)],
    });
    // Over UDP (TC), then over TCP on the same port.
    expect(askedSince(before)).toEqual([
      { name: 'large.sizes.test', type: 'TXT' },
      { name: 'large.sizes.test', type: 'TXT' },
    ]);
  });

  it('reports an answer that echoes the question but cannot be read as servfail', async () => {
    const scripted = await startScriptedDnsServer({
      onQuery: (query) => {
        const response = responseTo(query.packet, [
          { name: 'mail.example.org', type: 'A', ttl: 60, data: '192.0.2.1' },
        ]);

        // Cut inside the answer's address.
        query.reply(response.subarray(0, response.length - 2));
      },
    });
    try {
      const asking = dgramTransport({ servers: [scripted.address] });
      expect(await asking.query('mail.example.org', 'A')).toEqual({ status: 'servfail' });
      asking.close();
    } finally {
      await scripted.close();
    }
  });

  it('asks a server on IPv6 ([::1]:port)', async () => {
    const scripted = await startScriptedDnsServer({
      family: 6,
      onQuery: (query) =>
        query.reply(
          responseTo(query.packet, [
            { name: 'mail.example.org', type: 'AAAA', ttl: 60, data: '2001:db8::25' },
          ]),
        ),
    });
    try {
      const asking = dgramTransport({ servers: [scripted.address] });
      expect(await asking.query('mail.example.org', 'AAAA')).toEqual({
        status: 'answer',
        records: ['2001:db8::25'],
        ttl: 60,
      });
      asking.close();
    } finally {
      await scripted.close();
    }
  });
  it('sends a fan-out of queries in one burst and answers each of them', async () => {
    const before = server.queries.length;
    const names = ['one', 'two', 'three', 'four', 'five'].map((label) => `${label}.forged.test`);
    const outcomes = await Promise.all(names.map((name) => transport.query(name, 'A')));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(names.map(() => 'nxdomain'));
    expect(
      askedSince(before)
        .map((query) => query.name)
        .sort(),
    ).toEqual([...names].sort());
  });

  it('closes cleanly between asking and the burst leaving: the query answers timeout', async () => {
    const closing = dgramTransport();
    // Its sockets (8 to the server, taken in turn) connected first, so the next datagram waits in
    // the burst, not for a connect.
    await Promise.all(Array.from({ length: 8 }, () => closing.query('mail.example.org', 'A')));
    const pending = closing.query('mail.example.org', 'AAAA');
    closing.close();
    await expect(pending).resolves.toEqual({ status: 'timeout' });
  });
});

describe('the dgram transport, timeouts and retries', () => {
  it('sends the query again after a timeout, DNS_RETRIES times, then reports a timeout', async () => {
    const before = server.queries.length;
    const impatient = dgramTransport({ timeoutMs: 100, retries: 2 });
    expect(await impatient.query('b.dropped.test', 'A')).toEqual({ status: 'timeout' });
    expect(askedSince(before)).toHaveLength(3);
    expect(impatient.waiting()).toBe(0);
    impatient.close();
  });

  it("waits by a query's own timeoutMs instead of the transport's, on every attempt", async () => {
    const before = server.queries.length;
    // The transport alone would wait 20 s here: the test's own time-out fails it then.
    const patient = dgramTransport({ timeoutMs: 10_000, retries: 1 });
    expect(await patient.query('b.dropped.test', 'A', { timeoutMs: 100 })).toEqual({
      status: 'timeout',
    });
    expect(askedSince(before)).toHaveLength(2);
    expect(patient.waiting()).toBe(0);
    patient.close();
  });

  it('takes the answer to a retry when the first try got none', async () => {
    const scripted = await startScriptedDnsServer({
      onQuery: (query: ScriptedQuery) => {
        if (scripted.queries.length < 2) return;
        query.reply(
          responseTo(query.packet, [
            { name: 'mail.example.org', type: 'A', ttl: 60, data: '192.0.2.7' },
          ]),
        );
      },
    });
    try {
      const asking = dgramTransport({ servers: [scripted.address], timeoutMs: 100, retries: 1 });
      expect(await asking.query('mail.example.org', 'A')).toMatchObject({
        records: ['192.0.2.7'],
      });
      expect(scripted.queries).toHaveLength(2);
      asking.close();
    } finally {
      await scripted.close();
    }
  });

  it('gives up when the caller’s signal aborts, answering timeout and freeing the ID', async () => {
    const patient = dgramTransport({ timeoutMs: 10_000 });
    const controller = new AbortController();
    const before = server.queries.length;
    const outcome = patient.query('a.slow.test', 'A', { signal: controller.signal });
    await expect.poll(() => askedSince(before)).toHaveLength(1);
    expect(patient.waiting()).toBe(1);
    controller.abort();
    expect(await outcome).toEqual({ status: 'timeout' });
    expect(patient.waiting()).toBe(0);
    patient.close();
  });

  it('sends nothing when the caller’s signal has already aborted', async () => {
    const before = server.queries.length;
    expect(
      await dgramTransport({ retries: 3 }).query('mail.example.org', 'A', {
        signal: AbortSignal.abort(),
      }),
    ).toEqual({ status: 'timeout' });
    expect(askedSince(before)).toEqual([]);
  });
});

describe('the dgram transport, servers', () => {
  it('asks another server when a query names its servers', async () => {
    const before = { server: server.queries.length, other: other.queries.length };
    expect(
      await transport.query('mail.example.org', 'A', { servers: [other.address] }),
    ).toMatchObject({ status: 'answer', records: ['192.0.2.99'] });
    expect(other.queries.length - before.other).toBe(1);
    expect(server.queries.length - before.server).toBe(0);
    expect(await transport.query('mail.example.org', 'A')).toMatchObject({
      records: ['192.0.2.10', '192.0.2.11'],
    });
  });

  it('asks the system’s resolvers when no server is configured', async () => {
    const system = dns.getServers();
    dns.setServers([server.address]);
    try {
      const defaults = createDgramTransport({ servers: [], timeoutMs: 1000, retries: 0 });
      expect(await defaults.query('mail.example.org', 'A')).toMatchObject({
        records: ['192.0.2.10', '192.0.2.11'],
      });
      defaults.close();
    } finally {
      dns.setServers(system);
    }
  });

  it('reports a server on a closed port as a timeout as soon as the ICMP unreachable comes, not after its timeout', async () => {
    // An attempt timeout past the test's own: only the ICMP error can end this query in time.
    const dead = dgramTransport({
      servers: [`127.0.0.1:${await closedPort()}`],
      timeoutMs: 60_000,
      retries: 1,
    });
    expect(await dead.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
    // The socket error neither crashed the process nor broke the transport.
    expect(await dead.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
    dead.close();
  });

  it('fails over to the second server when the first cannot be reached, and stays there', async () => {
    const pair = dgramTransport({
      servers: [`127.0.0.1:${await closedPort()}`, server.address],
      timeoutMs: 60_000,
      retries: 1,
    });
    expect(await pair.query('mail.example.org', 'A')).toMatchObject({ status: 'answer' });
    const before = server.queries.length;
    // With no retries left to fail over with, the next query still gets its answer: it starts at the second.
    expect(await pair.query('mail.example.org', 'AAAA')).toMatchObject({ status: 'answer' });
    expect(askedSince(before)).toHaveLength(1);
    pair.close();
  });

  it('rejects a query naming a server that is no address (a bug, not a DNS outcome)', async () => {
    await expect(
      transport.query('mail.example.org', 'A', { servers: ['ns1.example'] }),
    ).rejects.toThrow(/not a DNS server address/);
  });
});

describe('the dgram transport, its sockets', () => {
  it('answers every later query timeout once closed, and those waiting at the close too', async () => {
    const closing = dgramTransport({ timeoutMs: 10_000 });
    const before = server.queries.length;
    const waiting = closing.query('a.slow.test', 'A');
    await expect.poll(() => askedSince(before)).toHaveLength(1);
    closing.close();
    expect(await waiting).toEqual({ status: 'timeout' });
    expect(await closing.query('mail.example.org', 'A')).toEqual({ status: 'timeout' });
  });

  it('never holds the process open: a process that used it exits without closing it', async () => {
    const child = await runChildScript([
      importOf('createDgramTransport', '../../../src/node/dns/index.ts', import.meta.url),
      `const transport = createDgramTransport({ servers: ['${server.address}'], timeoutMs: 5000, retries: 0 });`,
      `console.log(JSON.stringify(await transport.query('mail.example.org', 'A')));`,
    ]);
    // Killed at 15 s had something held it open.
    expect(child).toMatchObject({ code: 0, signal: null });
    expect(JSON.parse(child.output)).toMatchObject({ records: ['192.0.2.10', '192.0.2.11'] });
  });

  it('survives a flood of datagrams that answer nothing, and still takes the answer', async () => {
    const flooding = await startScriptedDnsServer({
      onQuery: (query) => {
        const { packet } = query;
        // Stray responses under every other ID, malformed ones, then the answer.
        for (let id = 0; id < 2000; id++) {
          if (id !== packet.id) query.reply(responseTo({ ...packet, id }, [], 3));
        }
        query.reply(Buffer.from([1, 2, 3]));
        query.reply(Buffer.alloc(600, 0xff));
        query.reply(
          responseTo(packet, [{ name: 'mail.example.org', type: 'A', ttl: 60, data: '192.0.2.8' }]),
        );
      },
    });
    try {
      const asking = dgramTransport({ servers: [flooding.address] });
      expect(await asking.query('mail.example.org', 'A')).toMatchObject({
        records: ['192.0.2.8'],
      });
      asking.close();
    } finally {
      await flooding.close();
    }
  });
});

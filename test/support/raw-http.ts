import { request } from 'node:http';

/**
 * A request through node:http, which (unlike fetch) neither decompresses the body nor hides
 * Content-Length, nor sets Accept-Encoding or Host itself: for the tests of what goes on the wire.
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    localAddress?: string;
    body?: string;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      // From another address of this machine (all of 127/8 is loopback on Linux), a connection of
      // its own: another client as the server counts them.
      ...(options.localAddress ? { localAddress: options.localAddress, agent: false } : {}),
    });
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: Buffer.concat(chunks),
        }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

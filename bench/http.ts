import { Agent, request } from 'node:http';

/** A keep-alive HTTP/1.1 client with little overhead of its own, for sequential and pooled requests. */

export interface HttpAnswer {
  status: number;
  body: Buffer;
}

export interface HttpClient {
  get(url: string): Promise<HttpAnswer>;
  postJson(url: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
  close(): void;
}

const requestTimeoutMs = 30_000;

export function createHttpClient(maxSockets: number): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  function send(
    method: string,
    url: string,
    body?: string,
    extra: Record<string, string> = {},
  ): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...extra };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const req = request(url, { method, agent, headers, timeout: requestTimeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
      req.on('error', reject);
      req.end(body);
    });
  }
  return {
    get: (url) => send('GET', url),
    postJson: (url, body, headers) => send('POST', url, JSON.stringify(body), headers),
    close: () => agent.destroy(),
  };
}

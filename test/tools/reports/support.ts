import { assertAnswerDocumented } from '../../support/documented.js';
import { basePath, type TestService } from '../../support/service.js';

export {
  type Aggregate,
  aggregateXml,
  gzipped,
  reportMessage,
  type Row,
  type TlsSpec,
  tlsJson,
} from '../../../fixtures/report-files.js';

/**
 * What the reports route suites share: the reports of fixtures/report-files.ts, an inbox made over
 * HTTP, and the requests only its key may make, every JSON answer checked against the route's
 * document.
 */

export interface CreatedInbox {
  id: string;
  domain: string;
  key: string;
  view_url: string;
  address: string | null;
  verified: boolean;
  suggested: {
    dmarc: { name: string; current: string | null; value: string | null; change: string | null };
    tls_rpt: { name: string; current: string | null; value: string | null; change: string | null };
  } | null;
  authorization: {
    needed: boolean;
    authorized: boolean | null;
    record: { name: string; type: string; value: string } | null;
    wildcard: string | null;
    detail: string;
  } | null;
  dailyRemaining: number;
}

/** A request with any method, JSON answers checked against the route's documented schema. */
export async function send(
  service: TestService,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: {
    body?: unknown;
    /** The body's bytes as they are, with this Content-Type. */
    raw?: { bytes: Uint8Array | string; type?: string };
    key?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const json = options.body !== undefined;
  const response = await service.fetch(service.url(path), {
    method,
    headers: {
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...(options.raw?.type ? { 'content-type': options.raw.type } : {}),
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      ...options.headers,
    },
    ...(json ? { body: JSON.stringify(options.body) } : {}),
    ...(options.raw ? { body: options.raw.bytes as RequestInit['body'] } : {}),
  });
  if (/^application\/json/.test(response.headers.get('content-type') ?? '')) {
    assertAnswerDocumented(
      service.app,
      method,
      `${basePath}${path.split('?')[0]}`,
      response.status,
      await response.clone().json(),
    );
  }
  return response;
}

/** POST /reports/v1, which must answer 201. */
export async function createInbox(
  service: TestService,
  body: object,
  headers: Record<string, string> = {},
): Promise<CreatedInbox> {
  const response = await send(service, 'POST', '/reports/v1', { body, headers });
  if (response.status !== 201) {
    throw new Error(`POST /reports/v1: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as CreatedInbox;
}

/** POST /{id}/upload of `bytes` as `type`. */
export function upload(
  service: TestService,
  inbox: { id: string; key: string },
  bytes: Uint8Array | string,
  type: string,
): Promise<Response> {
  return send(service, 'POST', `/reports/v1/${inbox.id}/upload`, {
    raw: { bytes, type },
    key: inbox.key,
  });
}

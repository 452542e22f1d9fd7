import { assertAnswerDocumented } from '../../support/documented.js';
import type { CreatedWatch } from '../../support/responses.js';
import { basePath, type TestService } from '../../support/service.js';

/** What the watch route suites share: a created watch, and the requests only a manage key may make. */

export type { CreatedWatch };

/** POST /watch/v1, which must answer 201 (with `headers`: the operator's, say). */
export async function createWatch(
  service: TestService,
  body: object,
  headers: Record<string, string> = {},
): Promise<CreatedWatch> {
  const response = await service.post('/watch/v1', body, headers);
  if (response.status !== 201) {
    throw new Error(`POST /watch/v1: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as CreatedWatch;
}

/** A request with a method the service helper has no shortcut for; JSON answers checked against the document. */
export async function send(
  service: TestService,
  method: 'PATCH' | 'DELETE' | 'POST',
  path: string,
  options: { body?: unknown; key?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const response = await service.fetch(service.url(path), {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      ...options.headers,
    },
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  if (/^application\/json/.test(response.headers.get('content-type') ?? '')) {
    assertAnswerDocumented(
      service.app,
      method,
      `${basePath}${path}`,
      response.status,
      await response.clone().json(),
    );
  }
  return response;
}

/** Where and how to reach one captcha provider. */
export interface ProviderCall {
  url: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

/**
 * What came back from a provider: a JSON answer, a 200 whose body is not JSON, or no answer at
 * all (another HTTP status, a timeout, a connection failure). Providers differ in which of the
 * last two they let through, so both are kept apart.
 */
export type ProviderReply =
  { kind: 'json'; body: unknown } | { kind: 'unreadable' } | { kind: 'failed' };

/**
 * POSTs the fields form-urlencoded, as every provider expects (providers.ts). Errors are
 * swallowed into a reply kind rather than rethrown or logged: they could carry the request, which
 * holds the secret and the caller's token.
 */
export async function postForm(
  call: ProviderCall,
  fields: Record<string, string>,
): Promise<ProviderReply> {
  try {
    const response = await call.fetch(call.url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      signal: AbortSignal.timeout(call.timeoutMs),
    });
    if (response.status !== 200) {
      // Release the connection instead of leaving an unread body to the garbage collector.
      await response.body?.cancel();
      return { kind: 'failed' };
    }
    const text = await response.text();
    try {
      return { kind: 'json', body: JSON.parse(text) as unknown };
    } catch {
      return { kind: 'unreadable' };
    }
  } catch {
    return { kind: 'failed' };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

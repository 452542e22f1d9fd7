/**
 * A request whose client went away before its body arrived (it closed the connection, or the
 * server cut it at REQUEST_TIMEOUT_MS): nothing is wrong with the service, and no one is left
 * to answer. The runtime aborts the request's signal; Node's body stream also fails with
 * `ECONNRESET` ("aborted"), sometimes before the signal is set.
 */
export function isClientAbort(error: unknown, request: Request): boolean {
  return request.signal.aborted || (error as { code?: unknown } | null)?.code === 'ECONNRESET';
}

/**
 * The status logged for such a request: 499, nginx's "client closed request". It is never seen by
 * a client (none is listening), only in the request log.
 */
export const clientClosedRequest = 499;

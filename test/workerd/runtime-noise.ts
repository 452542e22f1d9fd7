/**
 * workerd reports every connection it could not make as an exception with a native stack, and
 * once more as an "uncaught exception", even when the fetch that made it caught the failure (the
 * DoH transport does: src/dns/doh-transport.ts). The suites cause such connections on purpose:
 * services whose DNS is dead (nothing listens on port 9), whose zone monitors go on asking on
 * their alarms for the rest of the run. (A world a suite has closed answers HTTP 503 until the run
 * ends instead, so the monitors of its services meet no closed port and no cut connection:
 * fixture-control.ts.) At the end the runtime also reports the pool's own WebSocket closing. @cloudflare/vitest-pool-workers 0.15.1
 * prints all of these (on stdout: workerd logs them at level info) through a handler of its own
 * that no pool option replaces (its `ignoreMessages` list is fixed; cloudflare/workers-sdk#14820),
 * about 2,800 lines a run.
 *
 * So they are dropped on their way out of the vitest process: only these exact reports, each
 * written as one chunk. Any other report of the runtime (an uncaught exception of the Worker's
 * code carries JavaScript frames) and every test's output still show.
 */
const noise = [
  /^exception = kj\/async-io-unix\.c\+\+:\d+: disconnected: connect\(\): Connection refused\nstack:[^\n]*\n$/,
  /^uncaught exception; source = Uncaught \(in promise\); stack = Error: Network connection lost\.\n$/,
  /^uncaught exception; exception = workerd\/jsg\/\S+: disconnected: jsg\.Error: Network connection lost\.\nstack:[^\n]*\n$/,
  /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected\n$/,
];

export function isRuntimeNoise(chunk: string): boolean {
  return noise.some((pattern) => pattern.test(chunk));
}

const installed = Symbol('runtime noise dropped');

/** Drops the runtime's noise from one stream of this process, once however often called. */
function dropFrom(stream: NodeJS.WriteStream): void {
  const marked = stream as NodeJS.WriteStream & { [installed]?: true };
  if (marked[installed]) return;
  marked[installed] = true;
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === 'string' && isRuntimeNoise(chunk)) return true;
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

/**
 * For the rest of the process's life: the last report (the WebSocket's) comes after the run's
 * teardown. Both streams, as the pool writes a report by its level.
 */
export function dropRuntimeNoise(): void {
  dropFrom(process.stdout);
  dropFrom(process.stderr);
}

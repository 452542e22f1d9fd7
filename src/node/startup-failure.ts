import cluster from 'node:cluster';

/**
 * A start that cannot succeed ends with ONE line on stderr naming the cause and what to change,
 * and exit status 1. Its causes are the machine and the configuration (a taken port, a store
 * that cannot be opened, a bad variable, an unreadable zone list), not bugs: a stack trace would
 * only bury the line an operator needs. The JSON log stays on stdout
 * (docs/configuration.md#start-up-failures).
 *
 * Under WORKERS=N every worker would meet the same cause: a worker hands its line to the primary
 * (src/node/cluster.ts), which prints it once and stops the others.
 */

/** What a worker sends the primary when its start fails. */
export interface StartupFailureMessage {
  startupFailure: string;
}

export function isStartupFailureMessage(message: unknown): message is StartupFailureMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as Partial<StartupFailureMessage>).startupFailure === 'string'
  );
}

/** Where the server was told to listen: PORT and HOST, or the variables named. */
export interface ListenAddress {
  port: number;
  host: string;
  /** The variables that set them, when not PORT and HOST (the reports' SMTP listener's). */
  variables?: { port: string; host: string };
}

/** A failed start's line. Its messages already name their variable and fix; this keeps one line. */
export function startupFailureLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.trim().replace(/\s*\n\s*/g, '; ');
}

/** Why the server could not listen (an `error` of node:net's listen, or of the cluster's bind). */
export function listenFailureLine(
  error: unknown,
  { port, host, variables }: ListenAddress,
): string {
  const { port: portName, host: hostName } = variables ?? { port: 'PORT', host: 'HOST' };
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return `port ${port} is in use on ${host}: stop the other process or set ${portName}`;
    case 'EACCES':
      // Ports below 1024 are privileged on Linux (ip(7)).
      return `port ${port} may not be bound by this user: set ${portName} to 1024 or above, or give node the CAP_NET_BIND_SERVICE capability`;
    case 'EADDRNOTAVAIL':
      return `${hostName} ${host} is not an address of this machine: set ${hostName} to one of its addresses, or 0.0.0.0 for all`;
    case 'EAFNOSUPPORT':
      return `${hostName} ${host} is of an address family this machine does not have: set ${hostName} to 0.0.0.0`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `${hostName} ${host} does not resolve to an address: set ${hostName} to an address of this machine`;
    default:
      return `cannot listen on ${host} port ${port}: ${startupFailureLine(error)}: check ${hostName} and ${portName}`;
  }
}

/** How long a worker waits for the primary to stop it before it exits on its own. */
const workerExitDelayMs = 5000;

/** Prints the line (or hands it to the primary) and ends the process with status 1. */
export function failStart(line: string): Promise<never> {
  if (cluster.isWorker && process.send) {
    process.send(
      { startupFailure: line } satisfies StartupFailureMessage,
      undefined,
      {},
      (error) => {
        // The primary is gone: nobody else will say it.
        if (error) exitWith(line);
      },
    );
    setTimeout(() => process.exit(1), workerExitDelayMs);
    return new Promise<never>(() => {});
  }
  return exitWith(line);
}

function exitWith(line: string): never {
  // Synchronous on pipes, files and terminals on Linux: the line is out before the exit.
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

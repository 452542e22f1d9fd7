/**
 * Structured one-line logs. Lines carry what an operator needs (method, path, status, duration,
 * caller) and never a secret: no bodies (captcha tokens live there), no headers, no query strings.
 */
/**
 * `warn`: something the operator should act on that did not stop the service (a delivery that
 * failed, a relay that does not answer at start).
 */
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

export type Logger = (
  level: Exclude<LogLevel, 'silent'>,
  message: string,
  fields?: Record<string, unknown>,
) => void;

const rank: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** A logger writing JSON lines to `write` (stdout in the server) for entries at or above `level`. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void,
  clock: () => Date = () => new Date(),
): Logger {
  return (entryLevel, message, fields = {}) => {
    if (rank[entryLevel] > rank[level]) return;
    write(
      JSON.stringify({ time: clock().toISOString(), level: entryLevel, msg: message, ...fields }),
    );
  };
}

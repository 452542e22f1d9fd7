/**
 * Structured one-line logs. Lines carry what an operator needs (method, path, status, duration,
 * caller) and never a secret: no bodies (captcha tokens live there), no headers, no query strings.
 */
export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

export type Logger = (
  level: Exclude<LogLevel, 'silent'>,
  message: string,
  fields?: Record<string, unknown>,
) => void;

const rank: Record<LogLevel, number> = { silent: 0, error: 1, info: 2, debug: 3 };

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

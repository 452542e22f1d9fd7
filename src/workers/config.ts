import {
  type Config,
  environmentSchema,
  mergeTables,
  parseEnvironment,
  sharedRules,
  sharedVariables,
} from '../config/index.js';

/**
 * The Worker's configuration: its `env` vars (wrangler.toml `[vars]`, `wrangler dev --var`,
 * secrets) read by the shared table (src/config/variables.ts) and the Workers' own. A Worker resolves only
 * over DoH, so DOH_URL is required; the Node server's own variables (PORT, DNS_SERVERS,
 * STORE_URL, ...) mean nothing here and are ignored.
 */

/**
 * The variables only Workers read: none yet. The Worker's bindings (STORE, ZONE_MONITOR) are
 * wrangler.toml's, not variables; a Workers-only setting goes here, in the table form of
 * src/config/environment.ts.
 */
export const workersOnlyVariables = {};

const workerSchema = environmentSchema(mergeTables(sharedVariables, workersOnlyVariables), [
  ...sharedRules,
  (config, ctx) => {
    if (config.dns.dohUrls.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['DOH_URL'],
        message: 'required on Workers, which resolve over DNS-over-HTTPS only',
      });
  },
]);

/** Reads the Worker's configuration, or throws one Error naming every bad variable. */
export function readWorkerConfig(env: Record<string, unknown>): Config {
  return parseEnvironment(workerSchema, env);
}

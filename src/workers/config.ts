import { z } from 'zod';
import {
  type Config,
  parseEnvironment,
  refineShared,
  sharedConfig,
  sharedVariables,
} from '../config.js';

/**
 * The Worker's configuration: its `env` vars (wrangler.toml `[vars]`, `wrangler dev --var`,
 * secrets) read by the same schema as on Node (src/config.ts). A Worker resolves only over DoH,
 * so DOH_URL is required; the Node server's own variables (PORT, DNS_SERVERS, STORE_URL, ...)
 * mean nothing here and are ignored.
 */
const workerSchema = z
  .object(sharedVariables)
  .superRefine(refineShared)
  .superRefine((env, ctx) => {
    if (env.DOH_URL.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['DOH_URL'],
        message: 'required on Workers, which resolve over DNS-over-HTTPS only',
      });
  });

/** Reads the Worker's configuration, or throws one Error naming every bad variable. */
export function readWorkerConfig(env: Record<string, unknown>): Config {
  return sharedConfig(parseEnvironment(workerSchema, env));
}

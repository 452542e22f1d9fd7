/**
 * The configuration: the variables every runtime reads, as tables (`variable`, `section`), the
 * value forms they share, and the rules between them (docs/configuration.md is generated from
 * these tables). The Node server and the Worker add their own tables (src/node/config.ts,
 * src/workers/config.ts).
 */

export {
  type ConfigOf,
  commaList,
  environmentSchema,
  integer,
  mergeTables,
  parseEnvironment,
  type Rule,
  section,
  type Table,
  type Variable,
  variable,
  variablesOf,
} from './environment.js';
export { bearerToken, networks } from './values.js';
export { reportsLocationOf, reportsUrl } from './reports-variables.js';
export {
  type Config,
  type ProxySettings,
  proxyVariables,
  sharedRules,
  sharedVariables,
} from './variables.js';
export { type StartWarning, startWarnings } from './warnings.js';

/** SPF (RFC 7208): a domain's record parsed and expanded into the addresses it allows. */

export { defaultDeadlineMs, expandSpf, type SpfExpansion, type SpfOptions } from './spf.js';

import { z } from 'zod';
import bundledTable from '../../../assets/dkim-selectors.json' with { type: 'json' };
import { maxTriedSelectors } from '../results/index.js';

/**
 * Which DKIM selectors a check tries. DNS cannot list a domain's selectors (RFC 6376 §3.6.2.1
 * names a key by selector, and nothing enumerates them), so the check asks: the caller's own,
 * then those of the providers the domain's MX hosts and SPF includes show it uses, then the
 * common ones of assets/dkim-selectors.json, each with where it comes from.
 */

const providerSchema = z.object({
  provider: z.string(),
  selectors: z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/)).min(1),
  mx: z.array(z.string()),
  spf: z.array(z.string()),
  source: z.url(),
});
const tableSchema = z.object({ providers: z.array(providerSchema) });
export type SelectorTable = z.infer<typeof tableSchema>;
/** A mail provider of the table: its selectors, the MX and SPF names that show it, its page. */
export type SeenProvider = z.infer<typeof providerSchema>;

/** The table shipped in assets/dkim-selectors.json, checked against its schema. */
export function bundledSelectorTable(): SelectorTable {
  return tableSchema.parse(bundledTable);
}

export interface SelectorToTry {
  selector: string;
  /** "caller", "mx:<host>", "spf:<domain>", or the provider of the table. */
  source: string;
}

/** A host is under a pattern when it is the pattern or one of its subdomains (RFC 4343: any case). */
function isUnder(host: string, pattern: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === pattern || name.endsWith(`.${pattern}`);
}

/** The providers of the table the domain's MX hosts or SPF includes show it uses. */
export function providersSeen(
  table: SelectorTable,
  seen: { mxHosts: readonly string[]; spfDomains: readonly string[] },
): SeenProvider[] {
  return table.providers.filter(
    (provider) =>
      seen.mxHosts.some((mx) => provider.mx.some((pattern) => isUnder(mx, pattern))) ||
      seen.spfDomains.some((domain) => provider.spf.some((pattern) => isUnder(domain, pattern))),
  );
}

/**
 * The selectors to try, each once, in order: the caller's, those inferred from `mxHosts` and
 * `spfDomains` (the domains the SPF walk visited), then every selector of the table; at most
 * `maxTriedSelectors`, the caller's always among them.
 */
export function selectorsToTry(
  table: SelectorTable,
  seen: { caller: readonly string[]; mxHosts: readonly string[]; spfDomains: readonly string[] },
): SelectorToTry[] {
  const chosen = new Map<string, string>();
  const add = (selector: string, source: string) => {
    const name = selector.toLowerCase();
    if (!chosen.has(name) && chosen.size < maxTriedSelectors) chosen.set(name, source);
  };
  for (const selector of seen.caller) add(selector, 'caller');
  for (const provider of table.providers) {
    const host = seen.mxHosts.find((mx) => provider.mx.some((pattern) => isUnder(mx, pattern)));
    if (host) provider.selectors.forEach((selector) => add(selector, `mx:${host}`));
    const include = seen.spfDomains.find((domain) =>
      provider.spf.some((pattern) => isUnder(domain, pattern)),
    );
    if (include) provider.selectors.forEach((selector) => add(selector, `spf:${include}`));
  }
  for (const provider of table.providers) {
    provider.selectors.forEach((selector) => add(selector, provider.provider));
  }
  return [...chosen].map(([selector, source]) => ({ selector, source }));
}

/**
 * A selector as RFC 6376 §3.1 writes it: dot-separated labels of letters, digits and hyphens
 * (sub-domain syntax), so `<selector>._domainkey.<domain>` is a name the DNS can carry.
 */
export function isSelector(text: string): boolean {
  return (
    text.length <= 63 &&
    text.split('.').every((label) => /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$/.test(label))
  );
}

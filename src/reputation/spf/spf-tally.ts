import {
  clip,
  maxTermChars,
  type SpfError,
  type SpfExpansion,
  type SpfTermAt,
} from '../results/index.js';
import { spfLimits } from './spf-lookups.js';

/**
 * What an SPF evaluation found as it walked (the addresses and domains, the terms it could not
 * enumerate or skipped, those that do not pass), the DNS-querying terms and void lookups it
 * counted against the processing limits (RFC 7208 §4.6.4), and the expansion it reports. A limit
 * reached stops the walk where it happened (`SpfStop`), and the expansion keeps what came before.
 */

/** Ends the walk; caught once, by the evaluation, which reports what the tally holds with it. */
export class SpfStop extends Error {
  constructor(readonly detail: SpfError) {
    super(detail.reason);
  }
}

export function stop(kind: SpfError['kind'], at: SpfTermAt, reason: string): SpfStop {
  return new SpfStop({ kind, reason, at: at.domain, term: at.term });
}

/** A term as a result shows it: a record can hold a term of thousands of characters. */
export function termAt(text: string, domain: string): SpfTermAt {
  return { term: clip(text, maxTermChars), domain };
}

export class SpfTally {
  readonly ip4 = new Set<string>();
  readonly ip6 = new Set<string>();
  readonly domains = new Set<string>();
  readonly notEnumerable: SpfTermAt[] = [];
  readonly skipped: (SpfTermAt & { reason: string })[] = [];
  readonly nonPass: SpfTermAt[] = [];
  #lookups = 0;
  #voidLookups = 0;

  /** §4.6.4: a DNS-querying term past the tenth is a permerror. */
  countLookup(at: SpfTermAt): void {
    if (this.#lookups >= spfLimits.dnsTerms) {
      throw stop(
        'permerror',
        at,
        'more than 10 DNS-querying terms (include, a, mx, ptr, exists, redirect)',
      );
    }
    this.#lookups++;
  }

  /** §4.6.4: a void lookup past the second is a permerror. */
  countVoid(at: SpfTermAt): void {
    this.#voidLookups++;
    if (this.#voidLookups > spfLimits.voidLookups) {
      throw stop('permerror', at, 'more than 2 lookups answered NXDOMAIN or no records');
    }
  }

  expansion(
    domain: string,
    status: SpfExpansion['status'],
    record: string | null,
    error?: SpfError,
  ): SpfExpansion {
    return {
      domain,
      record,
      status,
      ip4: [...this.ip4],
      ip6: [...this.ip6],
      lookups: this.#lookups,
      voidLookups: this.#voidLookups,
      domains: [...this.domains],
      notEnumerable: this.notEnumerable,
      skipped: this.skipped,
      nonPass: this.nonPass,
      ...(error && { error }),
    };
  }
}

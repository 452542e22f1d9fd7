import type { ListCoverage, Severity, Verdict } from '../reputation/index.js';

/**
 * The tool-independent input of every shareable artefact (badge, card). Each tool maps its stored
 * result to this shape, so the renderers never learn a tool's own result format.
 */

export type { Verdict };

/**
 * Where a listed party goes next for one list: the operator's page about the target (why it is
 * listed) and its page for asking for removal, each where the zone list gives one.
 */
export interface NextStep {
  list: string;
  lookupUrl?: string;
  delistUrl?: string;
  /**
   * Every listing of the list is a policy listing (Spamhaus PBL and its kin): the address should
   * send through its provider's relay, which the step says instead of asking for removal.
   */
  policy?: boolean;
}

/** One list that lists the target, e.g. `{ list: 'Spamhaus ZEN', detail: 'SBL spam source', severity: 'major' }`. */
export interface ShareListing {
  list: string;
  detail: string;
  severity: Severity;
  /** What to do about it: one step for a list, one per list for an address on several. */
  steps?: NextStep[];
  /**
   * When the row is an address on lists (a domain's sender IP, a pool's address) rather than a
   * list: the address and the names of the lists, so a renderer writes the row in its own
   * language; `list` and `detail` then hold the English form.
   */
  address?: { ip: string; sender: boolean; lists: string[] };
}

export interface ShareSummary {
  /**
   * The tool that made it (src/tools/registry.ts), or `watch.mail` for a mail watch: the badge's
   * label, the card's kind and its note when nothing is listed are that tool's texts in the
   * catalogs (src/i18n, `toolText`).
   */
  tool: string;
  /**
   * What `listed` and `checked` count: the lists that answered about one target (ip, domain), or
   * the addresses of a set, each checked on the lists (pool), or the mailbox providers' sender
   * requirements a domain's mail setup meets (mail: `providers`; `listed` and `checked` are 0).
   */
  counts: 'lists' | 'addresses' | 'requirements';
  /**
   * What was checked, in display form (src/reputation/targets/targets.ts `displayName`): an IDN in
   * Unicode, a look-alike in ASCII; up to 253 characters.
   */
  target: string;
  /**
   * A look-alike `target`: its Unicode form, whose one label mixes `scripts`. Shown only beside
   * the ASCII form and that warning (the share page), never alone (badge, card).
   */
  lookAlike?: { unicode: string; scripts: string[] };
  verdict: Verdict;
  /** 0..100; null where the tool has no score (pool discover). */
  score: number | null;
  /**
   * Lists that blocklist the target (counting lists: informational-only listings such as
   * Spamhaus PBL are counted in `coverage.informational`, not here), or addresses blocklisted.
   */
  listed: number;
  /** Lists that answered, or addresses checked. */
  checked: number;
  /**
   * How many lists answered, did not, are on hold or disabled (for a pool, those of its
   * least-answered address). Absent in summaries made without it (tests, the warm-up card).
   */
  coverage?: ListCoverage;
  /** Most important first. */
  listings: ShareListing[];
  /** An address's PTR name and whether it resolves back to the address (forward-confirmed rDNS). */
  rdns?: { ptr: string; fcrdns: 'pass' | 'fail' | 'none' | 'error'; ip?: string };
  /** Counting lists: the target's sender IPs (a domain); counting addresses: the set's addresses. */
  addresses?: { total: number; listed: number };
  /**
   * Counting requirements: each mailbox provider's verdict on the domain's mail setup, judged by
   * its bulk-sender rules (docs/mail.md), in the order the result gives them.
   */
  providers?: ProviderVerdicts;
  /**
   * Counting requirements: each provider's required rules that cannot be seen from outside, so a
   * verdict reads "met, 4 rules not visible from outside", never a bare "met". Absent in
   * summaries of results made before it.
   */
  providersUnseen?: Record<keyof ProviderVerdicts, number>;
  /**
   * A watch's last days, oldest first (docs/watches.md, "Chart and strip"): listed at some moment
   * of the day, clean all of it, or before the watch began. The live card draws them as a strip.
   */
  days?: DayState[];
  /** ISO 8601. */
  checkedAt: string;
}

/** A day of a watch's strip. */
export type DayState = 'listed' | 'clean' | 'none';

/** `{ gmail: 'pass', yahoo: 'warn', microsoft: 'fail' }`: the names are the catalogs' `mail.provider.*`. */
export type ProviderVerdicts = Record<'gmail' | 'yahoo' | 'microsoft', 'pass' | 'warn' | 'fail'>;

/** A summary of the providers' requirements (a mail check), when it is one. */
export function providerVerdicts(summary: ShareSummary): ProviderVerdicts | undefined {
  return summary.counts === 'requirements' ? summary.providers : undefined;
}

/** A set of addresses found, none checked yet (a pool discover): its artefacts count what was found. */
export function foundAddresses(summary: ShareSummary): number | undefined {
  return summary.counts === 'addresses' && summary.checked === 0
    ? summary.addresses?.total
    : undefined;
}

/** The sender IPs of a target counted by lists (a domain's), when it has any. */
export function senderAddresses(summary: ShareSummary): ShareSummary['addresses'] {
  return summary.counts === 'lists' ? summary.addresses : undefined;
}

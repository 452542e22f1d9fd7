import type { ListCoverage, Severity } from '../reputation/index.js';

/**
 * The tool-independent input of every shareable artefact (badge, card). Each tool maps its stored
 * result to this shape, so the renderers never learn a tool's own result format.
 */

export type ShareTool = 'ip' | 'domain' | 'pool';

export type Verdict = 'good' | 'fair' | 'poor' | 'unknown';

/** One list that lists the target, e.g. `{ list: 'Spamhaus ZEN', detail: 'SBL spam source', severity: 'major' }`. */
export interface ShareListing {
  list: string;
  detail: string;
  severity: Severity;
  /**
   * When the row is an address on lists (a domain's sender IP, a pool's address) rather than a
   * list: the address and the names of the lists, so a renderer writes the row in its own
   * language; `list` and `detail` then hold the English form.
   */
  address?: { ip: string; sender: boolean; lists: string[] };
}

export interface ShareSummary {
  tool: ShareTool;
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
   * Lists that blocklist the target (ip, domain: informational-only listings such as Spamhaus PBL
   * are counted in `coverage.informational`, not here), or addresses blocklisted (pool).
   */
  listed: number;
  /** Lists that answered (ip, domain) or addresses checked (pool). */
  checked: number;
  /**
   * How many lists answered, did not, are on hold or disabled (for a pool, those of its
   * least-answered address). Absent in summaries made without it (tests, the warm-up card).
   */
  coverage?: ListCoverage;
  /** Most important first. */
  listings: ShareListing[];
  /** ip tool: the PTR name and whether it resolves back to the address (forward-confirmed rDNS). */
  rdns?: { ptr: string; fcrdns: 'pass' | 'fail' | 'none' | 'error' };
  /** domain: its sender IPs; pool: its addresses. */
  addresses?: { total: number; listed: number };
  /** ISO 8601. */
  checkedAt: string;
}

/** A pool discover: addresses found, none checked yet. Its artefacts count what it found. */
export function foundAddresses(summary: ShareSummary): number | undefined {
  return summary.tool === 'pool' && summary.checked === 0 ? summary.addresses?.total : undefined;
}

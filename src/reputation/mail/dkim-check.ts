import type { Resolver } from '../../dns/index.js';
import type { Dkim, DkimSelector } from '../results/index.js';
import { readDkimKey } from './dkim-key.js';
import type { SelectorToTry } from './dkim-selectors.js';
import { parseTagList } from '../checks/index.js';

/**
 * DKIM keys looked up at `<selector>._domainkey.<domain>` (RFC 6376 §3.6.2.1), one TXT query per
 * selector, all at once.
 */

/** §3.6.2.2: a key record among other TXT records: one that parses with a p= tag. */
function keyRecordOf(records: readonly string[]): string | undefined {
  return (
    records.find((record) => /^v=DKIM1(?:;|\s|$)/.test(record)) ??
    records.find((record) => {
      const list = parseTagList(record);
      return list.ok && list.tags.has('p');
    })
  );
}

async function lookUp(dns: Resolver, domain: string, tried: SelectorToTry): Promise<DkimSelector> {
  const outcome = await dns.query(`${tried.selector}._domainkey.${domain}`, 'TXT');
  const base = { selector: tried.selector, source: tried.source };
  const record = outcome.status === 'answer' ? keyRecordOf(outcome.records) : undefined;
  if (record === undefined) {
    const failed =
      outcome.status === 'timeout' || outcome.status === 'servfail' || outcome.status === 'refused';
    return {
      ...base,
      status: 'none',
      key_type: null,
      key_bits: null,
      testing: false,
      warning: null,
      detail: failed ? `no usable DNS answer (${outcome.status})` : null,
    };
  }
  return { ...base, ...readDkimKey(record) };
}

/** Every selector tried; the result keeps those with a record and those the caller named. */
export async function checkDkim(
  dns: Resolver,
  domain: string,
  selectors: readonly SelectorToTry[],
): Promise<DkimSelector[]> {
  return Promise.all(selectors.map((selector) => lookUp(dns, domain, selector)));
}

export function dkimResult(looked: readonly DkimSelector[]): Dkim {
  const shown = looked.filter(
    (selector) => selector.status !== 'none' || selector.source === 'caller',
  );
  const status = shown.some((selector) => selector.status === 'found')
    ? 'found'
    : shown.some((selector) => selector.status !== 'none')
      ? 'invalid'
      : 'none';
  return { status, tried: looked.map((selector) => selector.selector), selectors: shown };
}

import {
  mailProviders,
  providerRequirements,
  type RequirementStatus,
  verdictOf,
} from '../../reputation/index.js';
import type { MailObservation } from './observe.js';
import type { MailChange, MailFacts } from './schemas.js';

/**
 * A mail watch's facts after one check (docs/watches.md, "Mail watches"), read as the lists are
 * read (src/watch/changes.ts): a fact heard with the value known is recorded again; one heard
 * with another value is a change once `confirm` says enough checks in a row heard it; a fact
 * first heard is recorded without a word; a fact not heard this time (something did not answer)
 * keeps what was known. An MX host the domain no longer has (while it has others) takes its
 * certificate with it.
 *
 * `confirm` is the engine's count of checks in a row (changes.ts): it says whether this value is
 * now confirmed and keeps the count otherwise. Undefined at the first check, which reports nothing.
 * Each provider's verdict is then judged again over the rules now known (`verdictFrom`).
 */
export function mergeMailFacts(
  before: MailFacts | undefined,
  heard: MailObservation,
  confirm: ((key: string, value: string) => boolean) | undefined,
  changes: MailChange[],
): MailFacts {
  // No MX host at all is more often an MX look-up that failed than a domain that dropped its
  // mail servers: then every certificate is kept.
  const hosts = new Set(heard.mxHosts);
  const known: MailFacts = Object.fromEntries(
    Object.entries(before ?? {}).filter(
      ([, fact]) => fact.what !== 'certificate' || hosts.size === 0 || hosts.has(fact.subject),
    ),
  );
  for (const [key, now] of Object.entries(heard.facts)) {
    const was = known[key];
    if (confirm === undefined || !was || was.value === now.value) {
      known[key] = now;
      continue;
    }
    if (!confirm(key, now.value)) continue;
    known[key] = now;
    changes.push({
      what: now.what,
      subject: now.subject,
      from: was.value,
      to: now.value,
      detail: now.detail,
    });
  }
  for (const provider of mailProviders) {
    const was = known[`verdict:${provider}`];
    const value = verdictFrom(known, provider);
    if (value === undefined) continue;
    known[`verdict:${provider}`] = { what: 'verdict', subject: provider, value, detail: null };
    if (confirm !== undefined && was && was.value !== value) {
      changes.push({
        what: 'verdict',
        subject: provider,
        from: was.value,
        to: value,
        detail: null,
      });
    }
  }
  changes.sort((a, b) => a.what.localeCompare(b.what) || a.subject.localeCompare(b.subject));
  return known;
}

/**
 * A provider's verdict as the check judges it (`verdictOf`, src/reputation/mail/), over the rule
 * statuses the watch knows rather than those one check heard: a rule left silent keeps its last
 * status here too, so a timeout never moves a verdict, and a verdict moves only with a confirmed
 * rule.
 */
function verdictFrom(known: MailFacts, provider: (typeof mailProviders)[number]) {
  const rules = providerRequirements[provider].rules.flatMap(({ rule, required }) => {
    const fact = known[`requirement:${rule}`];
    return fact ? [{ status: fact.value as RequirementStatus, required }] : [];
  });
  return rules.length === 0 ? undefined : verdictOf(rules);
}

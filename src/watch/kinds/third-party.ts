import { cleanThirdPartyText } from '../../lib/index.js';
import type { Fact } from './facts.js';
import type { Observation } from './merge.js';

/**
 * What a check heard enters a watch here, once (docs/watches.md, "Safety"): every text of its
 * facts and status is third-party text (a list's TXT reason, an SMTP reply in a rule's detail, an
 * MTA-STS policy's words, a DKIM record's tags, an MX host's name), kept and shown for as long as
 * the watch lives, in its view, history, events, chats and e-mails. Each is cleaned and clipped
 * (`cleanThirdPartyText`: control and bidi characters replaced, 300 characters), a URL to 2,048
 * (the webhook URLs' bound, docs/watches.md "Safety"), so nothing a third party writes grows a
 * watch or reaches a reader as anything but text.
 */

/** A URL as kept: longer ones are cut, and a cut URL shows it is one. */
const maxUrlChars = 2048;

/** Every string of a value cleaned and clipped; a `*_url` field to the URL bound. */
function cleanDeep<T>(value: T, key = ''): T {
  if (typeof value === 'string') {
    return cleanThirdPartyText(value, key.endsWith('_url') ? maxUrlChars : undefined) as T;
  }
  if (Array.isArray(value)) return value.map((item) => cleanDeep(item, key)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, cleanDeep(item, name)]),
    ) as T;
  }
  return value;
}

/** An observation as the watch keeps it: its facts and its status, every text cleaned. */
export function cleanObservation(observation: Observation): Observation {
  return {
    ...observation,
    facts: observation.facts.map((fact) => cleanDeep<Fact>(fact)),
    status: cleanDeep(observation.status),
  };
}

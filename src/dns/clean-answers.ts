import { replaceUnsafeCharacters } from '../lib/index.js';
import { askResolver, resolverOf } from './asking.js';
import type {
  DnsOutcome,
  MxRecord,
  OutcomeListener,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';

/**
 * One rule for the text a DNS server chooses, which reaches results, share pages, cards and logs.
 * The transports decode it from UTF-8 once (wire.ts: a byte that is not UTF-8 is U+FFFD there);
 * the rule turns every control character (C0, DEL, C1: a NUL or a newline would split a log line
 * or a header) and every invisible bidirectional or zero-width format character (UAX #9 §2:
 * U+202E turns the rest of a line around, so `moc.knab` reads `bank.com`) into U+FFFD, visibly
 * not what it was.
 *
 * Names (PTR, NS, CNAME, MX) are cleaned in the stack every transport is wrapped in (stack.ts): a
 * name that keeps such a character is not a host name, and is never forward-confirmed
 * (reputation/checks/rdns.ts). TXT strings are not: their grammars read tabs and line breaks as
 * white space (RFC 6376 §3.2, RFC 7489 §6.4, RFC 7208 §4.6.1), so the parsers get the text as
 * sent, and a result is cleaned where it leaves the check (`cleanShownText`, applied to every
 * fresh check by reputation/checks/confirmed-check.ts).
 */

/**
 * The text with every control and invisible format character replaced by U+FFFD: the rule every
 * third-party text gets (src/lib/third-party-text.ts), with nothing cut, for a DKIM key or an SPF
 * record is longer than a text shown.
 */
export function cleanDnsText(text: string): string {
  return replaceUnsafeCharacters(text);
}

/**
 * Every string of a result (a check's JSON: objects, arrays, strings) with the rule applied: the
 * TXT text a check quotes (records, list reasons, the values it names in details) is shown only
 * cleaned. The same object when nothing needed cleaning.
 */
export function cleanShownText<T>(value: T): T {
  if (typeof value === 'string') return cleanDnsText(value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Every fresh check's result passes here, and nearly all of it is clean: it is read in place
  // (an object's keys are its one allocation), and copied only from where something needed
  // cleaning.
  // Each item is cleaned once: a cleaned copy found is kept, never made again (cleaning it twice
  // at every level would cost twice as much for each level a string lies below).
  if (Array.isArray(value)) {
    const items = value as unknown[];
    for (let at = 0; at < items.length; at++) {
      const cleaned = cleanShownText(items[at]);
      if (cleaned === items[at]) continue;
      const copy = items.slice(0, at);
      copy.push(cleaned);
      for (let rest = at + 1; rest < items.length; rest++) copy.push(cleanShownText(items[rest]));
      return copy as T;
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (let at = 0; at < keys.length; at++) {
    const field = record[keys[at]!];
    const cleaned = cleanShownText(field);
    if (cleaned === field) continue;
    // Object.fromEntries defines each key as its own, `__proto__` too, where assigning would not.
    return Object.fromEntries(
      keys.map((key, index) => [
        key,
        index < at ? record[key] : index === at ? cleaned : cleanShownText(record[key]),
      ]),
    ) as T;
  }
  return value;
}

function cleanRecord<T extends RecordType>(type: T, record: RecordData[T]): RecordData[T] {
  if (type === 'MX') {
    const mx = record as MxRecord;
    const exchange = cleanDnsText(mx.exchange);
    return (exchange === mx.exchange ? mx : { ...mx, exchange }) as RecordData[T];
  }
  return cleanDnsText(record as string) as RecordData[T];
}

/** An answer's names cleaned before whoever asked hears it. */
class CleanedQuery<T extends RecordType> implements OutcomeListener<RecordData[T]> {
  constructor(
    private readonly type: T,
    private readonly listener: OutcomeListener<RecordData[T]>,
  ) {}

  answered(outcome: DnsOutcome<RecordData[T]>): void {
    this.listener.answered(
      outcome.status !== 'answer'
        ? outcome
        : {
            ...outcome,
            records: outcome.records.map((record) => cleanRecord(this.type, record)),
          },
    );
  }

  failed(error: unknown): void {
    this.listener.failed(error);
  }
}

/**
 * The transport's answers with their names cleaned; addresses (A, AAAA) are a transport's own
 * parse, and TXT strings reach their parsers as sent.
 */
export function withCleanAnswers(inner: Resolver): Resolver {
  return resolverOf((name, type, options, listener) => {
    // Addresses and TXT strings pass as they are, with no listener of their own: most queries are A.
    const passes = type === 'A' || type === 'AAAA' || type === 'TXT';
    askResolver(inner, name, type, options, passes ? listener : new CleanedQuery(type, listener));
  });
}

import { replaceUnsafeCharacters } from '../lib/index.js';
import type { MxRecord, RecordData, RecordType, Resolver } from './resolver.js';

/**
 * One rule for the text every transport's answers carry (PTR, NS, CNAME and MX names, TXT
 * strings), applied once, in the stack every transport is wrapped in (stack.ts): a DNS server
 * chooses these octets, and they reach results, share pages, cards and logs. The transports
 * decode them from UTF-8 once (wire.ts: a byte that is not UTF-8 is U+FFFD there); here every
 * control character (C0, DEL, C1: a NUL or a newline would split a log line or a header) and
 * every invisible bidirectional or zero-width format character (UAX #9 §2: U+202E turns the rest
 * of a line around, so `moc.knab` reads `bank.com`) becomes U+FFFD, visibly not what it was. A
 * name that keeps such a character is not a host name, and is never forward-confirmed
 * (reputation/checks/rdns.ts).
 */

/**
 * The text with every control and invisible format character replaced by U+FFFD: the rule every
 * third-party text gets (src/lib/third-party-text.ts), with nothing cut, for a DKIM key or an SPF
 * record is longer than a text shown.
 */
export function cleanDnsText(text: string): string {
  return replaceUnsafeCharacters(text);
}

function cleanRecord<T extends RecordType>(type: T, record: RecordData[T]): RecordData[T] {
  if (type === 'MX') {
    const mx = record as MxRecord;
    const exchange = cleanDnsText(mx.exchange);
    return (exchange === mx.exchange ? mx : { ...mx, exchange }) as RecordData[T];
  }
  return cleanDnsText(record as string) as RecordData[T];
}

/** The transport's answers with their text cleaned; addresses (A, AAAA) are a transport's own parse. */
export function withCleanAnswers(inner: Resolver): Resolver {
  return {
    query(name, type, options) {
      const pending = inner.query(name, type, options);
      // Addresses pass as they are, without a promise of their own: most queries are A queries.
      if (type === 'A' || type === 'AAAA') return pending;
      return pending.then((outcome) =>
        outcome.status !== 'answer'
          ? outcome
          : { ...outcome, records: outcome.records.map((record) => cleanRecord(type, record)) },
      );
    },
  };
}

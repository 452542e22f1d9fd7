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

/** C0, DEL and C1 controls; ALM, zero-width and LRM/RLM; LS, PS and the bidi embeddings and overrides; word joiner to the bidi isolates; BOM. */
// eslint-disable-next-line no-control-regex -- the control characters are what is replaced
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** The text with every control and invisible format character replaced by U+FFFD. */
export function cleanDnsText(text: string): string {
  unsafe.lastIndex = 0;
  return unsafe.test(text) ? text.replace(unsafe, '\ufffd') : text;
}

function cleanRecord<T extends RecordType>(type: T, record: RecordData[T]): RecordData[T] {
  if (type === 'MX') {
    const mx = record as MxRecord;
    const exchange = cleanDnsText(mx.exchange);
    return (exchange === mx.exchange ? mx : { ...mx, exchange }) as RecordData[T];
  }
  return cleanDnsText(record as string) as RecordData[T];
}

/** An answer's text cleaned before whoever asked hears it. */
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

/** The transport's answers with their text cleaned; addresses (A, AAAA) are a transport's own parse. */
export function withCleanAnswers(inner: Resolver): Resolver {
  return resolverOf((name, type, options, listener) => {
    // Addresses pass as they are: most queries are A queries.
    const heard = type === 'A' || type === 'AAAA' ? listener : new CleanedQuery(type, listener);
    askResolver(inner, name, type, options, heard);
  });
}

import { type DohExchange, type ExchangeResult, fetchExchange } from './doh-exchange.js';
import { createEndpointFailover } from './endpoint-failover.js';
import { type AttemptPolicy, attemptPolicy, PendingQuery } from './pending-query.js';
import type {
  DnsOutcome,
  OutcomeListener,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';
import { readResponse } from './response-outcome.js';
import { encodeQuery } from './wire.js';

/**
 * The DNS transport over HTTPS (RFC 8484), with the outcomes of the UDP transport. It needs
 * nothing but timers and the codec, and takes how an exchange is sent from its caller (`fetch`
 * by default), so the same code runs on Node and on Workers.
 */

export interface DohTransportOptions {
  /** RFC 8484 endpoint URLs (`https://dns.example/dns-query`); the first is asked first. */
  endpoints: readonly string[];
  /** For one attempt: connecting, sending the query and reading the whole answer. */
  timeoutMs: number;
  /** Attempts after a first one that got no usable answer, each at the current endpoint. */
  retries: number;
  /** How one POST is sent: the runtime's `fetch` unless given (Node gives HTTP/2 sessions). */
  exchange?: DohExchange;
}

interface Carrier {
  endpoints: readonly string[];
  exchange: DohExchange;
}

class DohQuery<T extends RecordType> extends PendingQuery<RecordData[T]> {
  #cancel: (() => void) | undefined;

  constructor(
    policy: AttemptPolicy,
    signal: AbortSignal | undefined,
    listener: Pick<OutcomeListener<RecordData[T]>, 'answered'>,
    private readonly carrier: Carrier,
    private readonly message: Uint8Array,
    private readonly name: string,
    private readonly type: T,
  ) {
    super(policy, signal, listener);
  }

  protected send(endpoint: number): void {
    this.#cancel = this.carrier.exchange(this.carrier.endpoints[endpoint]!, this.message, this);
  }

  exchanged(result: ExchangeResult): void {
    this.#cancel = undefined;
    if (typeof result === 'string') {
      this.failed(result);
      return;
    }
    // The HTTP exchange pairs the answer with the query: an answer need not echo the question.
    const reading = readResponse(this.message, result, this.name, this.type, false);
    // An HTTP response carries any DNS message whole: TC, like any answer to another query,
    // means a broken endpoint.
    if (typeof reading === 'string') this.failed('bad-answer');
    else this.settle(reading);
  }

  protected abandonAttempt(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  protected release(): void {
    this.abandonAttempt();
  }
}

const refused = { status: 'refused' } as const;
const serverFailure = { status: 'servfail' } as const;

export function createDohTransport(options: DohTransportOptions): Resolver {
  const policy = attemptPolicy(options, createEndpointFailover(options.endpoints.length));
  const carrier: Carrier = {
    endpoints: options.endpoints,
    exchange: options.exchange ?? fetchExchange(),
  };

  function resolve<T extends RecordType>(
    name: string,
    type: T,
    queryOptions: QueryOptions | undefined,
  ): Promise<DnsOutcome<RecordData[T]>> {
    // There is no way to reach one given server through an HTTPS endpoint (docs/edge.md).
    if (queryOptions?.servers !== undefined) return Promise.resolve(refused);
    let message: Uint8Array;
    try {
      message = encodeQuery(name, type);
    } catch {
      // A name the wire cannot carry: the UDP transport fails such a query as a server failure too.
      return Promise.resolve(serverFailure);
    }
    return new Promise((answered) =>
      new DohQuery(policy, queryOptions?.signal, { answered }, carrier, message, name, type).start(
        queryOptions?.timeoutMs,
      ),
    );
  }

  return {
    query: (name, type, queryOptions) => resolve(name, type, queryOptions),
  };
}

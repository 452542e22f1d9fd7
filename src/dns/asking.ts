import type {
  DnsOutcome,
  OutcomeListener,
  QueryOptions,
  RecordData,
  RecordType,
  Resolver,
} from './resolver.js';

/**
 * The two forms of a query (resolver.ts): `ask`, whose listener hears the outcome, and `query`,
 * a promise of it. A layer of the stack implements `ask` and gets `query` from it; it asks the
 * layer below through `askResolver`, which takes whichever form that layer has.
 */

/** The signature of `Resolver.ask`. */
export type Ask = <T extends RecordType>(
  name: string,
  type: T,
  options: QueryOptions | undefined,
  listener: OutcomeListener<RecordData[T]>,
) => void;

/** Asks `resolver` through its `ask`, or through `query` where it has none; a throw is `failed`. */
export function askResolver<T extends RecordType>(
  resolver: Resolver,
  name: string,
  type: T,
  options: QueryOptions | undefined,
  listener: OutcomeListener<RecordData[T]>,
): void {
  if (resolver.ask) {
    resolver.ask(name, type, options, listener);
    return;
  }
  let pending: Promise<DnsOutcome<RecordData[T]>>;
  try {
    pending = resolver.query(name, type, options);
  } catch (error) {
    listener.failed(error);
    return;
  }
  pending.then(
    (outcome) => listener.answered(outcome),
    (error: unknown) => listener.failed(error),
  );
}

/** A listener that settles a promise: `query` made of `ask`. */
class Settling<T> implements OutcomeListener<T> {
  constructor(
    readonly answered: (outcome: DnsOutcome<T>) => void,
    readonly failed: (error: unknown) => void,
  ) {}
}

/** A resolver of both forms from its `ask`: `query` is a promise settled by `ask`'s listener. */
export function resolverOf(ask: Ask): Resolver & { ask: Ask } {
  return {
    ask,
    query: (name, type, options) =>
      new Promise((resolve, reject) => ask(name, type, options, new Settling(resolve, reject))),
  };
}

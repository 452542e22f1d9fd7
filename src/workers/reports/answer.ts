import { StoreUnavailableError } from '../../store/index.js';

/**
 * What a reports object answers over RPC: its value, or why its own code refused (an id taken,
 * no such inbox, a row over SQLite's bound). A refusal travels as a value, not as a thrown error:
 * the caller throws it again on its side, and an object's refusal is not reported by the runtime
 * as an uncaught exception of the object. It is thrown as the store failing, a 503 as the SQLite
 * file's failures are on Node, never a 500. A failure of the call itself still throws.
 */
export type Answer<T> = { value: T } | { refused: string };

export async function answer<T>(work: () => T | Promise<T>): Promise<Answer<T>> {
  try {
    return { value: await work() };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

export function valueOf<T>(answered: Answer<T>): T {
  if ('refused' in answered) {
    throw new StoreUnavailableError(`the report store refused: ${answered.refused}`);
  }
  return answered.value;
}

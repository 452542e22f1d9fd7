/**
 * What a reports object answers over RPC: its value, or why its own code refused (an id taken,
 * no such inbox). A refusal travels as a value, not as a thrown error: the caller throws it again
 * on its side, and an object's expected refusal is not reported by the runtime as an uncaught
 * exception of the object. A failure of the call itself still throws.
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
  if ('refused' in answered) throw new Error(answered.refused);
  return answered.value;
}

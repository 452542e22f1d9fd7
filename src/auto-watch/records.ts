import { z } from 'zod';
import type { Store } from '../store/index.js';
import { watchEmailSchema, webhookFormatSchema } from '../watch/index.js';

/**
 * Where an inbox's auto-watch lives in the service's store (docs/reports.md, "Reports meet
 * watches"): the main Store, so it works on every backend and is shared by every process and
 * machine that shares it. Each record is written by one party, as a watch's are, so none
 * overwrites another's write:
 *
 * - `reports-auto:<inbox>`, the destination: the webhook with the inbox's secret, the address and
 *   its double opt-in, the origin links are made under, whether the operator made the inbox.
 *   Written by the routes (PATCH, the e-mail links) and, when a watch's one-click unsubscribe
 *   stopped the address, by the run.
 * - `reports-auto-run:<inbox>`, the run's state: which source has which watch, as applied. Written
 *   by the run alone.
 * - `reports-auto-failing:<inbox>` (a set): the failing sources announced, each once.
 * - `reports-auto-operator:<inbox>`: the inbox was made with OPERATOR_TOKEN.
 * - the due queue `reports-auto:runs`: each inbox at its next run, claimed by one runner at a time,
 *   `reports-auto-lock:<inbox>` held while it runs, and `reports-auto-soon:<inbox>` while a run
 *   asked for by reports just taken is pending.
 */

/** Kept as long as the inbox may be: the records go with it (DELETE), not with time. */
export const keptMs = 10 * 365 * 86_400_000;

export const keys = {
  destination: (inbox: string) => `reports-auto:${inbox}`,
  run: (inbox: string) => `reports-auto-run:${inbox}`,
  failing: (inbox: string) => `reports-auto-failing:${inbox}`,
  operator: (inbox: string) => `reports-auto-operator:${inbox}`,
  /** Held by the runner running the inbox (a set of one member, for a lease at most). */
  lock: (inbox: string) => `reports-auto-lock:${inbox}`,
  /** Set while a run is due soon after reports came in: later ones add nothing (the debounce). */
  soon: (inbox: string) => `reports-auto-soon:${inbox}`,
  runs: 'reports-auto:runs',
};

/** The inbox's address: a watch's e-mail record, and whether its one-click link stopped it. */
const addressSchema = watchEmailSchema.extend({ unsubscribed: z.boolean().optional() });
export type InboxAddress = z.infer<typeof addressSchema>;

export const destinationSchema = z.object({
  webhook: z
    .object({
      url: z.string(),
      secret: z.string(),
      /** Absent: what the URL's host takes, as a watch's. */
      format: webhookFormatSchema.optional(),
    })
    .nullable(),
  email: addressSchema.nullable(),
  /** The public origin of the PATCH, for links when PUBLIC_URL is unset. */
  origin: z.string(),
  /** Whether the webhook may reach WEBHOOK_ALLOW_NETWORKS: the operator's inbox. */
  operator: z.boolean(),
});
export type Destination = z.infer<typeof destinationSchema>;

/** One watched source, as the run applied it. */
const watchedSchema = z.object({
  id: z.string(),
  /** The hash of the destination it was given (`appliedOf`): another one is applied by update. */
  applied: z.string(),
  /** When it was last renewed (epoch ms). */
  renewed_at: z.number(),
});
export type Watched = z.infer<typeof watchedSchema>;

export const runStateSchema = z.object({
  /** By source address. */
  watches: z.record(z.string(), watchedSchema),
});
export type RunState = z.infer<typeof runStateSchema>;

export async function readRecord<T>(
  store: Store,
  key: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const text = await store.get(key);
  if (text === undefined) return undefined;
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

export function writeRecord(store: Store, key: string, value: unknown): Promise<void> {
  return store.set(key, JSON.stringify(value), keptMs);
}

import type { Context } from 'hono';
import { ApiError, type ErrorCode, storeErrors } from '../../http/index.js';
import type { Inbox, Inboxes, Period } from '../../reports/index.js';
import { inboxKeyErrors, keyedInbox } from './inbox-key.js';

/**
 * The days a summary, the received list and the CSV cover (docs/reports.md, "API"): `from` and
 * `to` as `YYYY-MM-DD` (UTC, both included), the last 30 days when absent; a date that is not a
 * real day, or a `from` after `to`, is a 400 naming the parameter.
 */

/** The default window: today and the 29 days before it. */
export const defaultDays = 30;
const dayMs = 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Epoch ms of a real `YYYY-MM-DD` day, or undefined (`2025-02-30` is not one). */
function dayOf(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== text ? undefined : ms;
}

function dateParameter(c: Context, name: 'from' | 'to'): number | undefined {
  const text = c.req.query(name);
  if (text === undefined) return undefined;
  const day = dayOf(text.trim());
  if (day === undefined)
    throw new ApiError(
      'invalid_request',
      `${name}: expected a date such as 2025-06-30 (YYYY-MM-DD)`,
    );
  return day;
}

/** The request's period, with `today` the clock's day. */
export function periodOf(c: Context, now: Date): Period {
  const from = dateParameter(c, 'from');
  const to = dateParameter(c, 'to');
  const last = to ?? dayOf(isoDay(now.getTime()))!;
  const first = from ?? last - (defaultDays - 1) * dayMs;
  if (first > last)
    throw new ApiError('invalid_request', `from: ${isoDay(first)} is after to, ${isoDay(last)}`);
  return { from: isoDay(first), to: isoDay(last) };
}

/** What a route over a keyed inbox's period answers: a bad date, the key's refusals, the store. */
export const periodRouteErrors = [
  'invalid_request',
  ...inboxKeyErrors,
  ...storeErrors,
] as const satisfies readonly ErrorCode[];

/** The inbox the request's key opens (or its 401, 403, 404), and the period the request asks. */
export async function inboxPeriod(
  c: Context,
  deps: { reports: { inboxes: Inboxes }; now: () => Date },
): Promise<{ inbox: Inbox; period: Period }> {
  const inbox = await keyedInbox(c, deps.reports.inboxes);
  return { inbox, period: periodOf(c, deps.now()) };
}

import { type Fact, mailFactKinds, type MailFactKind, type Unconfirmed } from '../kinds/index.js';

/**
 * The forms in which earlier versions stored a watch, read as the current one
 * (docs/watch-engine.md, "Storage and migration"). A store keeps what a process wrote before an
 * upgrade: a state or a pending delivery in the old form is read as its new form here, and written
 * in the new form by the next write of its party (a re-check, a retry). Nothing else reads a
 * stored value in an old form, so this file is the one place that knows them.
 *
 * - A state kept its lists by zone (`lists`), each sender address's by address (`addresses`), a
 *   mail watch's facts by `<what>:<subject>` (`mail`), and its unconfirmed changes by a string key
 *   (`<zone>`, `<address> <zone>`, `mail:<what>:<subject>`): now one list of facts, and the
 *   unconfirmed changes by their fact's key.
 * - A pending delivery named its e-mail `mail`: now `email`.
 */

interface OldList {
  status: 'listed' | 'not_listed';
  name: string;
  codes?: string[];
  meaning?: string;
  delist_url?: string;
  since?: string;
}

interface OldState {
  lists: Record<string, OldList>;
  addresses?: Record<string, Record<string, OldList>>;
  mail?: Record<string, Fact>;
  unconfirmed?: Record<string, { status: string; seen: number }>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A stored state as the current schema reads it: an old form converted, the new one as it is. */
export function currentState(stored: unknown): unknown {
  if (!isRecord(stored)) return stored;
  const outbox = Array.isArray(stored.outbox) ? stored.outbox.map(currentDelivery) : stored.outbox;
  if (!('lists' in stored) || 'facts' in stored) return { ...stored, outbox };
  const { lists, addresses, mail, unconfirmed, ...rest } = stored as unknown as OldState &
    Record<string, unknown>;
  const facts: Fact[] = [
    ...listFacts(lists),
    ...Object.entries(addresses ?? {}).flatMap(([address, each]) => listFacts(each, address)),
    ...Object.values(mail ?? {}),
  ];
  const pending = Object.entries(unconfirmed ?? {}).map(([key, entry]) => ({
    ...factKeyOf(key),
    value: entry.status,
    seen: entry.seen,
  }));
  return {
    ...rest,
    facts,
    ...(pending.length > 0 ? { unconfirmed: pending } : {}),
    outbox,
  };
}

/** A stored pending delivery as the current schema reads it. */
export function currentDelivery(stored: unknown): unknown {
  if (!isRecord(stored) || !('mail' in stored) || 'email' in stored) return stored;
  const { mail, ...rest } = stored;
  return { ...rest, email: mail };
}

function listFacts(lists: Record<string, OldList>, address?: string): Fact[] {
  return Object.entries(lists).map(
    ([zone, { status, since, name, codes, meaning, delist_url }]) => ({
      what: 'list',
      subject: zone,
      ...(address === undefined ? {} : { address }),
      value: status,
      detail: {
        name,
        ...(codes === undefined ? {} : { codes }),
        ...(meaning === undefined ? {} : { meaning }),
        ...(delist_url === undefined ? {} : { delist_url }),
      },
      ...(since === undefined ? {} : { since }),
    }),
  );
}

/**
 * The fact an old unconfirmed change's key named. The old keys were built from these parts: a
 * zone holds no space, an address no space, a mail fact's kind no colon.
 */
function factKeyOf(key: string): Omit<Unconfirmed, 'value' | 'seen'> {
  if (key.startsWith('mail:')) {
    const rest = key.slice('mail:'.length);
    const colon = rest.indexOf(':');
    const what = rest.slice(0, colon);
    if (colon > 0 && (mailFactKinds as readonly string[]).includes(what)) {
      return { what: what as MailFactKind, subject: rest.slice(colon + 1) };
    }
  }
  const space = key.indexOf(' ');
  if (space < 0) return { what: 'list', subject: key };
  return { what: 'list', address: key.slice(0, space), subject: key.slice(space + 1) };
}

import { base64url } from '../../lib/index.js';
import type { WatchEmail } from '../email/index.js';
import {
  callerWatchesKey,
  hashOf,
  networkCap,
  networkSubject,
  networkWatchesKey,
  type RandomBytes,
  sameHash,
  type WatchConfig,
} from '../model/index.js';
import type { OperationContext } from './context.js';

/**
 * Who creates, renews or removes a watch (docs/watch-engine.md, "Operations"): the owner whose
 * places under the caps the watch takes.
 *
 * - A caller of the HTTP API: its quota subject (src/http/caller.ts `quotaSubject`: its address,
 *   an IPv6 /64), counted under WATCH_PER_CALLER and, by its network (an IPv4 /24, an IPv6 /48),
 *   WATCH_PER_NETWORK; the bearer token it sent, when it is OPERATOR_TOKEN, makes an operator's
 *   watch. Its proof of a watch is the manage key, which the routes check.
 * - Another subsystem keeping watches for its own users (a reports inbox): its name and the id
 *   of the owner within it, counted under `cap` alone. It may renew and remove only the watches
 *   it created.
 *
 * Every owner's watches count under WATCH_MAX: it is the runner's capacity.
 */
export type WatchOwner =
  | { caller: string; credential?: string | undefined }
  | {
      subsystem: string;
      id: string;
      cap: number;
      /**
       * The owner is the operator's (a reports inbox made with OPERATOR_TOKEN): its watches are
       * the operator's, whose webhooks may reach WEBHOOK_ALLOW_NETWORKS.
       */
      operator?: boolean;
    };

/** The sets a watch is counted in, and each one's cap. */
export interface Cap {
  /** The set under the current key first, then under the previous one while it is kept. */
  keys: string[];
  limit: number;
  /** The refusal's reason past it. */
  reason: string;
}

/** What an owner's watch keeps, and the caps it counts under. */
export interface Places {
  held: Pick<WatchConfig, 'caller_hash' | 'network_hash'>;
  caps: Cap[];
  /** The caller sent OPERATOR_TOKEN: no cap of a caller's (watches, confirmations) is its. */
  operator: boolean;
}

/** The id a subsystem's owner is kept under: never a caller's (theirs are base64url, no colon). */
const subsystemId = (owner: { subsystem: string; id: string }) => `${owner.subsystem}:${owner.id}`;

export async function placesOf(context: OperationContext, owner: WatchOwner): Promise<Places> {
  const { limits } = context;
  if ('subsystem' in owner) {
    const id = subsystemId(owner);
    return {
      held: { caller_hash: id },
      caps: [
        {
          keys: [callerWatchesKey(id)],
          limit: owner.cap,
          reason: `${owner.subsystem} keeps at most ${owner.cap} live watches for ${owner.id}`,
        },
      ],
      // An operator's inbox keeps its own cap, but its watches' webhooks are the operator's.
      operator: owner.operator === true,
    };
  }
  const [caller, network, operator] = await Promise.all([
    context.callerIds.idsOf(owner.caller),
    context.callerIds.idsOf(networkSubject(owner.caller)),
    isOperator(context, owner),
  ]);
  const held = { caller_hash: caller[0]!, network_hash: network[0]! };
  // The operator's watches count under WATCH_MAX alone: the caps share the service among
  // strangers, and the operator is the one who set them (a demo's or a fleet's watches).
  if (operator) return { held, caps: [], operator };
  return {
    held,
    operator,
    caps: [
      {
        keys: caller.map(callerWatchesKey),
        limit: limits.perCaller,
        reason: `a caller may keep ${limits.perCaller} live watches (WATCH_PER_CALLER)`,
      },
      {
        keys: network.map(networkWatchesKey),
        limit: networkCap(limits),
        reason: `a network (an IPv4 /24, an IPv6 /48) may keep ${networkCap(limits)} live watches (WATCH_PER_NETWORK)`,
      },
    ],
  };
}

/** Whether a subsystem keeps the watch (its owner's id has a colon, a caller's never). */
export function isSubsystemOwned(watch: Pick<WatchConfig, 'caller_hash'>): boolean {
  return watch.caller_hash.includes(':');
}

/** Whether the owner may act on the watch: a subsystem on its own watches only. */
export function mayAct(watch: WatchConfig, owner: WatchOwner | undefined): boolean {
  return owner === undefined || !('subsystem' in owner) || watch.caller_hash === subsystemId(owner);
}

/**
 * Whether a caller sent OPERATOR_TOKEN, compared as hashes in constant time; a subsystem's owner
 * says so itself.
 */
export async function isOperator(context: OperationContext, owner: WatchOwner): Promise<boolean> {
  if ('subsystem' in owner) return owner.operator === true;
  const token = context.limits.operatorToken;
  if (!('caller' in owner) || owner.credential === undefined || token === undefined) return false;
  const [given, expected] = await Promise.all([
    hashOf(owner.credential, context.digest),
    hashOf(token, context.digest),
  ]);
  return sameHash(given, expected);
}

/** What only a subsystem's owner may give (create.ts `WatchInput`); a caller's is dropped. */
export interface Granted {
  webhook_secret?: string;
  email_confirmed?: boolean;
}

export function grantedTo(owner: WatchOwner | undefined, given: Granted): Granted {
  if (owner === undefined || !('subsystem' in owner)) return {};
  return {
    ...(given.webhook_secret === undefined ? {} : { webhook_secret: given.webhook_secret }),
    ...(given.email_confirmed ? { email_confirmed: true } : {}),
  };
}

/** An address a subsystem confirmed itself: alerts go to it at once, with an unsubscribe code. */
export function confirmedEmail(address: string, random: RandomBytes): WatchEmail {
  return { address, confirmed: true, unsubscribe: base64url(random(16)) };
}

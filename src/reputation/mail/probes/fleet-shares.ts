import { base64url, callerNetwork } from '../../../lib/index.js';
import { probeMarginMs } from './contract.js';

/**
 * The shares of one caller and one network counted across the fleet (docs/mail.md, "Bounds and
 * safety"): every worker of `WORKERS=N` and every machine on one SQLite file or one Redis holds a
 * caller's probes in one count. Each probe holds a lease, a member of the caller's set and of its
 * network's set in the service's store, added only while the set holds fewer than the share (one
 * atomic step of the store, across processes) and taken out when the probe ends. A lease lives
 * as long as a probe can and a margin more (`probeLeaseMs`): a worker that dies holding leases
 * locks its callers out no longer than that, and a lease given back after it expired takes
 * nothing from anyone else's, so a count never reads fewer than are held (docs/mail.md says why
 * leases, not a counter).
 */
export interface ProbeLeases {
  /** The Store's: one member more unless the set holds `limit` live ones; false when refused. */
  addMemberWithin(key: string, member: string, limit: number, ttlMs: number): Promise<boolean>;
  /** The Store's: members taken out; one already expired is ignored. */
  removeMembers(key: string, members: readonly string[]): Promise<void>;
}

/** What the fleet-wide shares are counted with, passed in. */
export interface ShareFleet {
  leases: ProbeLeases;
  /**
   * The id a caller or a network is stored under (the caller ids' keyed hash): the store never
   * holds a caller's address.
   */
  idOf(subject: string): Promise<string>;
  /** For the process's own prefix of its leases' names, unique across the fleet. */
  randomBytes(length: number): Uint8Array;
}

/**
 * A probe's lease: past the longest a probe lives (a stage's bound plus the margin, when the
 * check's signal ends it), plus one margin more for the event loop of a busy process.
 */
export function probeLeaseMs(timeoutMs: number): number {
  return timeoutMs + 2 * probeMarginMs;
}

/** A share that refused a lease: its group and how many it holds at once. */
export interface ShareRefusal {
  group: 'caller' | 'network';
  limit: number;
}

/** The leases one probe holds, given back once when it ends. */
export interface HeldLeases {
  release(): Promise<void>;
}

export interface FleetShareLimits {
  perCaller: number;
  perNetwork: number;
}

/**
 * Takes a probe's leases of its caller's and its network's shares: the leases held, or the share
 * that refused (with nothing left held), or `unknown` when the store could not count (nothing
 * left held either).
 */
export function fleetShares(
  fleet: ShareFleet,
  limits: FleetShareLimits,
  timeoutMs: number,
): (caller: string) => Promise<HeldLeases | ShareRefusal | 'unknown'> {
  const leaseMs = probeLeaseMs(timeoutMs);
  const prefix = base64url(fleet.randomBytes(12));
  let issued = 0;
  const giveBack = async (keys: readonly string[], member: string) => {
    // A lease the store cannot take back now ends by its own time to live.
    await Promise.all(
      keys.map((key) => fleet.leases.removeMembers(key, [member]).catch(() => undefined)),
    );
  };
  return async (caller) => {
    const member = `${prefix}.${(issued += 1)}`;
    const held: string[] = [];
    let trying: string | undefined;
    try {
      const groups = [
        { group: 'caller', subject: caller, limit: limits.perCaller },
        { group: 'network', subject: callerNetwork(caller), limit: limits.perNetwork },
      ] as const;
      for (const { group, subject, limit } of groups) {
        const key = `probe-share:${group}:${await fleet.idOf(subject)}`;
        trying = key;
        if (!(await fleet.leases.addMemberWithin(key, member, limit, leaseMs))) {
          await giveBack(held, member);
          return { group, limit };
        }
        held.push(key);
      }
    } catch {
      // The store may have added the lease it then failed to confirm (a command that timed out).
      await giveBack(
        trying === undefined || held.includes(trying) ? held : [...held, trying],
        member,
      );
      return 'unknown';
    }
    let released = false;
    return {
      async release() {
        if (released) return;
        released = true;
        await giveBack(held, member);
      },
    };
  };
}

import { parseHostName, parseTarget, type Target } from './targets.js';

/**
 * What each kind of check asks about, read one way for the tools and the watches alike: the IP
 * check an address or a host name, the domain, mail and pool checks a host name. A watch of a kind
 * reads its target as the tool of that kind does, so a target one accepts the other accepts.
 */
export type TargetKind = 'ip' | 'domain' | 'mail' | 'pool';

/** The target a kind reads: the IP check's may be an address, every other is a name. */
export type TargetFor<K extends TargetKind> = K extends 'ip'
  ? Target
  : Extract<Target, { kind: 'domain' }>;

export type TargetReading<K extends TargetKind = TargetKind> =
  | {
      ok: true;
      target: TargetFor<K>;
      /**
       * How it is kept and keyed: the ASCII name, or the address (IPv6 in its RFC 5952 canonical
       * form, so every spelling of one address is one target).
       */
      text: string;
    }
  | { ok: false; reason: string };

export function targetOf<K extends TargetKind>(kind: K, input: string): TargetReading<K> {
  const parsed = kind === 'ip' ? parseTarget(input) : parseHostName(input);
  if (!parsed.ok) return parsed;
  const { target } = parsed;
  return {
    ok: true,
    target: target as TargetFor<K>,
    text: target.kind === 'domain' ? target.name : target.address,
  };
}

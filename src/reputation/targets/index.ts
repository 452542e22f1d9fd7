/**
 * What is checked: IPv4 and IPv6 addresses and host names, parsed, refused when not public, shown.
 * The address rules themselves are the bottom layer's (src/lib/).
 */

export { displayName, isHostName, parseHostName, parseTarget, type Target } from './targets.js';
export {
  type TargetFor,
  type TargetKind,
  type TargetOptions,
  type TargetReading,
  type TargetRefusal,
  targetOf,
} from './target-of.js';

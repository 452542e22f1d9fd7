import type { Guard } from '../../http/index.js';
import type { CheckReadiness } from '../../reputation/index.js';
import type { Watches } from '../../watch/index.js';
import type { ArtefactDeps, TargetDeps } from '../common/index.js';

/** What the watch's routes need: the engine's face, the quota guard, and what its views draw with. */
export interface WatchToolDeps extends ArtefactDeps, CheckReadiness, TargetDeps {
  watches: Watches;
  guard: Guard;
}

// The pool of the matchers RobotsTxt compiles for its own answers (isAllowed,
// explain, and usage()'s Content-Usage path patterns): one process-wide bound
// for all of them (see match/matcher-pool.ts for why no caller holds them).
import { matcherPool } from './matcher-pool.js';

/** Bound on the memory of all RobotsTxt's own matchers in the process. */
export const OWN_MATCHERS_BYTES = 32 << 20;
export const ownMatchers = matcherPool(OWN_MATCHERS_BYTES);

/** @internal The pool of RobotsTxt's own matchers, for tests. */
export function ownMatcherStats(): { matchers: number; bytes: number } {
  return { matchers: ownMatchers.size, bytes: ownMatchers.bytes };
}

// The matchers that RobotsTxt compiles for its own isAllowed/explain, held
// process-wide under one bound. No caller ever holds them, so none is left for
// the garbage collector: its FinalizationRegistry callbacks run only when the
// event loop turns, and WASM memory never shrinks, so a synchronous loop of
// `parse(body).isAllowed(url, agent)` grew until the process died when each
// RobotsTxt kept its matchers until it was collected. Here the least recently
// used are disposed at once when the bound is passed (never the one just used);
// a RobotsTxt whose matcher went compiles it again when asked. The pool is a
// MatcherLru keyed by the matcher itself: get(m) when m is used, set(m, m) when
// it is compiled, delete(m) when its RobotsTxt disposes it.
import type { Matcher } from './matcher.js';
import { MatcherLru } from './matcher-lru.js';

export type MatcherPool = MatcherLru<Matcher, Matcher>;

export function matcherPool(maxBytes: number): MatcherPool {
  return new MatcherLru<Matcher, Matcher>({ maxBytes, weigh: (m) => m.heldBytes, release: (m) => m.dispose(), keepNewest: true });
}

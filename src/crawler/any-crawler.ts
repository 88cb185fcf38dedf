// RobotsCache's answers for another crawler than its own, and for operators,
// from the same cached entry: an ok entry's parsed file (parsed once, kept and
// weighed with the entry; its matchers are RobotsTxt's own, in their bounded
// process-wide pool), or, for an origin whose robots.txt says nothing, its
// status's verdict for every crawler.
import { agentTokens } from '../engine/parse/agents.js';
import { robotsInternals } from '../engine/robots-txt.js';
import type { OperatorSource } from '../engine/usage/operator-usage.js';
import { crawlerUsage, usageOf, type CrawlerUsage } from '../engine/usage/usage.js';
import type { ResolvedCacheOptions } from './cache-options.js';
import type { Slot } from './cache-slot.js';

/** What answers a crawler other than the cache's own (a RobotsTxt, or a status's stand-in). */
export type OtherSource = OperatorSource & {
  crawlDelay(agent: string | readonly string[]): number | undefined;
};

let noUsage: CrawlerUsage | undefined;
/** The usage lines of an origin whose robots.txt says nothing (unavailable or unreachable): made on first use, not
 * at import (an ES import of the package evaluates this module). */
export const noCrawlerUsage = (): CrawlerUsage => (noUsage ??= Object.freeze(crawlerUsage([], 'rfc')));

/** An origin whose robots.txt says nothing: every crawler gets the status's verdict (line 0) and no
 * preference, and no control token states anything (it has no group, and a `*` disallow that is only
 * the status's is not the site's statement). */
function statusSource(allowed: boolean): OtherSource {
  const verdict = Object.freeze({ allowed, line: 0 });
  const none: ReadonlySet<string> = new Set();
  return {
    statesNothing: true,
    explain: () => verdict,
    namedAgents: () => none,
    usage: (url, _agent, options) => usageOf(noCrawlerUsage(), verdict, url, options),
    crawlDelay: () => undefined,
  };
}
// The two status sources, made on first use, not at import (an ES import of the package evaluates this module).
let unavailable: OtherSource | undefined;
let unreachable: OtherSource | undefined;

/** Is an agent given, and another than the cache's own (checked: a user mistake throws before any fetch)? */
export function isOther(agent: string | readonly string[] | undefined, options: ResolvedCacheOptions): agent is string | readonly string[] {
  if (agent === undefined || agent === options.agent) return false;
  agentTokens(agent, options.profile);
  return true;
}

/** What answers another crawler, or an operator, for the slot's origin. */
export function sourceOf(slot: Slot): OtherSource {
  // (A file parsed here is weighed with the entry while it is kept: RobotsCache.keep's keepParsed.)
  const robots = slot.entry.status === 'ok' ? slot.entry.robots : undefined;
  if (robots !== undefined) return robotsInternals(robots);
  return slot.entry.status === 'unavailable' ? (unavailable ??= statusSource(true)) : (unreachable ??= statusSource(false));
}

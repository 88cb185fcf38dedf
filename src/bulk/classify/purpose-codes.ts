// A crawler's use purposes (search, train-ai, ai-use: engine/usage/usage.ts) as the
// core writes them for classify with usage: one u32 code per crawler and URL
// (layout.ts's USAGE_BITS), the code of what the crawler may fetch (the core
// writes all unknown where it may not: robots.txt implies no preference there).
// Work is done per robots.txt and set of groups, never per URL, except where
// Content-Usage rules with path patterns decide:
//   - no Content-Usage or Content-Signal line in the crawler's groups (most
//     files): code 0, all unknown;
//   - only Content-Signal lines and Content-Usage rules without a path: the same
//     purposes for every URL, one code;
//   - Content-Usage rules with path patterns: a function of the URL's text,
//     RobotsTxt.usage's own reading (usageOf), called per URL.
import { type RobotsTxt, PURPOSES, type Preference, type Purpose } from '../../index.js';
import { robotsInternals } from '../../engine/robots-txt.js';
import { usageOf, type CrawlerUsage } from '../../engine/usage/usage.js';
import { PREFERENCE_CODE } from '../../engine/usage/preference-codes.js';
import { USAGE_BITS } from '../../engine/wasm/layout.js';
import type { PurposeCode } from './classification.js';

/** The verdict usageOf is given: the code is for URLs the crawler may fetch. */
const MAY_FETCH = { allowed: true, line: 0 };

/** The purposes as a code: USAGE_BITS a purpose, in PURPOSES' order, each its PREFERENCE_* (layout.ts). */
export function purposeCode(purposes: Record<Purpose, Preference>): number {
  let code = 0;
  PURPOSES.forEach((p, i) => (code |= PREFERENCE_CODE[purposes[p]] << (i * USAGE_BITS)));
  return code;
}

/** The crawler's purposes in this robots.txt (crawlers with the same rulesKey get the same: compute once per key). */
export function crawlerPurposes(robots: RobotsTxt, crawler: string): PurposeCode {
  const usage = robotsInternals(robots).crawlerUsage(crawler);
  if (usage.rules.length === 0 && usage.signals.length === 0) return 0;
  if (usage.rules.every((r) => r.pattern === null)) return purposeCode(usageOf(usage, MAY_FETCH, '/').purposes);
  return byUrl(usage);
}

/** A crawler's purposes where Content-Usage path patterns decide: per URL, as RobotsTxt.usage reads them. */
function byUrl(usage: CrawlerUsage): (url: string) => number {
  return (url) => purposeCode(usageOf(usage, MAY_FETCH, url).purposes);
}

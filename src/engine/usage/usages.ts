// RobotsTxt.usages(): usage() for several crawlers, in their order. Crawlers
// that the same groups apply to, and the same control tokens speak for, share
// one answer (most often all that no group names, which `*` decides): Googlebot
// and FooBot may share groups, not control tokens. Each gets its own copy.
import { controlKey } from './control-tokens.js';
import { purposesOf } from './vocabulary.js';
import type { Usage, UsageOptions } from './usage.js';

/** What usagesOf asks of a RobotsTxt. */
interface UsageSource {
  rulesKey(agent: string | readonly string[]): string;
  usage(url: string, agent: string | readonly string[], options?: UsageOptions): Usage;
}

export function usagesOf(robots: UsageSource, url: string, crawlers: readonly (string | readonly string[])[], options?: UsageOptions): Usage[] {
  if (!Array.isArray(crawlers)) throw new TypeError(`crawlers must be an array of crawlers, got ${typeof crawlers}`);
  const byRules = new Map<string, Usage>();
  return crawlers.map((crawler) => {
    const key = robots.rulesKey(crawler) + controlKey(crawler, options?.operators);
    let usage = byRules.get(key);
    if (usage === undefined) byRules.set(key, (usage = robots.usage(url, crawler, options)));
    const p = usage.purposes;
    return { ...usage, purposes: purposesOf(p.search, p['train-ai'], p['ai-use']), signals: usage.signals.map((s) => ({ ...s })) };
  });
}

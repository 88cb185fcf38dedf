// Which groups apply, decided on the host from the records' own reading of
// each user-agent line (its `global`, `wildcard` and lower-cased product token),
// as src/engine/parse/agents.ts decided it before the core did
// (assembly/parse/group-choice.ts): the reference the property tests hold the
// core's answer to. Not used by the library.
import type { AgentLine, Group } from '../../src/engine/parse/records.js';
import type { CrawlerNames } from '../../src/engine/parse/agents.js';

/** Does the user-agent line name the crawler? Never the global group's line. */
function namesCrawler(line: AgentLine, crawler: CrawlerNames): boolean {
  return !line.global && ('tokens' in crawler ? crawler.tokens.includes(line.lower) : crawler.lines.includes(line.line));
}

function namesAny(lines: readonly AgentLine[], crawler: CrawlerNames): boolean {
  return lines.some((a) => namesCrawler(a, crawler));
}

/** Every group that one of its lines names; failing that, every `*` group ('global': the global line; 'wildcard': any value starting with `*`). */
export function groupsThatApplyReference<T extends { readonly agents: readonly AgentLine[] }>(groups: readonly T[], crawler: CrawlerNames, star: 'global' | 'wildcard' = 'global'): T[] {
  const specific = groups.filter((g) => namesAny(g.agents, crawler));
  if (specific.length > 0) return specific;
  return groups.filter((g) => g.agents.some((a) => (star === 'global' ? a.global : a.wildcard)));
}

/** 'own' when a group that applies names the crawler, 'star' when they are the `*` groups, 'none' when none applies. */
export function reachOfReference(applicable: readonly Group[], tokens: readonly string[]): 'own' | 'star' | 'none' {
  if (applicable.length === 0) return 'none';
  return applicable.some((g) => namesAny(g.agents, { tokens })) ? 'own' : 'star';
}

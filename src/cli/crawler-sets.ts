// --crawlers' named sets: `@ai` (the AI crawlers of ai.robots.txt, src/data/ai-crawlers.ts)
// and `@google` (Google's crawler tokens, src/data/google-crawlers.ts), mixed with
// plain names (`--crawlers @ai,Googlebot`), duplicates dropped case aside.
import { isProductToken, type Profile } from '../index.js';
import { asciiLower } from '../text/ascii.js';
import { AI_CRAWLERS, AI_CRAWLERS_SOURCE } from '../data/ai-crawlers.js';
import { GOOGLE_CRAWLERS } from '../data/google-crawlers.js';
import { CliError } from './errors.js';

/** How many crawlers the names are, case aside (ai.robots.txt spells a few twice). */
const crawlerCount = (names: readonly string[]) => new Set(names.map(asciiLower)).size;

export const CRAWLER_SETS: Readonly<Record<string, { names: readonly string[]; what: string }>> = {
  ai: { names: AI_CRAWLERS.map((c) => c.name), what: `the ${crawlerCount(AI_CRAWLERS.map((c) => c.name))} AI crawlers of ai.robots.txt (revision ${AI_CRAWLERS_SOURCE.revision.slice(0, 7)}, ${AI_CRAWLERS_SOURCE.date})` },
  google: { names: GOOGLE_CRAWLERS.map((c) => c.name), what: `Google's ${GOOGLE_CRAWLERS.length} crawler and fetcher tokens` },
};

/** The sets as help and errors name them. */
export const SET_NAMES = Object.entries(CRAWLER_SETS).map(([k, s]) => `@${k} (${s.what})`).join(', ');

/**
 * The crawlers of --crawlers' names (already split at commas), sets expanded in
 * place, each crawler once (its first place and spelling): names are compared
 * case aside, as the groups compare them, so `GPTBot,gptbot` is one crawler, and
 * so are ai.robots.txt's `meta-externalagent` and `Meta-ExternalAgent`. A set's
 * names that are not product tokens are left out under rfc (it refuses them),
 * kept under google (compared whole: the `*` group applies); either way one note
 * per set says which. A plain name is kept as given (the library checks it).
 */
export function expandCrawlers(names: readonly string[], profile: Profile): { crawlers: string[]; notes: string[] } {
  // Each crawler under the first spelling given, keyed as the groups compare names.
  const crawlers = new Map<string, string>();
  const add = (name: string) => {
    const key = asciiLower(name);
    if (!crawlers.has(key)) crawlers.set(key, name);
  };
  const notes: string[] = [];
  for (const name of names) {
    if (!name.startsWith('@')) {
      add(name);
      continue;
    }
    const set = CRAWLER_SETS[name.slice(1).toLowerCase()];
    if (set === undefined) throw new CliError(`--crawlers: unknown set "${name}": the sets are ${SET_NAMES}`);
    const odd = set.names.filter((n) => !isProductToken(n));
    for (const n of set.names) if (profile !== 'rfc' || isProductToken(n)) add(n);
    if (odd.length === 0) continue;
    const list = odd.map((n) => JSON.stringify(n)).join(', ');
    notes.push(profile === 'rfc'
      ? `${name}: ${odd.length} names are not product tokens (letters, '-' and '_'), left out as the rfc profile refuses them (--profile google compares them whole): ${list}`
      : `${name}: ${odd.length} names are not product tokens (letters, '-' and '_'): Google's parser compares each whole, so no group names it and the "User-agent: *" group applies: ${list}`);
  }
  return { crawlers: [...crawlers.values()], notes };
}

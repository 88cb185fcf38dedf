// --crawlers' named sets: `@ai` (the AI crawlers of ai.robots.txt, src/data/ai-crawlers.ts)
// and `@google` (Google's crawler tokens, src/data/google-crawlers.ts), mixed with
// plain names (`--crawlers @ai,Googlebot`), duplicates dropped.
import { isProductToken, type Profile } from '../index.js';
import { AI_CRAWLERS, AI_CRAWLERS_SOURCE } from '../data/ai-crawlers.js';
import { GOOGLE_CRAWLERS } from '../data/google-crawlers.js';
import { CliError } from './errors.js';

export const CRAWLER_SETS: Readonly<Record<string, { names: readonly string[]; what: string }>> = {
  ai: { names: AI_CRAWLERS.map((c) => c.name), what: `the ${AI_CRAWLERS.length} AI crawlers of ai.robots.txt (revision ${AI_CRAWLERS_SOURCE.revision.slice(0, 7)}, ${AI_CRAWLERS_SOURCE.date})` },
  google: { names: GOOGLE_CRAWLERS.map((c) => c.name), what: `Google's ${GOOGLE_CRAWLERS.length} crawler and fetcher tokens` },
};

/** The sets as help and errors name them. */
export const SET_NAMES = Object.entries(CRAWLER_SETS).map(([k, s]) => `@${k} (${s.what})`).join(', ');

/**
 * The crawlers of --crawlers' names (already split at commas), sets expanded in
 * place, each name once (its first place). A set's names that are not product
 * tokens are left out under rfc (it refuses them), kept under google (compared
 * whole: the `*` group applies); either way one note per set says which. A
 * plain name is kept as given (the library checks it).
 */
export function expandCrawlers(names: readonly string[], profile: Profile): { crawlers: string[]; notes: string[] } {
  const crawlers = new Set<string>();
  const notes: string[] = [];
  for (const name of names) {
    if (!name.startsWith('@')) {
      crawlers.add(name);
      continue;
    }
    const set = CRAWLER_SETS[name.slice(1).toLowerCase()];
    if (set === undefined) throw new CliError(`--crawlers: unknown set "${name}": the sets are ${SET_NAMES}`);
    const odd = set.names.filter((n) => !isProductToken(n));
    for (const n of set.names) if (profile !== 'rfc' || isProductToken(n)) crawlers.add(n);
    if (odd.length === 0) continue;
    const list = odd.map((n) => JSON.stringify(n)).join(', ');
    notes.push(profile === 'rfc'
      ? `${name}: ${odd.length} names are not product tokens (letters, '-' and '_'), left out as the rfc profile refuses them (--profile google compares them whole): ${list}`
      : `${name}: ${odd.length} names are not product tokens (letters, '-' and '_'): Google's parser compares each whole, so no group names it and the "User-agent: *" group applies: ${list}`);
  }
  return { crawlers: [...crawlers], notes };
}

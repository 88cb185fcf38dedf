// The URL picked, for every AI crawler of the shipped list (ai.robots.txt) at
// once: may each fetch it, and its purposes, crawlers with the same answer
// together (most sites answer the same for all but the few they name). Worked
// out only when the reader opens it: it reads the file for 166 crawlers, and
// RobotsTxt.usages() shares the work of crawlers the same groups apply to.
import { isProductToken, type Profile, type RobotsTxt, type Usage, PURPOSES } from '../src/index.js';
import { AI_CRAWLERS, AI_CRAWLERS_SOURCE } from '../src/data/ai-crawlers.js';
import { traitsOf } from '../src/engine/parse/profile.js';

/** One answer and the crawlers that get it. */
export interface DigestGroup {
  /** 'fetch' (may fetch it), 'no-fetch', or 'refused' (a name the profile refuses). */
  kind: 'fetch' | 'no-fetch' | 'refused';
  /** The answer in words: `may fetch; search allowed, train-ai disallowed, ai-use unknown`. */
  answer: string;
  names: string[];
}

/** The AI crawlers' answers for url, grouped, the largest group first. */
export function aiDigest(robots: RobotsTxt, url: string, profile: Profile): DigestGroup[] {
  const names = AI_CRAWLERS.map((c) => c.name);
  // The rfc profile takes product tokens only (AI2Bot is not one): those are refused, as the crawler field refuses them.
  const refused: string[] = traitsOf(profile).requiresProductTokens ? names.filter((n) => !isProductToken(n)) : [];
  const asked = names.filter((n) => !refused.includes(n));
  const usages = robots.usages(url, asked);
  const groups = new Map<string, DigestGroup>();
  for (const [k, u] of usages.entries()) {
    const answer = answerOf(u);
    let g = groups.get(answer);
    if (g === undefined) groups.set(answer, (g = { kind: u.allowed ? 'fetch' : 'no-fetch', answer, names: [] }));
    g.names.push(asked[k]);
  }
  const out = [...groups.values()].sort((a, b) => b.names.length - a.names.length);
  if (refused.length > 0) out.push({ kind: 'refused', answer: 'not a product token: the rfc profile refuses the name', names: refused });
  return out;
}

function answerOf(u: Usage): string {
  if (!u.allowed) return `may not fetch it (line ${u.line}): no purpose`;
  return `may fetch it; ${PURPOSES.map((p) => `${p} ${u.purposes[p]}`).join(', ')}`;
}

/** A group of more names than this shows them when asked. */
const LONG = 12;

/** The digest as a <details>, filled when opened (and again for each URL picked while it is open). */
export function digestDetails(open: boolean, fill: () => DigestGroup[]): HTMLDetailsElement {
  const details = document.createElement('details');
  details.id = 'ai-digest';
  details.append(Object.assign(document.createElement('summary'), { textContent: `All ${AI_CRAWLERS.length} AI crawlers (${AI_CRAWLERS_SOURCE.project}) for this URL` }));
  const draw = () => {
    if (details.dataset.filled !== undefined) return;
    details.dataset.filled = '';
    let groups: DigestGroup[];
    try {
      groups = fill();
    } catch (e) {
      details.append(Object.assign(document.createElement('p'), { className: 'note', textContent: e instanceof Error ? e.message : String(e) }));
      return;
    }
    const ul = document.createElement('ul');
    for (const g of groups) {
      const li = document.createElement('li');
      li.dataset.kind = g.kind;
      li.dataset.count = String(g.names.length);
      li.append(Object.assign(document.createElement('strong'), { textContent: `${g.names.length} ${g.answer}` }));
      // (A long group, most often all the crawlers no group names, folds its names away: the few named ones stay in sight.)
      if (g.names.length <= LONG) li.append(`: ${g.names.join(', ')}`);
      else {
        const names = document.createElement('details');
        names.append(Object.assign(document.createElement('summary'), { textContent: 'their names' }), g.names.join(', '));
        li.append(names);
      }
      ul.append(li);
    }
    details.append(ul);
  };
  details.addEventListener('toggle', () => {
    if (details.open) draw();
  });
  if (open) {
    details.open = true;
    draw();
  }
  return details;
}

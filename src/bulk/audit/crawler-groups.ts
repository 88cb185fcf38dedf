// The groups that apply to the audit's crawlers on a site, and how they reach
// each (groups of its own, the `*` groups alone, none): the core's choice
// (assembly/parse/group-choice.ts, as agents.ts groupsThatApply asks it for
// one crawler), made for all of a site's crawlers in one call
// (assembly/bulk/audit-group-choice.ts). Asked a crawler at a time, the choice
// wrote the crawler's names to the core's area and called it for each of them,
// a tenth of the audit's loop with the JavaScript around it; here the file's
// user-agent lines are written once a site, the crawlers' names once a run.
import type { Group } from '../../engine/parse/records.js';
import { applicableGroups, choiceArea, choiceLayout, groupChoices, lastChoiceReach } from '../../engine/parse/agents.js';
import { encodedNames } from '../../engine/parse/rule-selection.js';
import { core } from '../../engine/wasm/core.js';
import { AGENT_CHOICE_NAMED, AGENT_EACH_CRAWLERS } from '../../engine/wasm/layout.js';

/** How the groups that apply reach the crawler: groups of its own, the `*` groups alone, none. */
export type Reach = 'own' | 'star' | 'none';

export interface CrawlerGroups {
  groups: Group[];
  reach: Reach;
}

/** The groups (in file order) that apply to one crawler of these names (agentTokens': lower case), and how. */
export function crawlerGroups(groups: readonly Group[], names: readonly string[]): CrawlerGroups {
  const chosen = applicableGroups(groups, names);
  return { groups: chosen, reach: lastChoiceReach() };
}

/** The crawlers' names as the core reads them, one crawler's after another's, in runs of AGENT_EACH_CRAWLERS
 * crawlers (the most a call takes): kept for the last crawlers asked (the auditor asks the same, site after site). */
let encodedFor: readonly (readonly string[])[] | undefined;
let encodedRuns: Uint8Array[] = [];

/** crawlerGroups for each crawler (each by its names, as crawlerGroups takes them), in one call of the core (a
 * call each AGENT_EACH_CRAWLERS crawlers). */
export function crawlerGroupsEach(groups: readonly Group[], crawlers: readonly (readonly string[])[]): CrawlerGroups[] {
  if (crawlers !== encodedFor) {
    encodedRuns = [];
    for (let first = 0; first < crawlers.length; first += AGENT_EACH_CRAWLERS) {
      const each = crawlers.slice(first, first + AGENT_EACH_CRAWLERS).map((names) => encodedNames(names));
      const run = new Uint8Array(each.reduce((octets, e) => octets + e.length, 0));
      let at = 0;
      for (const e of each) {
        run.set(e, at);
        at += e.length;
      }
      encodedRuns.push(run);
    }
    encodedFor = crawlers;
  }
  const chosen: CrawlerGroups[] = [];
  // (One run: the lines written and not held, the site's crawlers all asked here; a control token asked after
  // writes them again. Several runs (more crawlers than a call takes): held, so that the runs after the first find
  // them written, unless a run's larger area moved them.)
  const hold = encodedRuns.length > 1;
  for (let r = 0; r < encodedRuns.length; r++) {
    const n = Math.min(AGENT_EACH_CRAWLERS, crawlers.length - r * AGENT_EACH_CRAWLERS);
    chooseRun(groups, encodedRuns[r], n, hold, chosen);
  }
  return chosen;
}

/** The choices of the n crawlers whose names are `names` (as the core reads them), appended to chosen; the lines
 * held for the next choice of the same groups with `hold` (choiceArea's). */
function chooseRun(groups: readonly Group[], names: Uint8Array, n: number, hold: boolean, chosen: CrawlerGroups[]): void {
  // The area: the lines, then each crawler's owners (room for every group), their answers, the names.
  const stride = 4 * groups.length;
  if (!choiceArea(groups, n * stride + 4 * n, names.length, hold)) {
    for (let k = 0; k < n; k++) chosen.push({ groups: [], reach: 'none' });
    return;
  }
  groupChoices.count++;
  const c = core();
  const { at, entries, lines, out, names: namesAt } = choiceLayout;
  c.u8.set(names, at + namesAt);
  const answers = at + out + n * stride;
  c.exports.groupsApplyingEach(at, at + entries, lines, at + namesAt, n, at + out, stride, answers);
  const i32 = c.i32;
  for (let k = 0; k < n; k++) {
    const answer = i32[(answers >>> 2) + k];
    const count = answer & ~AGENT_CHOICE_NAMED;
    const owners = (at + out + k * stride) >>> 2;
    const applying: Group[] = [];
    for (let i = 0; i < count; i++) applying.push(groups[i32[owners + i]]);
    chosen.push({ groups: applying, reach: count === 0 ? 'none' : (answer & AGENT_CHOICE_NAMED) !== 0 ? 'own' : 'star' });
  }
}

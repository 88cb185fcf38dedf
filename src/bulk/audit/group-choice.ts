// Which of a site's groups apply to a crawler, for the audit: the choice
// agents.ts applicableGroups asks of the core (assembly/parse/group-choice.ts),
// made here over the user-agent lines as the records read them (their `*`, their
// product token in lower case), with no call into the core. A site is asked it
// once per crawler: each call wrote the crawler's names into the core's area and
// had every line's token compared there again (about a tenth of the audit's
// time). A test holds the two choices equal over the corpus, both profiles
// (test/bulk/audit-group-choice.test.ts).
import type { Group } from '../../engine/parse/records.js';

/** How the chosen groups reach the crawler: groups naming it, the `*` groups alone, none. */
export type Reach = 'own' | 'star' | 'none';

export interface GroupChoice {
  groups: Group[];
  reach: Reach;
}

/**
 * A site's choice of groups per crawler: every group a line of which names one of the crawler's names (its product
 * tokens, lower case: agentTokens'); failing that, every `*` group. A line names a crawler when it is not the `*`
 * line and its product token (the leading run of letters, '-' and '_', lower case: AgentLine.lower) is one of the
 * names: a name that is not such a run equals no line's token, as the core reads none (rule-selection.ts
 * namesTheCoreReads). The `*` groups are found once a site: most crawlers no line names.
 */
export class SiteGroupChoice {
  private star: GroupChoice | undefined;

  constructor(private readonly groups: readonly Group[]) {}

  of(names: readonly string[]): GroupChoice {
    const groups = this.groups;
    if (!namesAny(groups, names)) return (this.star ??= starChoice(groups));
    const chosen: Group[] = [];
    for (const g of groups) {
      for (const a of g.agents) {
        if (!a.global && names.includes(a.lower)) {
          chosen.push(g);
          break;
        }
      }
    }
    return { groups: chosen, reach: 'own' };
  }
}

/** Does a line of the groups name the token (lower case)? RobotsTxt.namedAgents().has(token), without a set made. */
export function namesToken(groups: readonly Group[], token: string): boolean {
  for (const g of groups) for (const a of g.agents) if (!a.global && a.lower === token) return true;
  return false;
}

/** Does a line of the groups name one of the names? */
function namesAny(groups: readonly Group[], names: readonly string[]): boolean {
  for (const g of groups) for (const a of g.agents) if (!a.global && names.includes(a.lower)) return true;
  return false;
}

/** The `*` groups, for a crawler no line names (none: no group reaches it). */
function starChoice(groups: readonly Group[]): GroupChoice {
  const chosen: Group[] = [];
  for (const g of groups) {
    for (const a of g.agents) {
      if (a.global) {
        chosen.push(g);
        break;
      }
    }
  }
  return { groups: chosen, reach: chosen.length === 0 ? 'none' : 'star' };
}

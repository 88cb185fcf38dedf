// One site's robots.txt as the audit asks it: per set of groups (crawlers that
// the same groups apply to share it) its rules as the audit compares them, its
// category, its verdict at `/` and its use-preference lines; and, over those,
// the answers usage() and operatorUsage() give at the site's root, found
// without compiling the rules (the verdict at `/` is the rules' own, rule by
// rule: the core's with the category, core-witnesses.ts, or path-verdict.ts's
// for a set the core does not take). The engine's usage() and operatorUsage() logic is
// used as it is (usageOf, controlStatementsOf, operatorUsageOf): only the
// verdicts come from here.
import type { Profile, Purposes, Usage, UsageOptions } from '../../index.js';
import { agentTokens } from '../../engine/parse/agents.js';
import type { Group } from '../../engine/parse/records.js';
import type { AuditRecords } from './audit-records.js';
import { crawlerUsage, usageOf, type CrawlerUsage } from '../../engine/usage/usage.js';
import { controlTokensOf, statementsOfUses, type ControlStatement, type ControlTokenUse } from '../../engine/usage/control-tokens.js';
import type { Operator } from '../../data/operators.js';
import type { OperatorSource } from '../../engine/usage/operator-usage.js';
import { categoryOfRules, type CategoryAnswer } from './rule-category.js';
import { coreCategory, type CoreSetAnswer } from './core-witnesses.js';
import { crawlerGroups, crawlerGroupsEach, type Reach } from './crawler-groups.js';
import { pathVerdict, rulesOf, type PathVerdict, type Rule, type TokenArena } from './path-verdict.js';

const ROOT = Uint8Array.of(0x2f);

/** What one set of groups says. */
export class GroupSet {
  private answer: CategoryAnswer | undefined;
  private verdict: PathVerdict | undefined;
  private usageLines: CrawlerUsage | undefined;
  private ruleList: Rule[] | undefined;
  private purposes: Purposes | undefined;

  constructor(
    readonly groups: readonly Group[],
    private readonly body: Uint8Array,
    private readonly profile: Profile,
    /** Where its rules keep their tokens if the host makes them (the site's arena). */
    private readonly arena?: TokenArena,
    /** What the core decided of it (core-witnesses.ts), when it took the set. */
    decided?: CoreSetAnswer,
  ) {
    this.answer = decided?.answer;
    this.verdict = decided?.atRoot;
  }

  /** Its rules as the host compares them: made only for what the core did not decide. */
  private rules(): readonly Rule[] {
    return (this.ruleList ??= rulesOf(this.body, this.groups, this.profile, this.arena));
  }

  /** The category of its rules (one per set of groups, however many crawlers share it). Its verdict at `/`
   * (asked of every site for the purposes there) is the category's first witness: one walk of the rules for both. */
  category(): CategoryAnswer {
    return (this.answer ??= categoryOfRules(this.rules(), this.profile, this.atRoot().allowed));
  }

  /** Its verdict at `/`. */
  atRoot(): PathVerdict {
    return (this.verdict ??= pathVerdict(this.rules(), ROOT));
  }

  /** usageOf()'s purposes at the root (`url`) with no control token's statement: those of every crawler of the set
   * for which none states anything (usageOf's answer then depends on nothing else). */
  plainPurposes(url: string): Purposes {
    return (this.purposes ??= usageOf(this.usage(), this.atRoot(), url).purposes);
  }

  /** Its Content-Usage and Content-Signal lines, read (as RobotsTxt.crawlerUsage reads them). */
  usage(): CrawlerUsage {
    return (this.usageLines ??= crawlerUsage(this.groups, this.profile));
  }

  /** Frees what the lines compiled (Content-Usage path patterns). */
  dispose(): void {
    this.usageLines?.paths?.dispose();
  }
}

export class SiteRules implements OperatorSource {
  /** The sets met, a few a site: one is another's when it holds the same groups (the same objects, in file order). */
  private readonly sets: GroupSet[] = [];
  /** Each agent's set, once chosen (the record, its purposes and the operators ask of one agent several times). */
  private readonly byAgent = new Map<string, GroupSet>();
  /** How each agent's set reaches it, from the same choice. */
  private readonly reachByAgent = new Map<string, Reach>();
  private named: { has(token: string): boolean } | undefined;

  constructor(
    readonly records: AuditRecords,
    private readonly profile: Profile,
    /** The site's root URL: the only URL this answers for. */
    private readonly root: string,
    private readonly tokensOf: (agent: string) => readonly string[] = (a) => agentTokens(a, profile),
    /** The control tokens that speak for the agent (controlTokensOf's answer; the auditor keeps them across sites). */
    private readonly controlUses: (agent: string, operators: readonly Operator[] | undefined) => readonly ControlTokenUse[] = controlTokensOf,
    /** Where the sets' rules keep their tokens (the auditor's, started again for this site): an array per set when none. */
    private readonly arena?: TokenArena,
  ) {}

  /** The set of groups that apply to the agent. */
  of(agent: string): GroupSet {
    const chosen = this.byAgent.get(agent);
    if (chosen !== undefined) return chosen;
    const { groups, reach } = crawlerGroups(this.records.groups, this.tokensOf(agent));
    return this.place(agent, groups, reach);
  }

  /** Chooses the groups of each agent (by its names: `names[k]` agent k's, tokensOf's) in one call of the core,
   * before their sets are asked for (the auditor's crawlers, every site). */
  chooseEach(agents: readonly string[], names: readonly (readonly string[])[]): void {
    const chosen = crawlerGroupsEach(this.records.groups, names);
    for (let k = 0; k < agents.length; k++) if (!this.byAgent.has(agents[k])) this.place(agents[k], chosen[k].groups, chosen[k].reach);
  }

  /** The agent's set: the set of the same groups if one is met already, else a new one. */
  private place(agent: string, groups: Group[], reach: Reach): GroupSet {
    this.reachByAgent.set(agent, reach);
    let set: GroupSet | undefined;
    for (const s of this.sets) {
      if (sameGroups(s.groups, groups)) {
        set = s;
        break;
      }
    }
    if (set === undefined) {
      // (The core decides the set now, while its tokens are in its areas: the next set's take their place.)
      const body = this.records.body;
      set = new GroupSet(groups, body, this.profile, this.arena, coreCategory(body, groups, this.profile));
      this.sets.push(set);
    }
    this.byAgent.set(agent, set);
    return set;
  }

  /** How the agent's set reaches it: groups of its own ('own'), the `*` groups alone ('star'), none ('none'): reachOf's answer. */
  reach(agent: string): Reach {
    this.of(agent);
    return this.reachByAgent.get(agent)!;
  }

  dispose(): void {
    for (const s of this.sets) s.dispose();
  }

  private atRoot(url: string, agent: string | readonly string[]): PathVerdict {
    if (url !== this.root || typeof agent !== 'string') throw new Error(`site rules answer for ${this.root} and an agent's name only, asked for ${url}`);
    return this.of(agent).atRoot();
  }

  // What operatorUsageOf and controlStatementsOf ask (OperatorSource), at the root only.

  explain(url: string, agent: string | readonly string[]): PathVerdict {
    return this.atRoot(url, agent);
  }

  verdict(url: string, agent: string): PathVerdict {
    return this.atRoot(url, agent);
  }

  /** The product tokens the user-agent lines name (lower case, `*` aside), as RobotsTxt.namedAgents: asked whether
   * it holds a control token, a site or two a crawler, so the lines are looked through, no set made (a Set a site
   * was 1.7% of the audit's loop). */
  namedAgents(): { has(token: string): boolean } {
    return (this.named ??= { has: (token) => namesToken(this.records.groups, token) });
  }

  /** usage() at the root, as RobotsTxt's (usage-answers.ts): no preference where the crawler may not fetch. */
  usage(url: string, agent: string | readonly string[], options?: UsageOptions): Usage {
    const verdict = this.atRoot(url, agent);
    const set = this.of(agent as string);
    return usageOf(set.usage(), verdict, url, options, this.statements(url, agent as string, verdict, options?.operators));
  }

  /** usage(root, agent).purposes, for the record: the set's own (made once for all its crawlers) when no control
   * token states anything for the agent. */
  purposesAtRoot(agent: string): Purposes {
    const set = this.of(agent);
    const verdict = set.atRoot();
    const control = this.statements(this.root, agent, verdict, undefined);
    return control === undefined || control.length === 0 ? set.plainPurposes(this.root) : usageOf(set.usage(), verdict, this.root, undefined, control).purposes;
  }

  /** controlStatementsOf's statements for the agent at url (its verdict there given), from the uses kept; none
   * where it may not fetch. */
  private statements(url: string, agent: string, verdict: PathVerdict, operators: readonly Operator[] | undefined): ControlStatement[] | undefined {
    if (!verdict.allowed) return undefined;
    return statementsOfUses(this, url, this.controlUses(agent, operators));
  }
}

/** Does a user-agent line of the groups name the token (lower case, `*` aside)? RobotsTxt.namedAgents().has(token),
 * without a set made: the tokens the file names, not a choice of groups (agents.ts makes that). */
function namesToken(groups: readonly Group[], token: string): boolean {
  for (const g of groups) for (const a of g.agents) if (!a.global && a.lower === token) return true;
  return false;
}

function sameGroups(a: readonly Group[], b: readonly Group[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

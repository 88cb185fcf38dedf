// What a RobotsTxt keeps to answer usage() (and operatorUsage(), which asks it
// per crawler) URL after URL, per agent given as a string (as given: `googlebot`
// and `Googlebot` are two entries with equal answers): the crawler's usage lines,
// the control tokens that speak for it with whether a group names each, and its
// verdict matcher. A URL is then written to the core once and walked through the
// crawler's matcher, its Content-Usage patterns' and its control tokens', and a
// verdict is read from the matcher's header (allowed, and the deciding line:
// explain()'s, without the rule's text, which usage() does not report). At most
// AGENTS entries are kept (the oldest goes first): a RobotsTxt asked about ever
// new agents holds no more. An agent given as a list is not kept (its caller may
// change it): its answer is found as explain() and usageOf() find it.
import type { Operator } from '../data/operators.js';
import { ruleLine, type RuleBlock } from './compile/rule-table.js';
import { controlStatementsOf, controlTokensOf, type ControlStatement } from './control-tokens.js';
import type { Matcher } from './match/matcher.js';
import { ownMatchers } from './own-matchers.js';
import { asciiLower } from './parse/agents.js';
import type { Purpose } from './parse/usage-vocabulary.js';
import { usageOf, type CrawlerUsage, type Usage, type UsageOptions } from './usage.js';
import { core } from './wasm/core.js';
import { H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE } from './wasm/layout.js';

/** Agents whose answers a RobotsTxt keeps. */
export const AGENTS = 32;
/** Sets of groups whose usage lines a RobotsTxt keeps read (a list of agents may name any set). */
export const GROUP_SETS = 64;

/** What UsageAnswers asks of its RobotsTxt. */
export interface AnswerSource {
  /** isAllowed/explain's matcher for the agent (compiled, or from the pool). */
  matcher(agent: string | readonly string[]): Matcher;
  explain(url: string, agent: string | readonly string[]): { allowed: boolean; line: number };
  /** Which groups apply to the agent, as a key (RobotsTxt.rulesKey). */
  rulesKey(agent: string | readonly string[]): string;
  /** The usage lines of the groups that apply to the agent, read. */
  readUsage(agent: string | readonly string[]): CrawlerUsage;
  namedAgents(): ReadonlySet<string>;
}

/** A verdict: may the crawler fetch the URL, and the deciding line (0: none). */
export interface LineVerdict {
  allowed: boolean;
  line: number;
}

/** A control token that speaks for the agent, for which purposes, and whether a group names it. */
interface ControlUse {
  token: string;
  purposes: readonly Purpose[];
  named: boolean;
}

/** One agent's kept answers, each found on first use. */
class AgentAnswers {
  constructor(readonly agent: string) {}
  matcher: Matcher | undefined = undefined;
  usage: CrawlerUsage | undefined = undefined;
  /** The operators `control` was found for (undefined: the shipped ones; null: not found yet). */
  controlOf: readonly Operator[] | undefined | null = null;
  control: readonly ControlUse[] = [];
}

// (One object, its block set per read: a verdict allocates nothing to find its line.)
const at: RuleBlock = { block: 0, count: 0 };

export class UsageAnswers {
  private readonly agents = new Map<string, AgentAnswers>();
  /** Usage lines read, by the groups they are of (rulesKey): crawlers of the same groups share them. */
  private readonly byGroups = new Map<string, CrawlerUsage>();

  constructor(private readonly robots: AnswerSource) {}

  /** @internal What is kept: agents (at most AGENTS) and sets of groups read (at most GROUP_SETS). */
  get size(): { agents: number; groupSets: number } {
    return { agents: this.agents.size, groupSets: this.byGroups.size };
  }

  /** RobotsTxt.crawlerUsage(): the usage lines of the agent's groups, read once per set of groups. */
  crawlerUsage(agent: string | readonly string[]): CrawlerUsage {
    const key = this.robots.rulesKey(agent);
    let usage = this.byGroups.get(key);
    if (usage === undefined) {
      if (this.byGroups.size >= GROUP_SETS) {
        const oldest = this.byGroups.keys().next().value!;
        this.byGroups.get(oldest)!.paths?.dispose();
        this.byGroups.delete(oldest);
      }
      usage = this.robots.readUsage(agent);
      this.byGroups.set(key, usage);
    }
    return usage;
  }

  /** Frees the matchers of the Content-Usage patterns now (RobotsTxt.dispose()). */
  dispose(): void {
    for (const u of this.byGroups.values()) u.paths?.dispose();
  }

  /** RobotsTxt.usage(). */
  usage(url: string, agent: string | readonly string[], options?: UsageOptions): Usage {
    if (typeof agent !== 'string' || typeof url !== 'string') {
      const verdict = this.robots.explain(url, agent); // (checks url and agent)
      const control = verdict.allowed ? controlStatementsOf(this.robots, url, agent, options?.operators) : undefined;
      return usageOf(this.crawlerUsage(agent), verdict, url, options, control);
    }
    const a = this.of(agent);
    const usage = (a.usage ??= this.crawlerUsage(agent));
    const m = this.matcherOf(a);
    const written = core().writeUrl(url); // (once, for every walk below: see deciding())
    const verdict = verdictOf(m, written);
    if (!verdict.allowed) return usageOf(usage, verdict, url, options);
    const deciding = usage.paths === null ? usage.everyPath : (usage.paths.deciding(url, written) ?? usage.everyPath);
    return usageOf(usage, verdict, url, options, this.controlStatements(a, url, options?.operators), deciding);
  }

  /** The agent's verdict for url (explain()'s allowed and line). */
  verdict(url: string, agent: string | readonly string[]): LineVerdict {
    if (typeof agent !== 'string' || typeof url !== 'string') {
      const v = this.robots.explain(url, agent);
      return { allowed: v.allowed, line: v.line };
    }
    const m = this.matcherOf(this.of(agent));
    return verdictOf(m, core().writeUrl(url));
  }

  /** What the control tokens that speak for the agent state for url (controlStatementsOf's answer). */
  private controlStatements(a: AgentAnswers, url: string, operators: readonly Operator[] | undefined): ControlStatement[] | undefined {
    if (a.controlOf !== operators) {
      const named = this.robots.namedAgents();
      // (controlTokensOf keeps no list it was given past its next call: the uses are copied.)
      a.control = controlTokensOf(a.agent, operators).map((u) => ({ token: u.token, purposes: u.purposes, named: named.has(u.lower ?? asciiLower(u.token)) }));
      a.controlOf = operators;
    }
    if (a.control.length === 0) return undefined;
    const statements: ControlStatement[] = [];
    for (const use of a.control) {
      // (The URL is written again: the token's matcher may have been compiled, which may free a long URL's area.)
      const v = this.verdict(url, use.token);
      if (!use.named && v.allowed) continue;
      statements.push({ token: use.token, purposes: use.purposes, preference: v.allowed ? 'allowed' : 'disallowed', line: v.line });
    }
    return statements;
  }

  /** The agent's entry (made, the oldest dropped past AGENTS). */
  private of(agent: string): AgentAnswers {
    let a = this.agents.get(agent);
    if (a === undefined) {
      if (this.agents.size >= AGENTS) this.agents.delete(this.agents.keys().next().value!);
      a = new AgentAnswers(agent);
      this.agents.set(agent, a);
    }
    return a;
  }

  private matcherOf(a: AgentAnswers): Matcher {
    const m = a.matcher;
    if (m !== undefined && !m.disposed) {
      ownMatchers.get(m); // (as RobotsTxt's own use: the most recent in the pool)
      return m;
    }
    return (a.matcher = this.robots.matcher(a.agent));
  }
}

/** m's verdict for the URL last written (`written` octets): explain()'s allowed and line. */
function verdictOf(m: Matcher, written: number): LineVerdict {
  const c = core();
  at.block = m.address;
  const allowed = c.check(at.block, written) === 1;
  const u32 = c.u32;
  const a = u32[(at.block + H_OUT_ALLOW) >>> 2];
  const d = u32[(at.block + H_OUT_DISALLOW) >>> 2];
  // (explain()'s line: the higher priority, on a tie the allow: the lower id.)
  const id = d < a ? d : a;
  return { allowed, line: id === NO_RULE ? 0 : ruleLine(at, id) };
}

// What a RobotsTxt keeps to answer usage() (and operatorUsage(), which asks it
// per crawler) URL after URL, per agent given as a string (as given: `googlebot`
// and `Googlebot` are two entries with equal answers): the crawler's usage lines,
// the control tokens that speak for it with whether a group names each, and its
// verdict matcher. A URL is then written to the core once and walked through the
// crawler's matcher, its Content-Usage patterns' and its control tokens', and a
// verdict is read from the matcher's header (allowed, and the deciding line:
// explain()'s, without the rule's text, which usage() does not report); a
// crawler whose groups have no Allow or Disallow rule may fetch every URL, with
// no walk. Agents of the same groups share a matcher, and the last URL's
// verdicts are kept by set of groups (Googlebot and Google-Extended under `*`
// walk it once). At most
// AGENTS entries are kept (the oldest goes first): a RobotsTxt asked about ever
// new agents holds no more. An agent given as a list is not kept (its caller may
// change it): its answer is found as explain() and usageOf() find it.
// Operator answers are kept here too (operator-usage.ts, kept-answers.ts), by
// their inputs as numbers (entryCodes()): at most ANSWERS. What all this holds
// is estimated (heldBytes), counted on insertion only: RobotsTxt's heldBytes
// adds it, so that a cache that keeps the file weighs what its answers keep.
import type { Operator } from '../../data/operators.js';
import { KeptAnswers, verdictCode } from './kept-answers.js';
import type { OperatorUsage } from './operator-usage.js';
import { ruleLine, type RuleBlock } from '../compile/rule-table.js';
import { controlStatementsOf, controlTokensOf, type ControlStatement } from './control-tokens.js';
import type { Matcher } from '../match/matcher.js';
import { ownMatchers } from '../match/own-matchers.js';
import { asciiLower } from '../../text/ascii.js';
import type { Purpose } from './vocabulary.js';
import { usageFrom, usageOf, usageSignals, type CrawlerUsage, type Usage, type UsageOptions, type UsageRule, type UsageSignal } from './usage.js';
import { core } from '../wasm/core.js';
import { H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE } from '../wasm/layout.js';

/** Agents whose answers a RobotsTxt keeps. */
export const AGENTS = 32;
/** Sets of groups whose usage lines (and verdict matchers) a RobotsTxt keeps (a list of agents may name any set). */
export const GROUP_SETS = 64;
/** Operator answers a RobotsTxt keeps (operatorUsage()), for all operators. */
export const ANSWERS = 1024;
/** Verdicts kept of the last URL, by set of groups. */
const LAST_VERDICTS = 8;
/** A kept operator answer: its fifteen or so frozen objects, its signals and its key. Answers without a
 * signal hold less; this is the costlier answers' (a few signals, a Content-Usage rule that decides: the heap
 * shows some 1,150 B of them, test/engine/kept-answers-bytes.test.ts), with room, so that a budget holds. */
export const KEPT_ANSWER_BYTES = 1536;
/** A character of the header values an answer is kept by: its text, and the header's signals made of them
 * (one-byte strings; values of other characters hold up to twice as much). */
const HEADER_CHAR_BYTES = 1;
/** An agent's entry: its object, its name and groups key, the map's slot, its control tokens' uses (estimated). */
const AGENT_BYTES = 256;
/** A crawler's usage lines read: the object, its lists, and per line (its object and entries), and more
 * per Content-Usage rule with a path (its pattern, and its place in the paths' list). */
const USAGE_BYTES = 160;
const USAGE_LINE_BYTES = 256;
const PATH_RULE_BYTES = 384;

/** What a crawler's usage lines read hold, estimated (the heap shows it within 25%:
 * test/engine/kept-answers-bytes.test.ts); RobotsCache weighs its own agent's by it too. */
export function usageBytes(usage: CrawlerUsage): number {
  const lines = usage.rules.length + usage.signals.length;
  return USAGE_BYTES + lines * USAGE_LINE_BYTES + (usage.rules.length - usage.everyPath.length) * PATH_RULE_BYTES;
}

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
  /** The token's entry, found on first use. */
  answers: AgentAnswers | undefined;
}

/** One agent's kept answers, each found on first use. */
class AgentAnswers {
  constructor(
    readonly agent: string,
    /** Which groups apply to it (rulesKey): agents of the same groups have the same verdicts and usage lines. */
    readonly groups: string,
  ) {}
  usage: CrawlerUsage | undefined = undefined;
  /** Its groups have no Allow or Disallow rule: it may fetch every URL (line 0), no walk needed (undefined: not known yet). */
  ruleless: boolean | undefined = undefined;
  /** The operators `control` was found for (undefined: the shipped ones; null: not found yet). */
  controlOf: readonly Operator[] | undefined | null = null;
  control: readonly ControlUse[] = [];
}

/** The verdict of a crawler without rules, for every URL. */
const MAY_FETCH: LineVerdict = Object.freeze({ allowed: true, line: 0 });

// (One object, its block set per read: a verdict allocates nothing to find its line.)
const at: RuleBlock = { block: 0, count: 0 };

export class UsageAnswers {
  private readonly agents = new Map<string, AgentAnswers>();
  /** Usage lines read, by the groups they are of (rulesKey): crawlers of the same groups share them. */
  private readonly byGroups = new Map<string, CrawlerUsage>();

  constructor(private readonly robots: AnswerSource) {}

  /** Operator answers, frozen, by their inputs (operator-usage.ts). */
  readonly kept = new KeptAnswers<OperatorUsage>(ANSWERS);

  /** What byGroups holds (usageBytes), counted as sets are read and dropped. */
  private groupBytes = 0;

  /** What is kept, estimated: operator answers (and the header values they are kept by), agents' entries and sets of groups read (their matchers
   * are in the pool of RobotsTxt's own, bounded on their own). A few products: asked after each answer. */
  get heldBytes(): number {
    return this.kept.size * KEPT_ANSWER_BYTES + this.kept.textLength * HEADER_CHAR_BYTES + this.agents.size * AGENT_BYTES + this.groupBytes;
  }

  /** @internal What is kept: agents (at most AGENTS), sets of groups read (at most GROUP_SETS) and operator answers (at most ANSWERS). */
  get size(): { agents: number; groupSets: number; answers: number } {
    return { agents: this.agents.size, groupSets: this.byGroups.size, answers: this.kept.size };
  }

  /** RobotsTxt.crawlerUsage(): the usage lines of the agent's groups, read once per set of groups. */
  crawlerUsage(agent: string | readonly string[]): CrawlerUsage {
    const key = this.robots.rulesKey(agent);
    let usage = this.byGroups.get(key);
    if (usage === undefined) {
      if (this.byGroups.size >= GROUP_SETS) {
        const oldest = this.byGroups.keys().next().value!;
        const dropped = this.byGroups.get(oldest)!;
        dropped.paths?.dispose();
        this.groupBytes -= usageBytes(dropped);
        this.byGroups.delete(oldest);
      }
      usage = this.robots.readUsage(agent);
      this.byGroups.set(key, usage);
      this.groupBytes += usageBytes(usage);
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
    const signals = this.signals(url, agent, options);
    return usageFrom(this.found, signals);
  }

  /** The verdict of the last signals() call (read-only: it may be kept). */
  found: LineVerdict = MAY_FETCH;

  /** usage()'s signals for url and the agent (both strings), a list made for this call; its verdict in `found`. */
  signals(url: string, agent: string, options?: UsageOptions): UsageSignal[] {
    return this.entrySignals(this.of(agent), url, options);
  }

  /** The list of agents asked last by entries(), and their entries. */
  private listAsked: readonly string[] | undefined;
  private listEntries: readonly AgentAnswers[] = [];

  /** The entries of a list of agents (strings), kept for the list asked last (the same object: a caller's
   * fixed list). An entry dropped from `agents` since answers as before: the file is the same. */
  entries(agents: readonly string[]): readonly AgentAnswers[] {
    if (agents !== this.listAsked) {
      this.listEntries = agents.map((agent) => this.of(agent));
      this.listAsked = agents;
    }
    return this.listEntries;
  }

  /** The agent's verdict for url (a string), by its entry. */
  entryVerdict(a: AgentAnswers, url: string): LineVerdict {
    this.writtenUrl = undefined;
    return this.verdictOf(a, url);
  }

  /** signals(), by the agent's entry. */
  entrySignals(a: AgentAnswers, url: string, options?: UsageOptions): UsageSignal[] {
    this.writtenUrl = undefined; // (the core's URL area may hold another since the last call)
    const usage = (a.usage ??= this.crawlerUsage(a.agent));
    const verdict = (this.found = this.verdictOf(a, url));
    if (!verdict.allowed) return usageSignals(usage, verdict, url, options);
    let deciding: readonly UsageRule[] | null = usage.everyPath;
    if (usage.paths !== null) {
      if (usage.paths.live) deciding = usage.paths.deciding(url, this.write(url));
      else {
        this.writtenUrl = undefined; // (compiled now: a compile may free a long URL's area)
        deciding = usage.paths.deciding(url);
      }
    }
    return usageSignals(usage, verdict, url, options, this.controlStatements(a, url, options?.operators), deciding ?? usage.everyPath);
  }

  /** What entrySignals() would make its signals of (no headers), as numbers, written to codes from `at`;
   * the place after them. Its verdict (verdictCode); for a URL it may fetch, then, the Content-Usage
   * rules that decide (their place, -1: those for every path) and each control token's statement
   * (verdictCode, -1: none). Its usage lines are the entry's own: the same numbers, the same signals. */
  entryCodes(a: AgentAnswers, url: string, operators: readonly Operator[] | undefined, codes: number[], at: number): number {
    this.writtenUrl = undefined; // (as entrySignals())
    const usage = (a.usage ??= this.crawlerUsage(a.agent));
    const verdict = this.verdictOf(a, url);
    codes[at++] = verdictCode(verdict);
    if (!verdict.allowed) return at;
    let deciding = -1;
    if (usage.paths !== null) {
      if (usage.paths.live) deciding = usage.paths.decidingIndex(url, this.write(url));
      else {
        this.writtenUrl = undefined;
        deciding = usage.paths.decidingIndex(url);
      }
    }
    codes[at++] = deciding;
    for (const use of this.controlUses(a, operators)) {
      const v = this.verdictOf((use.answers ??= this.of(use.token)), url);
      codes[at++] = !use.named && v.allowed ? -1 : verdictCode(v);
    }
    return at;
  }

  /** The agent's verdict for url (explain()'s allowed and line; read-only: it may be kept). */
  verdict(url: string, agent: string | readonly string[]): LineVerdict {
    if (typeof agent !== 'string' || typeof url !== 'string') {
      const v = this.robots.explain(url, agent);
      return { allowed: v.allowed, line: v.line };
    }
    this.writtenUrl = undefined;
    return this.verdictOf(this.of(agent), url);
  }

  /** Verdict matchers by set of groups: agents of the same groups share one. */
  private readonly matchers = new Map<string, Matcher>();
  /** The last URL asked and its verdicts by set of groups (a verdict is the URL's and the groups' alone). */
  private lastUrl: string | undefined;
  private lastCount = 0;
  private readonly lastGroups: string[] = new Array<string>(LAST_VERDICTS).fill('');
  private readonly lastVerdicts: LineVerdict[] = new Array<LineVerdict>(LAST_VERDICTS).fill({ allowed: true, line: 0 });
  /** The URL this call wrote to the core, and its octets: walked again as written until a compile. */
  private writtenUrl: string | undefined;
  private written = 0;

  private verdictOf(a: AgentAnswers, url: string): LineVerdict {
    if (a.ruleless === true) return MAY_FETCH;
    // (A few sets of groups a URL, most often one: a list, not a map.)
    if (url !== this.lastUrl || this.lastCount === LAST_VERDICTS) {
      this.lastUrl = url;
      this.lastCount = 0;
    } else {
      for (let i = 0; i < this.lastCount; i++) if (this.lastGroups[i] === a.groups) return this.lastVerdicts[i];
    }
    const m = this.matcherOf(a);
    a.ruleless ??= m.stats.rules === 0;
    const v = lineVerdict(m, this.write(url));
    this.lastGroups[this.lastCount] = a.groups;
    this.lastVerdicts[this.lastCount++] = v;
    return v;
  }

  /** url in the core's URL area (written unless this call wrote it and nothing was compiled since); its octets. */
  private write(url: string): number {
    if (this.writtenUrl !== url) {
      this.written = core().writeUrl(url);
      this.writtenUrl = url;
    }
    return this.written;
  }

  /** What the control tokens that speak for the agent state for url (controlStatementsOf's answer). */
  private controlStatements(a: AgentAnswers, url: string, operators: readonly Operator[] | undefined): ControlStatement[] | undefined {
    // (No list when none states anything: the most common answer, URL after URL.)
    let statements: ControlStatement[] | undefined;
    for (const use of this.controlUses(a, operators)) {
      // (Its entry kept with the use: one dropped from `agents` since answers as well, the file being the same.)
      const v = this.verdictOf((use.answers ??= this.of(use.token)), url);
      if (!use.named && v.allowed) continue;
      (statements ??= []).push({ token: use.token, purposes: use.purposes, preference: v.allowed ? 'allowed' : 'disallowed', line: v.line });
    }
    return statements;
  }

  /** The control tokens that speak for the agent (of `operators`, default the shipped ones), found once per list. */
  private controlUses(a: AgentAnswers, operators: readonly Operator[] | undefined): readonly ControlUse[] {
    if (a.controlOf !== operators) {
      const named = this.robots.namedAgents();
      // (controlTokensOf keeps no list it was given past its next call: the uses are copied.)
      a.control = controlTokensOf(a.agent, operators).map((u) => ({ token: u.token, purposes: u.purposes, named: named.has(u.lower ?? asciiLower(u.token)), answers: undefined }));
      a.controlOf = operators;
    }
    return a.control;
  }

  /** The agent's entry (made, the oldest dropped past AGENTS). */
  private of(agent: string): AgentAnswers {
    let a = this.agents.get(agent);
    if (a === undefined) {
      const groups = this.robots.rulesKey(agent); // (checks agent)
      if (this.agents.size >= AGENTS) this.agents.delete(this.agents.keys().next().value!);
      a = new AgentAnswers(agent, groups);
      this.agents.set(agent, a);
    }
    return a;
  }

  private matcherOf(a: AgentAnswers): Matcher {
    let m = this.matchers.get(a.groups);
    if (m !== undefined && !m.disposed) {
      ownMatchers.get(m); // (as RobotsTxt's own use: the most recent in the pool)
      return m;
    }
    this.writtenUrl = undefined; // (a compile may free a long URL's area)
    m = this.robots.matcher(a.agent);
    this.matchers.delete(a.groups);
    if (this.matchers.size >= GROUP_SETS) this.matchers.delete(this.matchers.keys().next().value!);
    this.matchers.set(a.groups, m);
    return m;
  }
}

/** m's verdict for the URL last written (`written` octets): explain()'s allowed and line. */
function lineVerdict(m: Matcher, written: number): LineVerdict {
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

// The public entry: parse() and RobotsTxt.
import { agentTokens, applicableGroups, type CrawlerNames, groupsThatApply } from './parse/agents.js';
import { compileColdFromBody } from './compile/cold-from-body.js';
import type { Explanation } from './explanation.js';
import { checkMatcherOptions, Matcher, MatcherOptions, startsCold, Verdict } from './match/matcher.js';
import { OWN_MATCHERS_BYTES as POOL_BYTES, ownMatchers, ownMatcherStats as poolStats } from './match/own-matchers.js';
import { DEFAULT_PROFILE, isProfile, traitsOf, type Profile } from './parse/profile.js';
import type { Diagnostic, Records } from './parse/records.js';
import { copyOctets, encodeOctets, ownedOctets } from './parse/octet-pool.js';
import { selectGroupRules, selectRules } from './parse/rule-selection.js';
import { core } from './wasm/core.js';
import { renamedOption } from './renamed-option.js';
import type { CrawlerUsage, Usage, UsageOptions } from './usage/usage.js';
import type { UsageAnswers, LineVerdict } from './usage/usage-answers.js';
import type { OperatorUsage } from './usage/operator-usage.js';
import { usageLayer } from './usage-layer-loader.js';
import { recordsLayer } from './records-layer-loader.js';
import type { Operator } from '../data/operators.js';

export interface ParseOptions {
  /** 'rfc' (default): RFC 9309 with RFC 3986 normalisation. 'google': Google's robotstxt, bit for bit. */
  profile?: Profile;
  /** Octets of the body parsed; the rest is ignored with a diagnostic. At least 512,000 (the default, RFC 9309 2.5); Infinity for no limit. */
  maxOctets?: number;
  /** @deprecated Use maxOctets (the same limit: octets of the body, not memory). Kept until 0.2; given both, they must agree. */
  maxBytes?: number;
}

/** The least and default body limit, octets (RFC 9309 2.5: at least 500 KiB). */
export const DEFAULT_MAX_OCTETS = 512_000;
/** @deprecated Use DEFAULT_MAX_OCTETS (a body limit in octets). Kept until 0.2. */
export const DEFAULT_MAX_BYTES = DEFAULT_MAX_OCTETS;

/** The body limit of options that take one (maxOctets, or its deprecated alias
 * maxBytes), checked: at least DEFAULT_MAX_OCTETS, or Infinity. */
export function octetLimit(options: { maxOctets?: number; maxBytes?: number }): number {
  const { maxOctets, maxBytes } = options;
  if (maxOctets === undefined && maxBytes === undefined) return DEFAULT_MAX_OCTETS; // (most parses: no object made)
  // One of them, a limit that holds (Infinity most often): read without renamedOption's object.
  const one = maxBytes === undefined ? maxOctets : maxOctets === undefined ? maxBytes : undefined;
  if (typeof one === 'number' && one >= DEFAULT_MAX_OCTETS) return one;
  const { value = DEFAULT_MAX_OCTETS, given } = renamedOption<number>(options, 'maxOctets', 'maxBytes');
  if (typeof value !== 'number' || Number.isNaN(value) || value < DEFAULT_MAX_OCTETS) {
    throw new RangeError(`${given} must be at least ${DEFAULT_MAX_OCTETS} (RFC 9309 2.5), or Infinity; got ${String(value)}`);
  }
  return value;
}
const encoder = new TextEncoder();
/** Matcher options when none are given (not an object per compile). */
const NO_OPTIONS: MatcherOptions = Object.freeze({});
const NO_OCTETS = new Uint8Array(0);
/** A written diagnostic's object, beyond its message (measured as records.ts's). */
const DIAGNOSTIC_BYTES = 80;
/** Compiled matchers kept per RobotsTxt for isAllowed/explain with a repeated agent. */
const MATCHER_CACHE = 8;
/** Bound on the memory of all RobotsTxt's own matchers in the process (see match/own-matchers.ts). */
export const OWN_MATCHERS_BYTES = POOL_BYTES;

/** @internal The pool of RobotsTxt's own matchers, for tests. */
export function ownMatcherStats(): { matchers: number; bytes: number } {
  return poolStats();
}

function diagnosticsBytes(list: readonly Diagnostic[]): number {
  let n = 0;
  for (const d of list) n += DIAGNOSTIC_BYTES + d.message.length;
  return n;
}

export function parse(body: string | Uint8Array, options: ParseOptions = {}): RobotsTxt {
  return new RobotsTxt(body, options);
}

/** The octets to parse (the caller's, as a plain view, or a string's
 * encoding), cut at maxOctets, and the profile; throws for bad options or a body
 * of another type. */
function octetsOf(body: string | Uint8Array, options: ParseOptions): { bytes: Uint8Array; cut: boolean; maxOctets: number; profile: Profile } {
  const profile = profileOf(options);
  const maxOctets = octetLimit(options);
  if (typeof body === 'string') {
    const bytes = encoder.encode(body);
    const cut = bytes.length > maxOctets;
    return { bytes: cut ? bytes.subarray(0, maxOctets) : bytes, cut, maxOctets, profile };
  }
  if (body instanceof Uint8Array) {
    // A plain view (a Buffer's subarray() is slow).
    const cut = body.length > maxOctets;
    return { bytes: new Uint8Array(body.buffer, body.byteOffset, cut ? maxOctets : body.length), cut, maxOctets, profile };
  }
  throw notABody(body);
}

/** The profile of parse options, checked; throws for options that are not an object or name no profile. */
function profileOf(options: ParseOptions): Profile {
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const profile = options.profile ?? DEFAULT_PROFILE;
  if (!isProfile(profile)) {
    throw new TypeError(`profile must be 'rfc' or 'google', got ${JSON.stringify(profile)}`);
  }
  return profile;
}

function notABody(body: unknown): TypeError {
  return new TypeError(`robots.txt body must be a string or a Uint8Array, got ${body === null ? 'null' : typeof body}`);
}

/**
 * @internal parse(body, options).compile(agent, matcherOptions), for those
 * who keep the matcher alone (a cache, bulk classification): no RobotsTxt is
 * made, and the octets are read during the call only (not copied: the caller
 * may reuse them once it returns).
 */
export function compileOctets(body: string | Uint8Array, options: ParseOptions, agent: string | readonly string[], matcherOptions?: MatcherOptions): Matcher {
  const profile = profileOf(options);
  const how = matcherOptions ?? NO_OPTIONS;
  const cold = startsCold(how);
  // A cold start only copies the octets into the core: the caller's, as they are (a view of
  // them, made by the typed array's constructor, was a tenth of a small file's compile).
  const bytes = cold && body instanceof Uint8Array && body.length <= octetLimit(options) ? body : octetsOf(body, options).bytes;
  const names = agentTokens(agent, profile);
  checkMatcherOptions(how);
  try {
    const table = cold ? compileColdFromBody(bytes, names, profile) : recordsLayer().compileRules(bytes, selectRules(bytes, names, profile), profile);
    return new Matcher(table, profile, how);
  } finally {
    core().forgetBody(bytes); // (the caller's octets, which it may change: the next compile copies them again)
  }
}

/**
 * Throws as compileOctets() would for these names under these options (a TypeError naming a name the
 * profile refuses, or a bad profile; a RangeError for a bad maxOctets), and compiles nothing: a command
 * checks the crawler names it was given before it reads or fetches anything.
 */
export function checkAgents(agent: string | readonly string[], options: ParseOptions): void {
  const profile = profileOf(options);
  octetLimit(options);
  agentTokens(agent, profile);
}

/**
 * @internal What the engine's other parts (usage(), compat, RobotsCache, bulk) read of a RobotsTxt beyond
 * its public API: its private members of these names, seen through robotsInternals(), so that the class
 * itself is the API alone.
 */
export interface RobotsInternals {
  /** Bytes it holds (its records and written diagnostics, and what it keeps of the answers it gave:
   * usage()'s entries and operatorUsage()'s answers, estimated; not the matchers it compiled, which are
   * the pool's), for caches' budgets. It grows as answers are kept: a cache weighs it again after asking.
   * Asking means keeping it: what the records do not point into is dropped first (compactRecords). */
  readonly heldBytes: number;
  /** Which groups apply to the crawler, as a key: crawlers with equal keys get the same verdicts. */
  rulesKey(agent: string | readonly string[]): string;
  /** The product tokens the user-agent lines name (lower case, `*` aside): a crawler named by none of
   * them gets the `*` groups, so all such crawlers share one rulesKey (bulk's 166 crawlers a host). */
  namedAgents(): ReadonlySet<string>;
  /** For the compat entry, which reads names as robots-parser does: the matcher (as isAllowed/explain
   * keep theirs) of the crawler that exactly these user-agent lines name (by line number; none: the `*`
   * groups). Use it at once: the pool may dispose it later. */
  matcherNamedBy(lines: readonly number[]): Matcher;
  /** crawlDelay() for the crawler that exactly these user-agent lines name (see matcherNamedBy). */
  crawlDelayNamedBy(lines: readonly number[]): number | undefined;
  /** What usage() keeps per agent, bounded (usage/usage-answers.ts). */
  readonly usageAnswers: UsageAnswers;
  /** explain()'s allowed and line, without the rule (operatorUsage's verdicts). */
  verdict(url: string, agent: string | readonly string[]): LineVerdict;
  /** The use-preference lines of the groups that apply to the crawler, read (RobotsCache keeps them). */
  crawlerUsage(agent: string | readonly string[]): CrawlerUsage;
}

/** @internal A RobotsTxt with its internals in view. */
export type InternalRobotsTxt = Pick<RobotsTxt, keyof RobotsTxt> & RobotsInternals;

/** @internal robots with its internals in view: the same object (nothing is made; the members are the class's private ones). */
export function robotsInternals(robots: RobotsTxt): InternalRobotsTxt {
  return robots as unknown as InternalRobotsTxt;
}

export class RobotsTxt {
  readonly profile: Profile;
  /** The octets parsed (a copy of the caller's: it may reuse them), until records are read: compile() lexes them. */
  private body: Uint8Array;
  /** Read on first use (compile() reads the rules it needs from the lexer's
   * records without them): groups, sitemaps, crawl-delays, diagnostics. */
  private recordsRead: Records | undefined;
  private sitemapList: readonly string[] | undefined;
  /** Made by the first isAllowed/explain (a parse for compile() alone needs none). */
  private matchers: Map<string, Matcher> | undefined;
  private readonly cutAt: number | undefined;
  private diagnosticList: Diagnostic[] | undefined;

  constructor(body: string | Uint8Array, options: ParseOptions = {}) {
    this.profile = profileOf(options);
    const maxOctets = octetLimit(options);
    let octets: Uint8Array;
    let cut: boolean;
    if (typeof body === 'string') {
      octets = encodeOctets(body);
      cut = octets.length > maxOctets;
      if (cut) octets = octets.subarray(0, maxOctets);
    } else if (body instanceof Uint8Array) {
      // A copy: the caller may reuse its octets. (A cut one from a plain view: a Buffer's subarray() is slow.)
      cut = body.length > maxOctets;
      octets = copyOctets(cut ? new Uint8Array(body.buffer, body.byteOffset, maxOctets) : body);
    } else {
      throw notABody(body);
    }
    this.body = octets;
    this.cutAt = cut ? maxOctets : undefined;
  }

  private get records(): Records {
    if (this.recordsRead === undefined) {
      this.recordsRead = recordsLayer().readRecords(this.body, this.profile);
      this.body = NO_OCTETS; // (the records hold it: compactRecords may replace theirs)
    }
    return this.recordsRead;
  }

  /** Sitemap URLs, as written, in file order (RFC: each once; Google's parser reports every line). */
  get sitemaps(): readonly string[] {
    if (this.sitemapList === undefined) {
      const sitemaps = this.records.sitemaps;
      this.sitemapList = traitsOf(this.profile).sitemapsOnce && sitemaps.length > 1 ? [...new Set(sitemaps)] : sitemaps;
    }
    return this.sitemapList;
  }

  /** The records' share of heldBytes (and the diagnostics'), once known; written diagnostics add theirs. */
  private octets = 0;

  /** @internal RobotsInternals.heldBytes. */
  private get heldBytes(): number {
    if (this.octets === 0) {
      const layer = recordsLayer();
      if (!layer.compactRecords(this.records)) this.records.body = ownedOctets(this.records.body); // (not a pooled copy's block)
      const deduplicated = this.sitemaps !== this.records.sitemaps ? this.sitemaps.length * 8 : 0;
      this.octets = layer.recordsBytes(this.records) + deduplicated + diagnosticsBytes(this.diagnosticList ?? []);
    }
    return this.octets + (this.answers?.heldBytes ?? 0);
  }

  /** Each line that was ignored or bent, with its line number and why (written on first use). */
  get diagnostics(): readonly Diagnostic[] {
    if (this.diagnosticList === undefined) {
      const layer = recordsLayer();
      const list = layer.diagnosticsOf(this.records);
      if (this.cutAt !== undefined) {
        list.push(layer.sizeLimitDiagnostic(this.records, this.cutAt));
      }
      this.diagnosticList = list;
      if (this.octets !== 0) this.octets += diagnosticsBytes(list);
    }
    return this.diagnosticList;
  }

  /** The rules that apply to the agent (the groups naming any of its product tokens), compiled. The caller owns it: dispose() frees it. */
  compile(agent: string | readonly string[], options?: MatcherOptions): Matcher {
    const names = agentTokens(agent, this.profile);
    const how = options ?? NO_OPTIONS;
    checkMatcherOptions(how); // (before the compiler puts anything in the core for it)
    // From the records once read (their body may be compacted); else straight from the body.
    const r = this.recordsRead;
    const cold = startsCold(how);
    if (r === undefined && cold) return new Matcher(compileColdFromBody(this.body, names, this.profile), this.profile, how);
    const rules = r !== undefined ? selectGroupRules(applicableGroups(r.groups, names)) : selectRules(this.body, names, this.profile);
    return new Matcher(recordsLayer().compileRules(r !== undefined ? r.body : this.body, rules, this.profile, cold), this.profile, how);
  }

  /** The matcher for isAllowed/explain: compiled on first use, held in the
   * process-wide pool of RobotsTxt's own matchers (which may dispose it when it
   * has not been used for a while: it is then compiled again). */
  private matcher(agent: string | readonly string[]): Matcher {
    // Unambiguous for any strings (under 'google' an agent may hold any character).
    const key = typeof agent === 'string' ? `s${agent}` : `l${JSON.stringify(agent)}`;
    return this.cachedMatcher(key, () => this.compile(agent));
  }

  private cachedMatcher(key: string, compile: () => Matcher): Matcher {
    this.matchers ??= new Map();
    let m = this.matchers.get(key);
    if (m !== undefined && !m.disposed) {
      ownMatchers.get(m);
      return m;
    }
    m = compile();
    this.matchers.delete(key); // (a disposed one, or none)
    if (this.matchers.size >= MATCHER_CACHE) {
      const [oldKey, old] = this.matchers.entries().next().value!;
      this.matchers.delete(oldKey);
      ownMatchers.delete(old);
      old.dispose();
    }
    this.matchers.set(key, m);
    ownMatchers.set(m, m);
    return m;
  }

  /** Frees the matchers isAllowed/explain and usage() compiled, now (they are bounded in any
   * case). The RobotsTxt stays usable: the next verdict compiles again. */
  dispose(): void {
    this.answers?.dispose();
    if (this.matchers === undefined) return;
    for (const m of this.matchers.values()) {
      ownMatchers.delete(m);
      m.dispose();
    }
    this.matchers.clear();
  }

  /**
   * Verdicts for several crawlers at once (each a name, or the names of one
   * crawler), in their order: crawlers that the same groups apply to (most
   * often all that no group names, which `*` decides) share one walk.
   */
  verdicts(url: string, crawlers: readonly (string | readonly string[])[]): Verdict[] {
    if (!Array.isArray(crawlers)) throw new TypeError(`crawlers must be an array of crawlers, got ${typeof crawlers}`);
    const byRules = new Map<string, Verdict>();
    return crawlers.map((crawler) => {
      const key = this.rulesKey(crawler);
      let verdict = byRules.get(key);
      if (verdict === undefined) {
        verdict = this.explain(url, crawler);
        byRules.set(key, verdict);
      }
      return { ...verdict };
    });
  }

  /** Positions of the groups found for crawlers, by group (made on first use). */
  private groupIndex: Map<unknown, number> | undefined;

  /** @internal RobotsInternals.rulesKey. */
  private rulesKey(agent: string | readonly string[]): string {
    const index = (this.groupIndex ??= new Map(this.records.groups.map((g, i) => [g, i])));
    return applicableGroups(this.records.groups, agentTokens(agent, this.profile)).map((g) => index.get(g)).join(',');
  }

  /** Names the user-agent lines give (not `*`), lower-cased, made on first use. */
  private agentNames: ReadonlySet<string> | undefined;

  /** @internal RobotsInternals.namedAgents. */
  private namedAgents(): ReadonlySet<string> {
    return (this.agentNames ??= new Set(this.records.groups.flatMap((g) => g.agents.filter((a) => !a.global).map((a) => a.lower))));
  }

  isAllowed(url: string, agent: string | readonly string[]): boolean {
    return this.matcher(agent).isAllowed(url);
  }

  explain(url: string, agent: string | readonly string[]): Verdict {
    return this.matcher(agent).explain(url);
  }

  /**
   * explain() and the why of it, as `robots explain` and the tester page give
   * it: the groups that applied, every rule that matched with its length, the
   * deciding rule and why it decides, and the purposes with the lines behind
   * them (usage()'s, with the page's headers when given). The verdict is
   * explain()'s; the matches are found rule by rule (a plain matcher, slow: for
   * one URL, not a crawl).
   */
  explainAll(url: string, agent: string | readonly string[], options?: UsageOptions): Explanation {
    const verdict = this.explain(url, agent); // (checks url and agent)
    const layer = usageLayer();
    const control = verdict.allowed ? layer.controlStatementsOf(robotsInternals(this), url, agent, options?.operators) : undefined;
    return layer.explainRecords(this.records, verdict, url, typeof agent === 'string' ? [agent] : [...agent], this.profile, options, control);
  }

  /**
   * Seconds between fetches for the crawler: the first valid crawl-delay after
   * user-agent lines naming it, or, when no line names it, after `*` (or `*` and
   * anything); when those give none, a crawl-delay before any user-agent line.
   * Lines name the crawler as they do for its verdicts (under `google` a name is
   * compared whole: "Bot/2.1" names no group, so `*` applies to it, as to its verdicts).
   */
  crawlDelay(agent: string | readonly string[]): number | undefined {
    return this.delayOf({ tokens: agentTokens(agent, this.profile) });
  }

  private delayOf(crawler: CrawlerNames): number | undefined {
    // (A run's `*` is any value that starts with it, not only the global group's line.)
    for (const r of groupsThatApply(this.records.delayRuns, crawler, 'wildcard')) if (r.delay !== undefined) return r.delay;
    return this.records.defaultDelay;
  }

  /** @internal RobotsInternals.matcherNamedBy. */
  private matcherNamedBy(lines: readonly number[]): Matcher {
    return this.cachedMatcher(`n${lines.join(',')}`, () => {
      const r = this.records;
      const groups = groupsThatApply(r.groups, { lines });
      return new Matcher(recordsLayer().compileRules(r.body, selectGroupRules(groups), this.profile, startsCold({})), this.profile, {});
    });
  }

  /** @internal RobotsInternals.crawlDelayNamedBy. */
  private crawlDelayNamedBy(lines: readonly number[]): number | undefined {
    return this.delayOf({ lines });
  }

  /**
   * @deprecated Use usage(url, agent), which reads Content-Usage per purpose (with Content-Signal
   * and the page's headers). Kept until 0.2. The Content-Usage keys of robots.txt that usage()
   * counted for the path, as written, joined with ", " in file order (the rules of its longest
   * matching pattern, matched as usage() matches them); undefined when it counted none (no rule
   * decides, or the crawler may not fetch the path).
   */
  contentUsage(path: string, agent: string | readonly string[]): string | undefined {
    const keys = this.usage(path, agent).signals.filter((s) => s.field === 'content-usage' && s.header !== true);
    return keys.length === 0 ? undefined : keys.map((s) => s.value).join(', ');
  }

  /**
   * What the crawler may do with the URL's content, per purpose (search,
   * train-ai, ai-use): its Content-Usage rules and Content-Signal lines (the
   * groups of its verdicts), and the page's own headers when given; nothing
   * from robots.txt for a URL it may not fetch (docs/library.md#use-preferences).
   */
  usage(url: string, agent: string | readonly string[], options?: UsageOptions): Usage {
    return this.usageAnswers.usage(url, agent, options);
  }

  /** What usage() keeps per agent (made on first use). */
  private answers: UsageAnswers | undefined;

  /** @internal RobotsInternals.usageAnswers. */
  private get usageAnswers(): UsageAnswers {
    if (this.answers !== undefined) return this.answers;
    const layer = usageLayer();
    return (this.answers = new layer.UsageAnswers({
      matcher: (a) => this.matcher(a),
      explain: (u, a) => this.explain(u, a),
      rulesKey: (a) => this.rulesKey(a),
      readUsage: (a) => layer.crawlerUsage(applicableGroups(this.records.groups, agentTokens(a, this.profile)), this.profile),
      namedAgents: () => this.namedAgents(),
    }));
  }

  /** @internal RobotsInternals.verdict. */
  private verdict(url: string, agent: string | readonly string[]): LineVerdict {
    return this.usageAnswers.verdict(url, agent);
  }

  /** An operator's answer per purpose (`'google'` or an Operator): may its crawler fetch, what the site says of the use, one word for both. */
  operatorUsage(url: string, operator: string | Operator, options?: UsageOptions): OperatorUsage {
    const layer = usageLayer();
    return layer.operatorUsageOf(robotsInternals(this), url, layer.operatorOf(operator, options?.operators), options);
  }

  /** usage() for several crawlers, in their order (as verdicts(): crawlers the same groups and control tokens apply to share one answer). */
  usages(url: string, crawlers: readonly (string | readonly string[])[], options?: UsageOptions): Usage[] {
    return usageLayer().usagesOf(robotsInternals(this), url, crawlers, options);
  }


  /** @internal RobotsInternals.crawlerUsage. */
  private crawlerUsage(agent: string | readonly string[]): CrawlerUsage {
    return this.usageAnswers.crawlerUsage(agent);
  }

  /** RSL License URLs (file-wide `License:` lines), as written, in file order. */
  get licenses(): readonly string[] {
    return this.records.licenses.map((l) => l.value);
  }

  /** `LLM-Policy:` values (file-wide), as written, in file order. */
  get llmPolicies(): readonly string[] {
    return this.records.llmPolicies.map((l) => l.value);
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(RobotsTxt, 'name', { value: 'RobotsTxt' });

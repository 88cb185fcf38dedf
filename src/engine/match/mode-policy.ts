// The mode policy: how a matcher walks, and what its automaton may hold.
//
// A matcher goes through three modes, in this order, never back:
// - cold: its first `coldOctets` of paths are walked rule by rule from a list
//   (assembly/match/cold.ts); nothing is built;
// - hot: the lazy DFA (dfa.ts), its memory capped at `maxBytes` (past it the
//   tables are cleared and rebuilt from the current state);
// - rules: a DFA that thrashes is dropped for good, for the trie of the rules'
//   literal heads, whose nodes list their `*` rules, and a gram index of the
//   rules of crowded heads (assembly/match/rule-mode.ts), whose size is fixed.
//
// In: the knobs below; a caller sets two of them per matcher (MatcherOptions'
// coldOctets and maxDfaBytes), a test any of them (MatcherOptions' internal
// `modePolicy`). Out: one frozen value LazyDfa reads, and rulesPayOff, the cost
// model's verdict. Invariant: the default is one shared value (a matcher made
// with it holds no policy of its own); a policy never changes once resolved.
import { MAX_STATES, NARROW_ROWS_LIMIT } from '../wasm/layout.js';

/**
 * When a matcher whose DFA thrashes turns to rule mode: 'cost' when the DFA's
 * work per URL since its last clearing outweighs what rule mode would do (at a
 * clearing for the cap, and as the DFA grows: see firstCostCheck); 'reset' at
 * its first clearing (tests); 'never'.
 */
export type RuleModePolicy = 'cost' | 'reset' | 'never';

export interface ModePolicy {
  /**
   * Octets of paths a matcher walks cold before its DFA takes over (the default
   * of MatcherOptions.coldOctets; 0 starts hot). Past it the matcher is hot and
   * stays so. About a hundred URLs of a host: a crawler's few dozen URLs of a
   * host rarely pay for the trie and the states they would build (on the
   * corpus, hosts checked with a few hundred URLs each went faster with this
   * than with more; with a thousand each, more was faster), and a hot matcher holds far more.
   */
  readonly coldOctets: number;
  /**
   * What ends the cold phase of a matcher compiled without coldOctets: 'cost'
   * (the default) the cost model (coldReview below), 'octets' the policy's
   * coldOctets.
   */
  readonly coldUntil: 'cost' | 'octets';
  /** The cold walk's cost model, in units of its work (a rule's entry visited,
   * a head compared: assembly/match/cold.ts counts them). Lists of at least
   * indexRules rules are indexed (assembly/match/cold-index.ts) once their
   * walks did indexUnits a rule; by 'cost' the matcher turns hot once its cold
   * walks did hotBase + hotUnits a token octet of the rules (what the trie and
   * its first states cost, measured on docs.oracle.com's file) while a URL's walk does more than hotUrlUnits (a walk
   * that meets few rules costs about what the automaton's steps and the call do). */
  readonly indexRules: number;
  readonly indexUnits: number;
  readonly hotBase: number;
  readonly hotUnits: number;
  readonly hotUrlUnits: number;
  /** The hot threshold's factor for a matcher that takes rule mode on turning hot (see starShare):
   * rule mode is made from its rule list in the core (src/engine/compile/literal-heads.ts), for far
   * less than the trie and first states. The factor is a ski rental: turn once the cold walks
   * have cost what making rule mode costs, which on the bench's 20,000-rule file is before the
   * cold list's index is paid for (a factor a little higher turns after it, with index and rule
   * mode both paid; 4, the trie's price four times, two hundred times later). */
  readonly ruleModeHotFactor: number;
  /** Work between reviews at least (a review is a host call). */
  readonly reviewUnits: number;
  /** The cost model turns hot no matcher of which more than one rule in starShare has two `*`
   * or more before literal octets and no 4 literal octets in a row past its first `*` (rule mode
   * would try them one by one, as the cold walk does: the pathological file, all of them). A
   * matcher that turns hot with that share of such rules, grams or not, takes rule mode at once
   * (its DFA would thrash: the bench's generated 20,000-rule file, one in nine, with grams; hot, it
   * walked a URL slower than cold and indexed, and far slower than in rule mode; by cost it turns
   * so after ruleModeHotFactor times the usual cold work). */
  readonly starShare: number;
  /** ... and at least starHeavyMin such rules (fewer make states an automaton holds: 300 of
   * `/*a1*b*c$` grow ~250 KiB). */
  readonly starHeavyMin: number;
  /** Cap on one matcher's automaton memory, bytes (the default of MatcherOptions.maxDfaBytes). */
  readonly maxBytes: number;
  /** Room for this many states whatever maxBytes says (the start state and a few steps). */
  readonly minStates: number;
  /** States past which the tables are cleared, whatever their bytes. */
  readonly maxStates: number;
  /** Octets of rows addressed with u16 entries before the matcher widens to u32
   * (layout.ts; tests lower it, to widen a matcher in the middle of a walk). */
  readonly narrowRowsLimit: number;
  readonly ruleMode: RuleModePolicy;
  /** In rule mode, a trie node's list of `*` rules (those whose literal head ends there, tried
   * when a path passes it) longer than this gives its rules that have a 4-octet gram to the gram
   * index (assembly/compile/star-plan.ts; tests lower it, to send every rule there). */
  readonly tailRulesMax: number;
  /**
   * The cost model, in rough units of one node stepped by the DFA's builder: a
   * state costs stateUnits and a unit per 8 octets of its sets; rule mode, a
   * `*` rule tried costs ruleUnits (its octet test, often its first segment's),
   * as many as a URL may try (assembly/compile/star-plan.ts: the lists every path meets, the
   * longest other, a gram's rules). Rule mode is taken when the DFA cost more
   * than ruleModeMargin times as much per URL. On bench/synthetic.mjs's
   * files: the 20,000-rule file rebuilds states all along (several a URL) and goes to
   * rule mode at its first clearing (where it checks URLs some thirty times faster); the
   * pathological one builds huge states and goes to rule mode in its first URL.
   */
  readonly stateUnits: number;
  readonly ruleUnits: number;
  readonly ruleModeMargin: number;
  /** The DFA's size (bytes) at which rule mode's cost is first weighed before
   * the cap, then at each doubling: on the pathological file the first URL
   * (16 KiB) built 8 MiB of states, for a long wait, before the cap was met. */
  readonly firstCostCheck: number;
}

export const DEFAULT_MODE_POLICY: ModePolicy = Object.freeze({
  coldOctets: 8192,
  coldUntil: 'cost',
  indexRules: 48,
  indexUnits: 64,
  hotBase: 4096,
  hotUnits: 32,
  hotUrlUnits: 128,
  ruleModeHotFactor: 0.12,
  reviewUnits: 1024,
  starShare: 16,
  starHeavyMin: 1024,
  maxBytes: 8 << 20,
  minStates: 4,
  maxStates: MAX_STATES,
  narrowRowsLimit: NARROW_ROWS_LIMIT,
  ruleMode: 'cost',
  tailRulesMax: 16,
  stateUnits: 64,
  ruleUnits: 8,
  ruleModeMargin: 4,
  firstCostCheck: 1 << 20,
});

/** The default with `changes` (the default itself when there are none). */
export function modePolicy(changes?: Partial<ModePolicy>): ModePolicy {
  return changes === undefined ? DEFAULT_MODE_POLICY : Object.freeze({ ...DEFAULT_MODE_POLICY, ...changes });
}

/** What the cost model weighs of a DFA: its states (the array's length), the
 * octets of its sets, and the URLs it walked, since it was last cleared. */
export interface DfaCost {
  states: number;
  setOctets: number;
  urls: number;
}

/**
 * Would rule mode cost less than this DFA? Asked at a clearing for the cap
 * ('clearing') and as the DFA grows ('growth'). starRules is how many `*` rules
 * rule mode would try per URL, about (asked only when the cost is weighed).
 */
export function rulesPayOff(p: ModePolicy, when: 'clearing' | 'growth', dfa: DfaCost, starRules: () => number): boolean {
  if (p.ruleMode !== 'cost') return when === 'clearing' && p.ruleMode === 'reset';
  const dfaUnits = (dfa.states * p.stateUnits + dfa.setOctets / 8) / Math.max(1, dfa.urls);
  return dfaUnits > p.ruleModeMargin * p.ruleUnits * Math.max(1, starRules());
}

/** What a cold matcher's walks did: in all, and since its list was indexed (all when it is not). */
export interface ColdCost {
  rules: number;
  /** Octets of the rules' tokens (what the trie is built from). */
  tokenOctets: number;
  /** Of the rules, those with two `*` or more before literal octets and no gram for rule mode's
   * index (counted when first asked: rule-lists.ts starHeavyRuleCount)... */
  starHeavyRules: () => number;
  /** ... and those with a gram (rule mode finds them by it); none when not given. */
  gramHeavyRules?: () => number;
  indexed: boolean;
  work: number;
  recentWork: number;
  recentUrls: number;
  /** Turning hot is the cost model's to decide (else the octets budget's). */
  byCost: boolean;
}

/**
 * A cold matcher's review (its walks did the work allowed since the last):
 * index its list now? turn hot now? and the work allowed until the next
 * review (0: none, nothing is left to decide). Ski rental both: each step is
 * taken once the walks have cost about what it costs, so a matcher used for a
 * few URLs pays for neither, and one used for many pays at most about twice.
 */
export function coldReview(p: ModePolicy, c: ColdCost): { index: boolean; hot: boolean; next: number } {
  const indexAt = !c.indexed && c.rules >= p.indexRules ? p.indexUnits * c.rules : Infinity;
  const index = c.work >= indexAt;
  let hotAt = c.byCost ? p.hotBase + p.hotUnits * c.tokenOctets : Infinity;
  // The star counts are a pass over every rule's tokens (a cost a corpus file's compile need not pay):
  // taken only once the walks reach the trie's price, or rule mode's where it is lower (before,
  // turning hot is not in question).
  const countAt = hotAt * Math.min(1, p.ruleModeHotFactor);
  let heavy = 0;
  let ruleBound = false;
  if (c.work >= countAt) {
    heavy = c.starHeavyRules();
    // A matcher that will take rule mode on turning hot (dfa.ts) pays for rule mode's making, not the trie's.
    const all = heavy + (c.gramHeavyRules?.() ?? 0);
    ruleBound = all >= p.starHeavyMin && all * p.starShare > c.rules;
    if (ruleBound) hotAt *= p.ruleModeHotFactor;
  }
  const costly = c.recentUrls > 0 && c.recentWork / c.recentUrls > p.hotUrlUnits;
  // Walks that stay costly once indexed are `*` rules' (a short head, a pass over the path each):
  // where many have several `*`, the automaton thrashes on them (rule mode tries them one by one, unindexed).
  const stays = heavy >= p.starHeavyMin && heavy * p.starShare > c.rules;
  const hot = costly && c.work >= hotAt && !stays;
  if (hot) return { index: false, hot, next: 0 };
  const indexLeft = index ? Infinity : indexAt - c.work;
  // While the cost model may turn it hot: reviewed as its walks grow (at least doubling), else not
  // again; at rule mode's price, and one bound for it at that price, exactly (small: a review late
  // by the walks' doubling would cost more than rule mode's making: the bench's 20,000-rule file
  // was reviewed at 721 URLs where ~200 were due).
  const exact = c.work < countAt ? countAt : ruleBound && !stays && c.work < hotAt ? hotAt : 0;
  const hotLeft = !c.byCost ? Infinity : exact > 0 ? exact - c.work : Math.max(hotAt - c.work, c.work);
  const next = Math.min(indexLeft, hotLeft);
  return { index, hot, next: next === Infinity ? 0 : Math.min(0xfffffffe, Math.max(p.reviewUnits, Math.ceil(next))) };
}

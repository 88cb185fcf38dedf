// The lazy DFA of one matcher: the rules of one crawler as a trie of pattern
// prefixes (src/engine/compile/trie.ts), determinised on demand. The WASM core
// walks the transition table in linear memory and calls `build` for a
// transition it has not seen yet; each new state is built once.
//
// This file is the mode machine that composes the parts (as regex-automata
// keeps its lazy DFA apart from the DFA's mutable cache):
//   mode-policy.ts   when to walk cold, hot or by rules, and the caps (a value);
//   matcher-block.ts the header and the blocks it points to in the core;
//   determinise.ts   the step of the subset construction (trie and byte classes: fixed once hot);
//   dfa-states.ts    the states interned (the cache, cleared at the cap);
//   dfa-tables.ts    the rows the core walks (the cache's WASM side).
// Those three and the trie are reached through automaton-loader.ts: require()
// loads them when a matcher first turns hot.
//
// In: a compiled RuleTable. Out: the core's header and tables, and `build`,
// the core's callback. Invariants: the mode only moves forward (cold, hot,
// rules); hot, the tables and the states' sets stay under the cap (past it
// they are cleared and rebuilt from the current state: the walk continues in
// linear time), whatever the cap with room for policy.minStates states.
import type { Core, TransitionBuilder } from '../wasm/core.js';
import { byteClasses, NO_POSITIONS, NO_TOKENS, type RuleTable } from '../compile/rule-table.js';
import { coldIndexBytes, coldListBytes, freeColdIndex, takeColdList } from '../compile/rule-lists.js';
import { freeRuleModeBlocks, heavyStarRulesOf, ruleListOf, ruleModeBlocks, type RuleModeBlocks, starHeavyCounts } from '../compile/literal-heads.js';
import { COLD_REVIEW_ROW, H_CLASSMAP, H_COLD, H_HOT_URLS, H_ROWS_USED, H_RULES, H_START, NO_RULE } from '../wasm/layout.js';
import { ColdReviewer, firstAllowance } from './cold-review.js';
import { DEFAULT_MODE_POLICY, type ModePolicy, rulesPayOff } from './mode-policy.js';
import { freeMatcher, writeMatcherBlock, writeRuleMode } from './matcher-block.js';
import type { Determiniser } from './determinise.js';
import type { DfaState, DfaStates } from './dfa-states.js';
import type { DfaTables } from './dfa-tables.js';
import { automaton, type Automaton } from './automaton-loader.js';

export { freeMatcher } from './matcher-block.js';

/** A cold list's rules with two `*` or more before literal octets (rule-lists.ts). */
function heavyOf(core: Core, list: number, count: number): number {
  const c = starHeavyCounts(core, list, count);
  return c.plain + c.gram;
}

/** What a matcher is made with besides its rules (MatcherOptions, resolved). */
export interface DfaOptions {
  /** Cap on its automaton memory (default: the policy's). */
  maxBytes?: number;
  /** What it walks cold first (assembly/match/cold.ts; default: the policy's); Infinity is as many as a u32 holds. */
  coldOctets?: number;
  /** Each rule's text by id ("Disallow: /a"), for the core's JSON lines (bulk classification). */
  texts?: readonly Uint8Array[];
}

export class LazyDfa implements TransitionBuilder {
  /** Address of the matcher header in WASM memory. */
  readonly header: number;
  /** Octets of its block (header, rules' lines and values) and of its rules' texts. */
  private readonly headerBytes: number;
  private readonly textBytes: number;
  private readonly core: Core;
  private readonly policy: ModePolicy;
  private readonly maxBytes: number;
  /** Its rules' count. */
  private readonly count: number;
  /** A matcher that starts hot: its rules' tokens, until the trie is built from them (by the first
   * hot walk). A cold one keeps no table (its tokens are in its cold list, its lines and values in
   * its block): ~120 octets of heap less, the table and its ColdList. */
  private table: RuleTable | null;
  /** While cold: the token octets of its rule list (the header's H_RULES), until it turns hot; else -1. */
  private coldTokens: number;
  /** Made at the first review (cold-review.ts), dropped when the matcher turns hot. */
  private reviewer: ColdReviewer | null = null;
  /** Cold until the cost model says (no octets budget): the reviewer's to know. */
  private readonly byCost: boolean;
  // Hot: the determiniser (the trie, its byte classes), its states and tables;
  // made when the matcher turns hot (most of a crawler's never do), dropped in rule mode.
  private det: Determiniser | null = null;
  /** The hot automaton's parts (automaton-loader.ts), asked for once, when the matcher turns hot. */
  private hot: Automaton | null = null;
  private states: DfaStates | null = null;
  private tables: DfaTables | null = null;
  /** Octets of the byte classes (in JS and in the core), once made. */
  private classBytes = 0;
  /** The last intern() failed because the rows outgrew u16 entries, not the cap. */
  private outgrown = false;
  /** The DFA's size at which rule mode's cost is weighed next before the cap (doubled each time; from the start at each clearing). */
  private nextCostCheck: number;
  /** Rules a URL would try in rule mode (mode-policy.ts), known once its blocks were first made from the trie. */
  private ruleModeTried: number | undefined;
  /** Rule mode's blocks, made to weigh its cost: taken by enterRuleMode, or freed, before build() returns. */
  private pending: RuleModeBlocks | null = null;
  /** In rule mode: the octets of its two blocks. */
  private ruleMode: { octets: number } | null = null;
  /** Times the tables were cleared for the cap. */
  resets = 0;

  constructor(core: Core, table: RuleTable, flags: number, policy: ModePolicy = DEFAULT_MODE_POLICY, options: DfaOptions = {}) {
    this.core = core;
    this.policy = policy;
    this.maxBytes = options.maxBytes ?? policy.maxBytes;
    this.nextCostCheck = policy.firstCostCheck;
    this.count = table.count;
    this.table = table.cold === null ? table : null;
    this.coldTokens = table.cold === null ? -1 : table.cold.tokens;
    // The compiler's block: room for the header, then the rules' lines and values (RuleTable).
    this.header = table.block;
    // Cold until the cost model says (coldUntil 'cost': no octets budget), or for the octets given.
    const byCost = (this.byCost = options.coldOctets === undefined && policy.coldUntil === 'cost');
    const coldOctets = options.coldOctets ?? (byCost ? Infinity : policy.coldOctets);
    ({ headerBytes: this.headerBytes, textBytes: this.textBytes } = writeMatcherBlock(core, table, flags, coldOctets, options.texts));
    if (this.coldTokens >= 0 && coldOctets > 0) firstAllowance(core, this.coldList, policy, this.count, this.coldTokens, byCost);
    core.register(this.header, this);
    // The tables and the start state are built by the first walk (build(0, _)).
  }

  /** The WASM core's callback: the transition on byte class `cls` of the state
   * whose row is at octet `row` of the tables (row 0: build the start state). */
  build(row: number, cls: number): number {
    if (row === 0) return this.turnHot();
    // (the core passes a u32 as an i32: all ones arrives as -1)
    if (row >>> 0 === COLD_REVIEW_ROW) return (this.reviewer ??= this.newReviewer()).review(cls);
    const tables = this.tables!;
    const target = this.det!.step(this.states!.list[row / tables.rowBytes], cls);
    const entry = this.intern(target);
    if (entry >= 0) {
      tables.setEntry(row, cls, entry);
      if (this.bytes >= this.nextCostCheck) {
        // A DFA that grows this large over few URLs is thrashing before its cap says so.
        this.nextCostCheck *= 2;
        if (this.rulesPayOff('growth')) {
          this.enterRuleMode();
          return 0;
        }
      }
      return entry;
    }
    if (this.outgrown) {
      this.outgrown = false;
      tables.widen();
    } else {
      this.resets++;
      if (this.rulesPayOff('clearing')) {
        this.enterRuleMode();
        return 0; // (the core starts this URL over in rule mode)
      }
    }
    const stars = target.stars.nodes;
    this.clear(this.policy.minStates);
    target.stars = this.states!.internStars(stars);
    return this.intern(target, true); // not stored in the table: the source state is gone
  }

  /**
   * Cold to hot (the first hot walk): the trie, built only now, so that a
   * matcher compiled and never used (a crawler's cache holds many) costs
   * neither the time nor the memory. The rule table's tokens are dropped once
   * it exists: the trie holds them. Returns the start state's entry.
   */
  private turnHot(): number {
    const core = this.core;
    const p = this.policy;
    if (this.coldTokens >= 0) {
      const list = this.coldList;
      if (p.ruleMode === 'cost' && this.thrashes(this.reviewer?.heavyRules() ?? heavyOf(core, list, this.count), this.count)) {
        // Known to thrash (mode-policy.ts starShare): rule mode at once, from the cold list (literal-heads.ts), no trie nor DFA built.
        this.takeRuleMode(list, this.count);
        freeColdIndex(core, list);
        core.free(list);
        this.dropRules();
        return 0; // (the core walks this URL in rule mode)
      }
      // The cold list's tokens back to a table, for the trie.
      this.table = takeColdList(core, this.header, this.count, list, this.coldTokens);
      core.u32[(this.header + H_RULES) >>> 2] = 0;
      this.dropRules();
    }
    const table = this.table;
    if (table !== null && p.ruleMode === 'cost' && this.thrashes(heavyStarRulesOf(table), table.count)) {
      // As above, from the table's tokens.
      const list = ruleListOf(core, table);
      this.takeRuleMode(list, table.count);
      core.free(list);
      table.tok = NO_TOKENS;
      table.posRule = NO_POSITIONS;
      this.table = null;
      return 0;
    }
    if (table !== null) {
      const classes = byteClasses(table.tok);
      const at = core.alloc(256);
      core.u8.set(classes.classMap, at);
      core.u32[(this.header + H_CLASSMAP) >>> 2] = at;
      this.classBytes = 2 * classes.classMap.length;
      const hot = (this.hot = automaton());
      const trie = hot.buildTrie(table);
      table.tok = NO_TOKENS;
      table.posRule = NO_POSITIONS;
      this.table = null;
      this.states = new hot.DfaStates(classes.nclasses);
      this.det = new hot.Determiniser(trie, classes, this.states);
      this.tables = new hot.DfaTables(core, this.header, classes.nclasses);
    }
    return this.clear(p.minStates);
  }

  /** The cold list's block (while cold: coldTokens >= 0). */
  private get coldList(): number {
    return this.core.u32[(this.header + H_RULES) >>> 2];
  }

  /** A reviewer of the cold list as it was made (nothing walked). */
  private newReviewer(): ColdReviewer {
    return new ColdReviewer(this.core, this.header, this.coldList, this.policy, this.count, this.coldTokens, this.byCost);
  }

  /** The cold list and its reviews dropped (the matcher is hot). */
  private dropRules(): void {
    this.coldTokens = -1;
    this.reviewer = null;
  }

  /** Rule mode made from the rule list (literal-heads.ts), the matcher's only blocks besides its header (the DFA never built). */
  private takeRuleMode(list: number, count: number): void {
    this.ruleMode = { octets: writeRuleMode(this.core, this.header, ruleModeBlocks(this.core, list, count, this.policy.tailRulesMax)) };
  }

  /** Would an automaton of these rules thrash, `heavy` of them with two `*` or more before literal octets (mode-policy.ts starShare)? */
  private thrashes(heavy: number, rules: number): boolean {
    return heavy >= Math.max(this.policy.starHeavyMin, rules / this.policy.starShare);
  }

  /** Empties the tables (room for `capacity` states) and builds the start state. */
  private clear(capacity: number): number {
    this.tables!.clear(capacity);
    this.core.u32[(this.header + H_HOT_URLS) >>> 2] = 0;
    this.nextCostCheck = this.policy.firstCostCheck;
    const none = this.states!.clear(this.det!.trie.size);
    const start = this.intern(this.det!.start(none), true);
    this.core.u32[(this.header + H_START) >>> 2] = start;
    return start;
  }

  /** The entry of the state, creating it if new; -1 when it would pass the cap. */
  private intern(state: DfaState, force = false): number {
    const states = this.states!;
    const tables = this.tables!;
    const found = states.find(state);
    if (found !== 0) return this.entryOf(found);

    const p = this.policy;
    const s = states.list.length;
    const rowBytes = tables.rowBytes;
    const tableBytes = (s >= tables.capacity ? tables.capacity * 2 : tables.capacity) * rowBytes;
    const { stateOctets, T_END_ALLOW, T_END_DISALLOW } = this.hot!;
    const octets = stateOctets(state.rest.length, this.det!.nclasses);
    if (!force && !tables.wide && (s + 1) * rowBytes > p.narrowRowsLimit) {
      this.outgrown = true;
      return -1; // the caller starts over with wide entries
    }
    if (!force && (s > p.maxStates || tableBytes + states.setOctets + octets > this.maxBytes)) {
      return -1; // over the cap: the caller clears the tables
    }
    if (s >= tables.capacity) tables.grow();
    states.add(state, octets);
    tables.setRowsUsed(s + 1);

    // `$` rules ending on an active node match if the path ends here.
    let endAllow = NO_RULE;
    let endDisallow = NO_RULE;
    const t = this.det!.trie;
    for (const q of state.rest) {
      const i = t.term[q];
      if (i < 0) continue;
      endAllow = Math.min(endAllow, t.terms[i * 4 + T_END_ALLOW]);
      endDisallow = Math.min(endDisallow, t.terms[i * 4 + T_END_DISALLOW]);
    }
    tables.setInfo(s, state.allow, state.disallow, endAllow, endDisallow);
    return this.entryOf(s);
  }

  /** The transition entry that leads to state s (layout.ts). */
  private entryOf(s: number): number {
    const state = this.states!.list[s];
    const special = state.allow !== NO_RULE || state.disallow !== NO_RULE;
    const dead = state.rest.length === 0 && state.stars.nodes.length === 0;
    return this.tables!.entry(s, special, dead);
  }

  /** Would rule mode cost less than this DFA (mode-policy.ts)? Its work per URL since it was last cleared. */
  private rulesPayOff(when: 'clearing' | 'growth'): boolean {
    const states = this.states!;
    const urls = this.core.u32[(this.header + H_HOT_URLS) >>> 2];
    // Rule mode's blocks are made to know its cost (the first time only: the trie is fixed), and kept if it pays.
    const tried = () => (this.ruleModeTried ??= (this.pending = this.hot!.ruleModeBlocksOfTrie(this.core, this.det!.trie, this.policy.tailRulesMax)).tried);
    const pays = rulesPayOff(this.policy, when, { states: states.list.length, setOctets: states.setOctets, urls }, tried);
    if (!pays && this.pending !== null) freeRuleModeBlocks(this.core, this.pending);
    if (!pays) this.pending = null;
    return pays;
  }

  /** The DFA dropped for good, for rule mode's blocks (matcher-block.ts), made by the core from the trie's rules. */
  private enterRuleMode(): void {
    const blocks = this.pending ?? this.hot!.ruleModeBlocksOfTrie(this.core, this.det!.trie, this.policy.tailRulesMax);
    this.pending = null;
    this.ruleMode = { octets: writeRuleMode(this.core, this.header, blocks) };
    this.tables!.free();
    this.tables = null;
    this.states = null;
    this.det = null;
  }

  /** Number of DFA states built so far (since the last reset). */
  get stateCount(): number {
    return this.states === null ? 0 : Math.max(0, this.states.list.length - 1);
  }

  /** @internal For tests: the octets of rows in use as the header tells the core
   * (what checkMany touches: assembly/match/touch.ts), as the states take them, and of the table. */
  get rowsInUse(): { header: number; states: number; table: number } {
    if (this.tables !== null) return this.tables.rowsInUse(this.states!.list.length);
    return { header: this.core.u32[(this.header + H_ROWS_USED) >>> 2], states: 0, table: 0 };
  }

  /** Bytes held: WASM tables plus the NFA sets kept on the JS side (what maxBytes
   * caps); none in rule mode (its blocks are the rules, as the trie is: heldBytes). */
  get bytes(): number {
    return this.tables === null ? 0 : this.tables.bytes + this.states!.setOctets;
  }

  /** How the matcher walks now: 'cold' (its rule list), 'hot' (the DFA), 'rules' (rule mode). */
  get mode(): 'cold' | 'hot' | 'rules' {
    if (this.ruleMode !== null) return 'rules';
    return this.core.u32[(this.header + H_COLD) >>> 2] !== 0 ? 'cold' : 'hot';
  }

  /** All the matcher holds: the capped bytes, the trie (or the rule table until
   * the trie is built) and the header block in WASM memory. */
  get heldBytes(): number {
    if (this.ruleMode !== null) return this.ruleMode.octets + this.headerBytes + this.classBytes;
    const rules = this.coldTokens >= 0 ? coldListBytes(this.core, this.count, this.coldList) + coldIndexBytes(this.core, this.coldList) : this.table !== null ? this.table.tok.byteLength + this.table.posRule.byteLength : this.hot!.trieBytes(this.det!.trie);
    return this.bytes + rules + this.headerBytes + this.textBytes + this.classBytes;
  }

  dispose(): void {
    freeMatcher(this.core, this.header);
    this.tables = null;
  }
}

// The lazy DFA: the rules of one matcher as a trie of pattern prefixes (the
// NFA, src/engine/compile/trie.ts), determinised on demand. The WASM core walks the
// transition table in linear memory and calls `build` for a transition it has
// not seen yet; each new state is built once.
//
// What keeps states few and cheap:
// - A node stands for every rule with that prefix, so rules that share a
//   prefix share their positions.
// - A matched rule (without `$`) is decided for the rest of the path: the match
//   is the state's "sticky" accept, and a node kept only for it is not kept.
// - Dominance: a node is dropped when every path below it meets an active `*`
//   node before any rule ends (`X*Y` matches nothing that an active `X*Y*`
//   does not): its frontier (trie.ts). Checked with bounded work.
// - A `*` never dies, so the stars a state has reached are kept apart, as an
//   interned StarSet shared by many states, their children listed per byte
//   class on first use. A step then costs the nodes that move, not the stars
//   that merely wait (as Aho-Corasick does).
//
// Memory is capped per matcher: when the tables would pass the cap, they are
// cleared and rebuilt from the current state (the walk continues in linear time).
import type { Core, TransitionBuilder } from '../wasm/core.js';
import { byteClasses, type ColdList, NO_POSITIONS, NO_TOKENS, ruleBlockBytes, type RuleTable } from '../compile/rule-table.js';
import {
  ENTRY_DEAD, ENTRY_SPECIAL, FLAG_RULES, FLAG_WIDE, H_CLASSMAP, H_COLD, H_FLAGS, H_HOT_URLS, H_LINES, H_LITERAL_TRIE, H_POSITIVE, H_ROWS_USED, H_RULES, H_START, H_TEXTS, H_TEXTS_MAX, H_TRANS,
  HEADER_SIZE, INFO_SIZE, MAX_STATES, N_CHILD_NODE, N_CHILD_START, N_CHILD_TOK, N_HEADER, N_TERM, N_TERMS,
  NARROW_ROWS_LIMIT, NO_RULE, ROW_ALIGN, WIDE_DEAD, WIDE_SPECIAL,
} from '../wasm/layout.js';
import {
  buildTrie, childOf, hasEnd, trieBufferBytes, trieBytes, trieShape, trieViews, T_END_ALLOW, T_END_DISALLOW, T_STICKY_ALLOW, T_STICKY_DISALLOW, Trie,
} from '../compile/trie.js';
import { coldListBytes, starRuleCount, takeColdList, writeStarRules } from '../compile/rule-lists.js';

/** No trie: the matcher is in rule mode, its rules in WASM memory. */
const NO_TRIE = trieViews(new ArrayBuffer(8), { size: 0, edgeCount: 0, termCount: 0, starry: false }, new Int32Array(0));

/** Default cap on one matcher's automaton memory (tables in WASM plus NFA sets). */
export const DEFAULT_MAX_DFA_BYTES = 8 << 20;
const MIN_STATES = 4;

/**
 * Octets of paths a matcher walks cold (assembly/cold.ts: rule by rule,
 * no DFA state built) before its DFA takes over: about a hundred URLs of a
 * host. Past it the matcher is hot and stays so. A crawler's few dozen URLs of
 * a host rarely pay for the trie and the states they would build (on the
 * corpus, hosts checked with 200 URLs each went 2x faster than with 2,048;
 * with 1,000 each, 2,048 was 1.3x faster), and a hot matcher holds far more.
 */
const COLD_OCTETS = 8192;

/** @internal What the tests change: the octets of rows a matcher addresses
 * with u16 entries before it widens (lowered, to widen matchers in the middle
 * of a walk), and the default of MatcherOptions.coldOctets. */
export const dfaTuning = { narrowRowsLimit: NARROW_ROWS_LIMIT, coldOctets: COLD_OCTETS, ruleMode: 'cost' as RuleModePolicy };

/**
 * When a matcher whose DFA thrashes (its tables cleared for the cap) turns to
 * rule mode (assembly/rules.ts): 'cost' when the DFA's work per URL since its
 * last clearing outweighs what rule mode would do; 'reset' at its first
 * clearing (tests); 'never'.
 */
export type RuleModePolicy = 'cost' | 'reset' | 'never';
/**
 * Rule mode's cost model, in rough units of one node stepped by the DFA's
 * builder: a state costs STATE_UNITS and a unit per 8 octets of its sets; rule
 * mode, a `*` rule tried costs RULE_UNITS (its octet test, often its first
 * segment's). Rule mode is taken when the DFA cost more than RULE_MODE_MARGIN
 * times as much per URL. Measured on bench/synthetic.mjs's files: the 20,000-rule
 * file rebuilds cheap states all along and stays a DFA (rule mode there is slower);
 * the pathological one builds huge states and goes to rule mode.
 */
const STATE_UNITS = 64;
const RULE_UNITS = 8;
const RULE_MODE_MARGIN = 4;
/** The DFA's size (bytes) at which rule mode's cost is first weighed before the
 * cap, then at each doubling: on the pathological file the first URL (16 KiB)
 * built 8 MiB of states in half a second before the cap was met. */
const FIRST_COST_CHECK = 1 << 20;

/** Nodes a dominance check may visit (through frontiers of inactive stars) before it gives up. */
const DOMINANCE_BUDGET = 128;
/** Stars not in the set, in a row, that the walk up from a new star passes before it stops. */
const WALK_SKIP = 8;
/** Frontiers a memoised cover check may nest (a deep recursion gives up: "not covered" is always safe). */
const MAX_COVER_DEPTH = 64;

/** The octet children of some nodes, by byte class: targets[start[c], start[c + 1]). */
interface ClassIndex {
  start: Int32Array;
  targets: Int32Array;
}

/** The `*` nodes a state has reached; shared by many states. */
interface StarSet {
  id: number;
  /** Star nodes, sorted. */
  nodes: number[];
  /** Their children by a class (where they move besides staying), listed on first use. */
  moves: (Int32Array | undefined)[];
  /** Unique among all matchers' sets: the key of the cover memo (see coveredBySet). */
  uid: number;
}

/** A DFA state: its star set plus its other active trie nodes (sorted). */
interface DfaState {
  stars: StarSet;
  rest: number[];
  allow: number;
  disallow: number;
  /** The rest nodes' children by class; built for large states stepped from more than once */
  restMoves: ClassIndex | undefined;
  steps: number;
  /** Its hash (intern): the state index compares hashes before sets. */
  hash: number;
}

/** Rest sets larger than this get a byte index, so a step costs only what moves. */
const INDEX_REST = 64;
/** The empty node list, shared. */
const NO_NODES: number[] = [];
/** No byte classes (a cold matcher's), shared. */
const NO_CLASSES = new Uint8Array(0);
/** No states (a cold matcher's), shared. */
const NO_STATES: DfaState[] = [];
/** Slots of an empty state index (powers of two). */
const INDEX_MIN_SLOTS = 16;
const INDEX_MAX_START_SLOTS = 256;

/** A state, always of one shape (V8 keeps its property accesses fast). */
function newState(stars: StarSet, rest: number[], allow: number, disallow: number): DfaState {
  return { stars, rest, allow, disallow, restMoves: undefined, steps: 0, hash: 0 };
}

// Sets are plain arrays: creating a typed array costs more than the sets are worth.
function hashInts(h: number, a: readonly number[]): number {
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ a[i], 0x01000193);
  return h >>> 0;
}

function sameInts(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Has the sorted array a an element in [lo, hi)? */
function inRange(a: readonly number[], lo: number, hi: number): boolean {
  let i = 0;
  let j = a.length;
  while (i < j) {
    const mid = (i + j) >>> 1;
    if (a[mid] < lo) i = mid + 1;
    else j = mid;
  }
  return i < a.length && a[i] < hi;
}

const byNumber = (a: number, b: number) => a - b;

/** a, sorted (often it already is: then in one pass). */
function sorted(a: number[]): number[] {
  for (let i = 1; i < a.length; i++) {
    if (a[i - 1] > a[i]) {
      if (a.length < 64) return a.sort(byNumber);
      const t = Int32Array.from(a).sort(); // a native sort, much faster on long sets
      for (let j = 0; j < a.length; j++) a[j] = t[j];
      return a;
    }
  }
  return a;
}

/**
 * Per-node scratch for the state being built, shared by all matchers (building
 * is never re-entered) and sized to the largest trie. Stamped marks are valid
 * while they equal the current stamp, so they are never cleared.
 */
const newScratch = (n: number) => ({
  /** Nodes active in the state being assembled, and the list of them (to unmark). */
  mark: new Uint8Array(n),
  touched: new Int32Array(n),
  /** Node stamps: visited by the walk up from new stars, then dropped. */
  stamps: new Uint32Array(n),
  /** Node -> uid of the last star set marked that holds it. */
  inFrom: new Uint32Array(n),
  /** Cover memo: node -> uid of the star set the answer holds for, and the answer. */
  coverOf: new Uint32Array(n),
  cover: new Uint8Array(n),
});
let scratch = newScratch(1024);
let stamp = 0;
let starSetUid = 0;
/** The star set whose nodes inFrom marks (with its uid). */
let markedSet = 0;

/**
 * The state being assembled by begin/close/finish: one at a time for all
 * matchers, so a matcher's object holds none of it (a crawler keeps many that
 * never build a state).
 */
const building = {
  /** The stars of the state being stepped from (they stay active), and their uid. */
  from: { id: -1, uid: 0, nodes: NO_NODES, moves: [] } as StarSet,
  fromStamp: 0,
  rest: NO_NODES,
  newStars: [] as number[],
  dropped: [] as number[],
  /** Nodes marked so far (scratch.touched). */
  touchedCount: 0,
  allow: NO_RULE,
  disallow: NO_RULE,
  /** What dominated() may still look at. */
  budget: 0,
};

function nextStamp(): number {
  if (++stamp === 0xffffffff) {
    scratch.stamps.fill(0);
    stamp = 1;
  }
  return stamp;
}

function nextStarSetUid(): number {
  if (++starSetUid === 0xffffffff) {
    scratch.coverOf.fill(0);
    scratch.inFrom.fill(0);
    markedSet = 0;
    starSetUid = 1;
  }
  return starSetUid;
}

/**
 * Frees all a matcher holds in the core, found from its header alone: its
 * LazyDfa's dispose(), and the finalizer of a Matcher dropped without one
 * (which holds the header's address, not the LazyDfa: a registry's cell
 * outlives its unregister() until a full collection, and what it holds would
 * be kept through every scavenge meanwhile).
 */
export function freeMatcher(core: Core, header: number): void {
  core.unregister(header);
  const u32 = core.u32;
  const trie = u32[(header + H_LITERAL_TRIE) >>> 2];
  if (trie !== 0) core.free(trie);
  const rules = u32[(header + H_RULES) >>> 2];
  if (rules !== 0) core.free(rules);
  const tables = u32[(header + H_TRANS) >>> 2];
  if (tables !== 0) core.free(tables);
  const classes = u32[(header + H_CLASSMAP) >>> 2];
  if (classes !== 0) core.free(classes);
  const texts = u32[(header + H_TEXTS) >>> 2];
  if (texts !== 0) core.free(texts);
  core.free(header);
}

export class LazyDfa implements TransitionBuilder {
  /** Address of the matcher header in WASM memory. */
  readonly header: number;
  /** Octets of its block (header, rules' lines and values) and of its rules' texts. */
  private readonly headerBytes: number;
  private readonly textBytes: number;
  private readonly core: Core;
  // The byte classes, made with the trie (a cold matcher needs none).
  private nclasses = 0;
  private classRep: number[] = NO_NODES;
  private classMap: Uint8Array = NO_CLASSES;
  /** Built with the start state (by the first check), from `table`. */
  private trie!: Trie;
  private table: RuleTable | null;
  private readonly maxBytes: number;

  // What the DFA holds, created with its tables (clear): a matcher that never
  // turns hot (most of a crawler's) holds only the shared empty ones.
  private states: DfaState[] = NO_STATES;
  /** The states by hash, open addressing: state ids, 0 for an empty slot. */
  private index = NO_POSITIONS;
  /** hash -> star sets with it */
  private starSets: Map<number, StarSet[]> | undefined;
  private starSetCount = 0;
  private setOctets = 0;
  private tables = 0;
  private capacity = 0;
  /** u32 transition entries (the rows outgrew what u16 entries address). */
  private wide = false;
  /** The last intern() failed because the rows outgrew u16 entries, not the cap. */
  private outgrown = false;
  /** Times the tables were cleared for the cap. */
  resets = 0;

  /** texts: each rule's text by id ("Disallow: /a"), for the core's JSON lines (bulk classification), or none.
   * coldOctets: what the matcher walks cold first (assembly/cold.ts); Infinity is as many as a u32 holds. */
  constructor(core: Core, table: RuleTable, flags: number, maxBytes = DEFAULT_MAX_DFA_BYTES, texts?: readonly Uint8Array[], coldOctets = dfaTuning.coldOctets) {
    this.core = core;
    this.maxBytes = maxBytes;
    this.table = table;

    const nrules = table.count;
    // The compiler's block: room for the header, then the rules' lines and values (RuleTable).
    this.header = table.block;
    this.headerBytes = ruleBlockBytes(nrules, table.valueOctets);
    const h = this.header;
    // The texts, for the core's JSON lines (bulk classification): a block of their own.
    const textOctets = texts === undefined ? 0 : texts.reduce((n, t) => n + t.length, 8 * nrules);
    const textsAt = texts === undefined ? 0 : core.alloc(textOctets);
    this.textBytes = textOctets;
    core.u8.fill(0, h, h + HEADER_SIZE);
    const u32 = core.u32; // (after the allocation: the core's memory may have grown)
    u32[(h + H_FLAGS) >>> 2] = flags;
    // A cold matcher's rule list, written by the compiler: the cold walk's (assembly/cold.ts).
    this.cold = table.cold;
    u32[(h + H_COLD) >>> 2] = table.cold === null ? 0 : Math.min(coldOctets, 0xffffffff);
    u32[(h + H_RULES) >>> 2] = table.cold === null ? 0 : table.cold.block;
    u32[(h + H_POSITIVE) >>> 2] = table.positive;
    // Rule lines, for verdicts written by the core itself (bulk classification).
    u32[(h + H_LINES) >>> 2] = h + HEADER_SIZE;
    if (texts !== undefined) {
      // Per id its text's offset and length from the table's start, then the texts.
      const at = textsAt;
      u32[(h + H_TEXTS) >>> 2] = at;
      let o = 8 * nrules;
      let longest = 0;
      texts.forEach((t, id) => {
        u32[(at >>> 2) + 2 * id] = o;
        u32[(at >>> 2) + 2 * id + 1] = t.length;
        core.u8.set(t, at + o);
        o += t.length;
        longest = Math.max(longest, t.length);
      });
      u32[(h + H_TEXTS_MAX) >>> 2] = longest;
    }

    core.register(h, this);
    // The tables and the start state are built by the first walk (build(0, _)).
  }

  /**
   * The trie, built when the first URL is checked: a matcher compiled and never
   * used (a crawler's cache holds many) costs neither the time nor the memory.
   * The rule table's tokens are dropped once it exists: the trie holds them.
   */
  private buildTrie(): void {
    const table = this.table;
    if (table === null) return;
    ({ classMap: this.classMap, classRep: this.classRep, nclasses: this.nclasses } = byteClasses(table.tok));
    const classes = this.core.alloc(256);
    this.core.u8.set(this.classMap, classes);
    this.core.u32[(this.header + H_CLASSMAP) >>> 2] = classes;
    this.trie = buildTrie(table);
    table.tok = NO_TOKENS;
    table.posRule = NO_POSITIONS;
    this.table = null;
    const size = this.trie.size;
    if (scratch.mark.length < size) {
      scratch = newScratch(Math.max(size, scratch.mark.length * 2));
      markedSet = 0; // (the new inFrom marks no set)
    }
  }

  /**
   * The trie t as one block of the core's memory (N_* fields, then its buffer
   * as it is), for rule mode: the core walks its octet edges only, the rules
   * without `*` (assembly/literal-trie.ts).
   */
  private writeLiteralTrie(t: Trie): { block: number; octets: number } {
    const bufferBytes = trieBufferBytes(trieShape(t));
    const octets = N_HEADER + bufferBytes;
    const block = this.core.alloc(octets);
    const base = block + N_HEADER;
    const { u8, u32 } = this.core;
    u8.set(new Uint8Array(t.childStart.buffer, 0, bufferBytes), base);
    const at = (field: number, view: ArrayBufferView) => (u32[(block + field) >>> 2] = base + view.byteOffset);
    at(N_CHILD_START, t.childStart);
    at(N_CHILD_TOK, t.childTok);
    at(N_CHILD_NODE, t.childNode);
    at(N_TERM, t.term);
    at(N_TERMS, t.terms);
    return { block, octets };
  }

  /**
   * Would rule mode cost less than this DFA, which was just cleared for its
   * cap? Its work per URL since it was last cleared against the `*` rules rule
   * mode would try per URL (see STATE_UNITS).
   */
  private rulesPayOff(): boolean {
    const policy = dfaTuning.ruleMode;
    if (policy !== 'cost') return policy === 'reset';
    const urls = Math.max(1, this.core.u32[(this.header + H_HOT_URLS) >>> 2]);
    const dfaUnits = (this.states.length * STATE_UNITS + this.setOctets / 8) / urls;
    this.starRules ??= starRuleCount(this.trie);
    return dfaUnits > RULE_MODE_MARGIN * RULE_UNITS * Math.max(1, this.starRules);
  }

  /** The DFA's size at which rulesPayOff is asked next before the cap (doubled each time; from the start at each clearing). */
  private nextCostCheck = FIRST_COST_CHECK;
  /** Its `*` rules, counted by the first rulesPayOff. */
  private starRules: number | undefined;

  /**
   * The DFA dropped for good: the trie's octet edges (its rules without `*`)
   * and its `*` rules one by one, both in the core's memory (assembly/rules.ts).
   * Their size is fixed: nothing grows per URL from now on.
   */
  private enterRuleMode(): void {
    const t = this.trie;
    const literal = this.writeLiteralTrie(t);
    const star = writeStarRules(this.core, t);
    const u32 = this.core.u32;
    u32[(this.header + H_LITERAL_TRIE) >>> 2] = literal.block;
    u32[(this.header + H_RULES) >>> 2] = star.block;
    u32[(this.header + H_FLAGS) >>> 2] |= FLAG_RULES;
    this.ruleMode = { octets: literal.octets + star.octets };
    this.core.free(this.tables);
    this.tables = 0;
    this.capacity = 0;
    this.publishTables();
    this.states = [];
    this.index = NO_POSITIONS;
    this.starSets = undefined;
    this.setOctets = 0;
    this.trie = NO_TRIE;
  }

  /** In rule mode: the octets of its two blocks. */
  private ruleMode: { octets: number } | null = null;

  /** The cold walk's rule list (its tokens), until the matcher turns hot. */
  private cold: ColdList | null = null;

  /** Number of DFA states built so far (since the last reset). */
  get stateCount(): number {
    return Math.max(0, this.states.length - 1);
  }

  /** @internal For tests: the octets of rows in use as the header tells the core
   * (what checkMany touches: assembly/touch.ts), as the states take them, and of the table. */
  get rowsInUse(): { header: number; states: number; table: number } {
    const header = this.core.u32[(this.header + H_ROWS_USED) >>> 2];
    return { header, states: this.tables === 0 ? 0 : this.states.length * this.rowBytes(), table: this.capacity * this.rowBytes() };
  }

  /** Bytes held: WASM tables plus the NFA sets kept on the JS side (what maxBytes
   * caps); none in rule mode (its blocks are the rules, as the trie is: heldBytes). */
  get bytes(): number {
    if (this.ruleMode !== null) return 0;
    return this.capacity * this.rowBytes() + this.setOctets;
  }

  /** How the matcher walks now: 'cold' (its rule list), 'hot' (the DFA), 'rules' (rule mode). */
  get mode(): 'cold' | 'hot' | 'rules' {
    if (this.ruleMode !== null) return 'rules';
    return this.core.u32[(this.header + H_COLD) >>> 2] !== 0 ? 'cold' : 'hot';
  }

  /** All the matcher holds: the capped bytes, the trie (or the rule table until
   * the trie is built) and the header block in WASM memory. */
  get heldBytes(): number {
    const classes = 2 * this.classMap.length; // (in JS and in the core)
    if (this.ruleMode !== null) return this.ruleMode.octets + this.headerBytes + classes;
    const nfa = this.cold !== null ? coldListBytes(this.table!.count, this.cold) : this.table !== null ? this.table.tok.byteLength + this.table.posRule.byteLength : trieBytes(this.trie);
    return this.bytes + nfa + this.headerBytes + this.textBytes + classes;
  }

  dispose(): void {
    freeMatcher(this.core, this.header);
    this.tables = 0;
  }

  /** A state's row: its accept data, then an entry per class (layout.ts). */
  private rowBytes(): number {
    const octets = INFO_SIZE + this.nclasses * (this.wide ? 4 : 2);
    return Math.ceil(octets / ROW_ALIGN) * ROW_ALIGN;
  }

  /** Empties the tables (room for `capacity` states) and builds the start state. */
  private clear(capacity: number): number {
    if (this.tables) this.core.free(this.tables);
    this.capacity = capacity;
    this.tables = this.core.alloc(capacity * this.rowBytes());
    this.core.u32[(this.header + H_HOT_URLS) >>> 2] = 0;
    this.nextCostCheck = FIRST_COST_CHECK;
    this.core.u8.fill(0, this.tables, this.tables + capacity * this.rowBytes());
    this.publishTables();
    if (this.starSets === undefined) this.starSets = new Map();
    else this.starSets.clear();
    this.starSetCount = 0;
    // Room for about as many states as the trie has nodes (often so): few rehashes.
    const slots = Math.min(INDEX_MAX_START_SLOTS, Math.max(INDEX_MIN_SLOTS, 2 ** Math.ceil(Math.log2(2 * this.trie.size))));
    if (this.index.length !== slots) this.index = new Int32Array(slots);
    else this.index.fill(0);
    this.setOctets = 0;
    const none = this.internStars([]);
    // State 0 is unused: entry 0 means "not built".
    this.states = [newState(none, [], NO_RULE, NO_RULE)];

    this.begin(none);
    this.close(0); // the root: the empty prefix
    const start = this.intern(this.finish(none), true);
    this.core.u32[(this.header + H_START) >>> 2] = start;
    return start;
  }

  private publishTables(): void {
    this.core.u32[(this.header + H_TRANS) >>> 2] = this.tables;
    this.core.u32[(this.header + H_ROWS_USED) >>> 2] = 0; // (until the next state is added)
  }

  private grow(): void {
    const old = this.tables;
    const used = this.capacity * this.rowBytes();
    this.capacity *= 2;
    this.tables = this.core.alloc(this.capacity * this.rowBytes());
    const u8 = this.core.u8;
    u8.copyWithin(this.tables, old, old + used);
    u8.fill(0, this.tables + used, this.tables + this.capacity * this.rowBytes());
    this.core.free(old);
    this.publishTables();
  }

  private begin(from: StarSet): void {
    building.allow = NO_RULE;
    building.disallow = NO_RULE;
    building.from = from;
    building.fromStamp = from.uid;
    if (markedSet !== from.uid) {
      // (Steady states step from one set again and again: it stays marked.)
      for (const s of from.nodes) scratch.inFrom[s] = from.uid;
      markedSet = from.uid;
    }
    // Fresh arrays rather than emptied ones (setting length costs more; the
    // new-star and dropped lists are most often empty already).
    building.rest = [];
    if (building.newStars.length > 0) building.newStars = [];
    if (building.dropped.length > 0) building.dropped = [];
  }

  /**
   * Activates node q in the state being assembled, with its `*` child. A rule
   * ending at q is a sticky accept; q itself is kept only if it can still move
   * (octet children) or end a `$` rule: a star always is (it never dies).
   */
  private close(q: number): void {
    const t = this.trie;
    if (scratch.mark[q]) return;
    scratch.mark[q] = 1;
    scratch.touched[building.touchedCount++] = q;
    const i = t.term[q];
    if (i >= 0) {
      building.allow = Math.min(building.allow, t.terms[i * 4 + T_STICKY_ALLOW]);
      building.disallow = Math.min(building.disallow, t.terms[i * 4 + T_STICKY_DISALLOW]);
    }
    if (t.isStar[q]) {
      if (scratch.inFrom[q] !== building.fromStamp) building.newStars.push(q);
    } else if (t.childStart[q + 1] > t.childStart[q] || hasEnd(t, q)) {
      building.rest.push(q);
    }
    if (t.starChild[q] >= 0) this.close(t.starChild[q]);
  }

  /** Is star f active in the state being assembled, or covered by active stars below it? */
  private covered(f: number): boolean {
    if (scratch.mark[f] || this.coveredBySet(building.from, f, 0)) return true;
    if (this.newStarIn(f + 1, this.trie.chainEnd[f])) return true;
    // Else only the stars new in this step can cover it.
    return this.newStarIn(f + 1, this.trie.subtreeEnd[f]) && this.dominated(f);
  }

  /**
   * Is star f in the set `from`, or covered by its stars below it? Depends on
   * the set alone, so it is memoised for it (a set stays while many states are built).
   */
  private coveredBySet(set: StarSet, f: number, depth: number): boolean {
    const t = this.trie;
    if (scratch.inFrom[f] === building.fromStamp) return true;
    if (scratch.coverOf[f] === set.uid) return scratch.cover[f] === 1;
    let known = inRange(set.nodes, f + 1, t.chainEnd[f]);
    const at = t.frontierAt[f];
    if (!known && at >= 0 && depth < MAX_COVER_DEPTH && inRange(set.nodes, f + 1, t.subtreeEnd[f])) {
      known = true;
      for (let i = at; i < at + t.frontierLength[f] && known; i++) known = this.coveredBySet(set, t.frontierNodes[i], depth + 1);
    }
    scratch.coverOf[f] = set.uid;
    scratch.cover[f] = known ? 1 : 0;
    return known;
  }

  /** Is one of the stars new in this step (sorted) among the nodes [lo, hi)? */
  private newStarIn(lo: number, hi: number): boolean {
    return inRange(building.newStars, lo, hi);
  }

  /** Is every path below q met by an active star before a rule ends? (Within the budget.) */
  private dominated(q: number): boolean {
    const t = this.trie;
    const at = t.frontierAt[q];
    if (at < 0) return false;
    const n = t.frontierLength[q];
    if ((building.budget -= n) < 0) return false;
    for (let i = at; i < at + n; i++) if (!this.covered(t.frontierNodes[i])) return false;
    return true;
  }

  /** Would dropping q lose nothing? q has no `$` rule and is dominated. */
  private droppable(q: number): boolean {
    const t = this.trie;
    if (t.frontierAt[q] < 0 || (!t.isStar[q] && hasEnd(t, q))) return false;
    building.budget = DOMINANCE_BUDGET;
    return this.dominated(q);
  }

  /**
   * The assembled state, less dominated nodes. Only nodes that are new (all
   * rest nodes are) or that have a new star below them can have become dominated:
   * the stars of `from` are checked by walking up from the new stars.
   */
  private finish(from: StarSet): DfaState {
    const t = this.trie;
    const { newStars, dropped } = building;
    const restIn = building.rest;
    sorted(newStars);
    let droppedFrom = 0;
    if (newStars.length > 0 && from.nodes.length > 0) {
      // Stars of `from` above a new star: check each once. A new star already
      // covered by `from` changes nothing above it, and neither does one below
      // a star of `from` that stays (paths from above meet that star first).
      // The walk passes at most WALK_SKIP stars not in `from` in a row (a chain
      // of dropped stars above could be long: `/*a*a*a…`).
      const seen = nextStamp();
      for (const s of newStars) {
        if (this.coveredBySet(from, s, 0)) continue;
        let skip = WALK_SKIP;
        for (let a = t.starAbove[s]; a >= 0 && scratch.stamps[a] !== seen; a = t.starAbove[a]) {
          scratch.stamps[a] = seen;
          if (scratch.inFrom[a] !== building.fromStamp) {
            if (--skip === 0) break;
            continue;
          }
          skip = WALK_SKIP;
          if (!this.droppable(a)) break;
          dropped.push(a);
          droppedFrom++;
        }
      }
    }
    for (const q of newStars) if (this.droppable(q)) dropped.push(q);
    // The rest less the dominated, in place (intern copies it for a new state).
    const rest = restIn;
    let kept = 0;
    for (let i = 0; i < restIn.length; i++) if (!this.droppable(restIn[i])) rest[kept++] = restIn[i];
    if (kept < rest.length) rest.length = kept;
    for (let i = 0; i < building.touchedCount; i++) scratch.mark[scratch.touched[i]] = 0;
    building.touchedCount = 0;

    let stars = from;
    // (A new star that is dropped at once leaves the set as it was: often so in a steady state.)
    if (droppedFrom > 0 || dropped.length - droppedFrom < newStars.length) {
      // from.nodes and newStars, both sorted, merged less the dropped.
      const gone = nextStamp();
      for (const q of dropped) scratch.stamps[q] = gone;
      const a = from.nodes;
      const nodes: number[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length || j < newStars.length) {
        const q = j >= newStars.length || (i < a.length && a[i] < newStars[j]) ? a[i++] : newStars[j++];
        if (scratch.stamps[q] !== gone) nodes.push(q);
      }
      stars = this.internStars(nodes);
    }
    return newState(stars, rest, building.allow, building.disallow);
  }

  /** The children of a star set's stars by class cls (octet classRep[cls]). */
  private starMoves(set: StarSet, cls: number): Int32Array {
    const b = this.classRep[cls];
    const list: number[] = [];
    if (b >= 0) {
      for (const q of set.nodes) {
        const c = childOf(this.trie, q, b);
        if (c >= 0) list.push(c);
      }
    }
    const moves = (set.moves[cls] = Int32Array.from(list));
    this.setOctets += moves.length * 4 + 64;
    return moves;
  }

  /** The octet children of the nodes, by class (a counting sort). */
  private indexByClass(nodes: readonly number[]): ClassIndex {
    const { childStart, childTok, childNode } = this.trie;
    const nc = this.nclasses;
    const cm = this.classMap;
    const start = new Int32Array(nc + 1);
    for (const q of nodes) for (let i = childStart[q]; i < childStart[q + 1]; i++) start[cm[childTok[i]] + 1]++;
    for (let c = 0; c < nc; c++) start[c + 1] += start[c];
    const targets = new Int32Array(start[nc]);
    const fill = start.slice(0, nc);
    for (const q of nodes) for (let i = childStart[q]; i < childStart[q + 1]; i++) targets[fill[cm[childTok[i]]]++] = childNode[i];
    return { start, targets };
  }

  private internStars(nodes: number[]): StarSet {
    const hash = hashInts(0x811c9dc5, nodes);
    const sets = this.starSets!;
    let bucket = sets.get(hash);
    if (bucket === undefined) sets.set(hash, (bucket = []));
    for (const set of bucket) if (sameInts(set.nodes, nodes)) return set;
    const set: StarSet = { id: this.starSetCount++, uid: nextStarSetUid(), nodes, moves: new Array(this.nclasses) };
    bucket.push(set);
    // The array, its class index, and the objects around them.
    this.setOctets += nodes.length * 8 + this.nclasses * 8 + 256;
    return set;
  }

  /** The entry of the state, creating it if new; -1 when it would pass the cap. */
  private intern(state: DfaState, force = false): number {
    const rest = state.rest;
    let h = Math.imul(0x811c9dc5 ^ state.allow, 0x01000193);
    h = Math.imul(h ^ state.disallow, 0x01000193);
    h = Math.imul(h ^ state.stars.id, 0x01000193);
    // The rest set comes in any order (sorting it cost more than the rest of a
    // step): its hash is a sum, and a candidate is compared through marks.
    let sum = rest.length;
    for (const q of rest) sum = (sum + Math.imul(q ^ (q >>> 15), 0x2c1b3c6d)) | 0;
    h = Math.imul(h ^ sum, 0x01000193) | 0;
    state.hash = h;
    const index = this.index;
    const mask = index.length - 1;
    let slot = (h ^ (h >>> 16)) & mask;
    let marked = 0;
    for (let id = index[slot]; id !== 0; id = index[(slot = (slot + 1) & mask)]) {
      const o = this.states[id];
      if (o.hash !== h || o.stars !== state.stars || o.allow !== state.allow || o.disallow !== state.disallow || o.rest.length !== rest.length) continue;
      if (marked === 0) {
        marked = nextStamp();
        for (const q of rest) scratch.stamps[q] = marked;
      }
      let same = true;
      for (let i = 0; i < o.rest.length && same; i++) same = scratch.stamps[o.rest[i]] === marked;
      if (same) return this.entryOf(id);
    }

    const s = this.states.length;
    const tableBytes = (s >= this.capacity ? this.capacity * 2 : this.capacity) * this.rowBytes();
    const stateBytes = rest.length * (rest.length > INDEX_REST ? 12 : 8) + (rest.length > INDEX_REST ? this.nclasses * 4 + 64 : 0) + 96;
    if (!force && !this.wide && (s + 1) * this.rowBytes() > dfaTuning.narrowRowsLimit) {
      this.outgrown = true;
      return -1; // the caller starts over with wide entries
    }
    if (!force && (s > MAX_STATES || tableBytes + this.setOctets + stateBytes > this.maxBytes)) {
      return -1; // over the cap: the caller clears the tables
    }
    if (s >= this.capacity) this.grow();
    // Its own copy of the rest: the step's array has room to spare.
    state.rest = rest.length === 0 ? NO_NODES : rest.slice();
    this.states.push(state);
    this.core.u32[(this.header + H_ROWS_USED) >>> 2] = (s + 1) * this.rowBytes();
    index[slot] = s;
    if (2 * s > index.length) this.rehash();
    this.setOctets += stateBytes;
    const { allow, disallow } = state;

    // `$` rules ending on an active node match if the path ends here.
    let endAllow = NO_RULE;
    let endDisallow = NO_RULE;
    const t = this.trie;
    for (const q of rest) {
      const i = t.term[q];
      if (i < 0) continue;
      endAllow = Math.min(endAllow, t.terms[i * 4 + T_END_ALLOW]);
      endDisallow = Math.min(endDisallow, t.terms[i * 4 + T_END_DISALLOW]);
    }
    const row = s * this.rowBytes();
    const info = (this.tables + row) >>> 2;
    const u32 = this.core.u32;
    u32[info] = allow;
    u32[info + 1] = disallow;
    u32[info + 2] = endAllow;
    u32[info + 3] = endDisallow;

    return this.entryOf(s);
  }

  /** The transition entry that leads to state s (layout.ts). */
  private entryOf(s: number): number {
    const state = this.states[s];
    const special = state.allow !== NO_RULE || state.disallow !== NO_RULE;
    const dead = state.rest.length === 0 && state.stars.nodes.length === 0;
    const units = (s * this.rowBytes()) / ROW_ALIGN;
    if (this.wide) return (units | (special ? WIDE_SPECIAL : 0) | (dead ? WIDE_DEAD : 0)) >>> 0;
    return units | (special ? ENTRY_SPECIAL : 0) | (dead ? ENTRY_DEAD : 0);
  }

  /** Doubles the state index (kept at most half full). */
  private rehash(): void {
    const index = new Int32Array(this.index.length * 2);
    const mask = index.length - 1;
    for (let id = 1; id < this.states.length; id++) {
      const h = this.states[id].hash;
      let slot = (h ^ (h >>> 16)) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = id;
    }
    this.index = index;
  }

  /** The WASM core's callback: the transition on byte class `cls` of the state
   * whose row is at octet `row` of the tables (row 0: build the start state). */
  build(row: number, cls: number): number {
    if (row === 0) {
      if (this.cold !== null) {
        // Hot: the cold list's tokens back to the table, for the trie.
        takeColdList(this.core, this.cold, this.table!);
        this.core.u32[(this.header + H_RULES) >>> 2] = 0;
        this.cold = null;
        this.table!.cold = null;
      }
      this.buildTrie();
      return this.clear(MIN_STATES);
    }
    const target = this.step(this.states[row / this.rowBytes()], cls);
    const entry = this.intern(target);
    if (entry >= 0) {
      const at = this.tables + row + INFO_SIZE;
      if (this.wide) this.core.u32[(at >>> 2) + cls] = entry;
      else this.core.u16[(at >>> 1) + cls] = entry;
      if (this.bytes >= this.nextCostCheck) {
        // A DFA that grows this large over few URLs is thrashing before its cap says so.
        this.nextCostCheck *= 2;
        if (dfaTuning.ruleMode === 'cost' && this.rulesPayOff()) {
          this.enterRuleMode();
          return 0;
        }
      }
      return entry;
    }
    if (this.outgrown) {
      this.outgrown = false;
      this.wide = true;
      this.core.u32[(this.header + H_FLAGS) >>> 2] |= FLAG_WIDE;
    } else {
      this.resets++;
      if (this.rulesPayOff()) {
        this.enterRuleMode();
        return 0; // (the core starts this URL over in rule mode)
      }
    }
    const stars = target.stars.nodes;
    this.clear(MIN_STATES);
    target.stars = this.internStars(stars);
    return this.intern(target, true); // not stored in the table: the source state is gone
  }

  private step(from: DfaState, cls: number): DfaState {
    this.begin(from.stars);
    // Stars stay; their children by this class, and the rest's, become active.
    const moving = from.stars.moves[cls] ?? this.starMoves(from.stars, cls);
    for (let i = 0; i < moving.length; i++) this.close(moving[i]);
    // (Many states are stepped from once, on their way: an index would cost more than one scan.)
    if (from.rest.length > INDEX_REST && ++from.steps > 1) {
      const moves = (from.restMoves ??= this.indexByClass(from.rest));
      for (let i = moves.start[cls]; i < moves.start[cls + 1]; i++) this.close(moves.targets[i]);
    } else {
      const b = this.classRep[cls];
      if (b >= 0) {
        for (const q of from.rest) {
          const c = childOf(this.trie, q, b);
          if (c >= 0) this.close(c);
        }
      }
    }
    return this.finish(from.stars);
  }
}

// The lazy DFA: the rules of one matcher as a position automaton (one NFA
// position per pattern token), determinised on demand. The WASM core walks the
// transition table in linear memory and calls `build` for a transition it has
// not seen yet; each new state is built once.
//
// What keeps states few and cheap:
// - A rule that has matched (without `$`) is decided for the rest of the path:
//   its positions are dropped and the match is the state's "sticky" accept.
// - Within a rule only the last `*` reached matters (`X*Y` matches nothing
//   that `*Y` does not), so earlier positions of that rule are dropped.
// - A `*` never dies, so the stars a state has reached are kept apart, as an
//   interned StarSet shared by many states and indexed by the literal that
//   follows each star. A step then costs the positions that move, not the
//   thousands of `/*…` rules that merely wait (as Aho-Corasick does).
//
// Memory is capped per matcher: when the tables would pass the cap, they are
// cleared and rebuilt from the current state (the walk continues in linear time).
import type { Core } from './core.js';
import { ACCEPT, ANCHOR, RuleTable, RULE_FIELDS, R_DISALLOW, R_FIRST_POSITION, R_LINE, R_PRIORITY } from './compile.js';
import { STAR } from './pattern.js';
import {
  ENTRY_DEAD, ENTRY_SPECIAL, H_CLASSMAP, H_FLAGS, H_INFO, H_NCLASSES, H_LINES, H_PRIO, H_START, H_TRANS, HEADER_SIZE,
  INFO_SIZE, MAX_STATES, NO_RULE,
} from './layout.js';

/** Default cap on one matcher's automaton memory (tables in WASM plus NFA sets). */
export const DEFAULT_MAX_DFA_BYTES = 8 << 20;
const MIN_STATES = 4;

/** The stars a state has reached, at most one per rule; shared by many states. */
interface StarSet {
  id: number;
  /** Star positions, sorted (so also grouped by rule). */
  positions: number[];
  /** byte -> the stars whose next token is that literal byte */
  byByte: Map<number, number[]>;
}

/** A DFA state: its star set plus its other live NFA positions (sorted). */
interface DfaState {
  stars: StarSet;
  rest: number[];
  allow: number;
  disallow: number;
  /** byte -> rest positions on that literal; built for large states on first use */
  restByByte?: Map<number, number[]>;
}

/** Rest sets larger than this get a byte index, so a step costs only what moves. */
const INDEX_REST = 64;

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

function indexByByte(positions: readonly number[], byteOf: (p: number) => number): Map<number, number[]> {
  const lists = new Map<number, number[]>();
  for (const p of positions) {
    const b = byteOf(p);
    if (b > 255) continue;
    let list = lists.get(b);
    if (list === undefined) lists.set(b, (list = []));
    list.push(p);
  }
  return lists;
}

const byNumber = (a: number, b: number) => a - b;

/** a, sorted (often it already is: then in one pass). */
function sorted(a: number[]): number[] {
  for (let i = 1; i < a.length; i++) if (a[i - 1] > a[i]) return a.sort(byNumber);
  return a;
}

let scratch = { mark: new Uint8Array(1024), touched: new Int32Array(1024), rest: new Int32Array(1024) };

export class LazyDfa {
  /** Address of the matcher header in WASM memory. */
  readonly header: number;
  private readonly core: Core;
  private readonly nclasses: number;
  private readonly classRep: number[];
  private readonly tok: Uint16Array;
  private readonly posRule: Int32Array;
  private readonly rules: Int32Array;
  private readonly nrules: number;
  private readonly maxBytes: number;

  private states: DfaState[] = [];
  private entries: number[] = [];
  /** hash -> states with it */
  private readonly index = new Map<number, number[]>();
  /** hash -> star sets with it */
  private readonly starSets = new Map<number, StarSet[]>();
  private starSetCount = 0;
  private setOctets = 0;
  private tables = 0;
  private capacity = 0;
  /** Times the tables were cleared for the cap. */
  resets = 0;

  // The state being assembled by begin/close/finish. The arrays are shared by
  // all matchers (building is never re-entered), sized to the largest NFA.
  private mark: Uint8Array;
  private touched: Int32Array;
  private touchedCount = 0;
  private rest: Int32Array;
  private restCount = 0;
  private readonly newStars: number[] = [];
  private readonly decided: number[] = [];
  private allow = NO_RULE;
  private disallow = NO_RULE;

  constructor(core: Core, table: RuleTable, flags: number, maxBytes = DEFAULT_MAX_DFA_BYTES) {
    this.core = core;
    this.nclasses = table.nclasses;
    this.classRep = table.classRep;
    this.maxBytes = maxBytes;

    const nrules = table.count;
    const size = table.tok.length;
    this.tok = table.tok;
    this.posRule = table.posRule;
    this.rules = table.rules;
    this.nrules = nrules;
    if (scratch.mark.length < size) {
      const n = Math.max(size, scratch.mark.length * 2);
      scratch = { mark: new Uint8Array(n), touched: new Int32Array(n), rest: new Int32Array(n) };
    }
    this.mark = scratch.mark;
    this.touched = scratch.touched;
    this.rest = scratch.rest;

    this.header = core.alloc(HEADER_SIZE + 256 + 8 * nrules);
    const h = this.header;
    core.u8.fill(0, h, h + HEADER_SIZE);
    core.u8.set(table.classMap, h + HEADER_SIZE);
    const u32 = core.u32;
    u32[(h + H_FLAGS) >>> 2] = flags;
    u32[(h + H_NCLASSES) >>> 2] = this.nclasses;
    u32[(h + H_CLASSMAP) >>> 2] = h + HEADER_SIZE;
    u32[(h + H_PRIO) >>> 2] = h + HEADER_SIZE + 256;
    const prio = (h + HEADER_SIZE + 256) >>> 2;
    for (let id = 0; id < nrules; id++) u32[prio + id] = table.rules[id * RULE_FIELDS + R_PRIORITY];
    // Rule lines, for verdicts written by the core itself (bulk classification).
    u32[(h + H_LINES) >>> 2] = h + HEADER_SIZE + 256 + 4 * nrules;
    for (let id = 0; id < nrules; id++) u32[prio + nrules + id] = table.rules[id * RULE_FIELDS + R_LINE];

    core.register(h, (state, cls) => this.build(state, cls));
    // The tables and the start state are built by the first walk (build(0, _)).
  }

  /** Number of DFA states built so far (since the last reset). */
  get stateCount(): number {
    return Math.max(0, this.states.length - 1);
  }

  /** Bytes held: WASM tables plus the NFA sets kept on the JS side. */
  get bytes(): number {
    return this.capacity * this.rowBytes() + this.setOctets;
  }

  dispose(): void {
    this.core.unregister(this.header);
    if (this.tables) this.core.free(this.tables);
    this.core.free(this.header);
    this.tables = 0;
  }

  private rowBytes(): number {
    return this.nclasses * 2 + INFO_SIZE;
  }

  /** Empties the tables (room for `capacity` states) and builds the start state. */
  private clear(capacity: number): number {
    if (this.tables) this.core.free(this.tables);
    this.capacity = capacity;
    this.tables = this.core.alloc(capacity * this.rowBytes());
    this.core.u8.fill(0, this.tables, this.tables + capacity * this.rowBytes());
    this.publishTables();
    this.starSets.clear();
    this.starSetCount = 0;
    this.index.clear();
    this.setOctets = 0;
    const none = this.internStars([]);
    // State 0 is unused: entry 0 means "not built".
    this.states = [{ stars: none, rest: [], allow: NO_RULE, disallow: NO_RULE }];
    this.entries = [0];

    this.begin();
    // Every rule's first position; rules lie in file order, so this goes in position order.
    const starts: number[] = [];
    for (let r = 0; r < this.nrules; r++) starts.push(this.rules[r * RULE_FIELDS + R_FIRST_POSITION]);
    for (const q of starts.sort(byNumber)) this.close(q);
    const start = this.intern(this.finish(none), true);
    this.core.u32[(this.header + H_START) >>> 2] = start;
    return start;
  }

  private publishTables(): void {
    const u32 = this.core.u32;
    u32[(this.header + H_TRANS) >>> 2] = this.tables;
    u32[(this.header + H_INFO) >>> 2] = this.tables + this.capacity * this.nclasses * 2;
  }

  private grow(): void {
    const old = this.tables;
    const oldCap = this.capacity;
    const rowOctets = this.nclasses * 2; // one row of u16 entries
    this.capacity = oldCap * 2;
    this.tables = this.core.alloc(this.capacity * this.rowBytes());
    const u8 = this.core.u8;
    u8.fill(0, this.tables, this.tables + this.capacity * this.rowBytes());
    u8.copyWithin(this.tables, old, old + oldCap * rowOctets);
    const info = this.tables + this.capacity * rowOctets;
    u8.copyWithin(info, old + oldCap * rowOctets, old + oldCap * rowOctets + oldCap * INFO_SIZE);
    this.core.free(old);
    this.publishTables();
  }

  private begin(): void {
    this.allow = NO_RULE;
    this.disallow = NO_RULE;
    this.restCount = 0;
    this.newStars.length = 0;
    this.decided.length = 0;
  }

  /**
   * Adds position q to the state being assembled. A `*` joins the star set (the
   * literal after it is implied); an accepting position is not kept: its rule is
   * decided and becomes a sticky accept.
   */
  private close(q: number): void {
    if (this.mark[q]) return;
    this.mark[q] = 1;
    this.touched[this.touchedCount++] = q;
    const t = this.tok[q];
    if (t === ACCEPT) {
      const r = this.posRule[q];
      if (this.rules[r * RULE_FIELDS + R_DISALLOW]) this.disallow = Math.min(this.disallow, r);
      else this.allow = Math.min(this.allow, r);
      this.decided.push(r);
    } else if (t === STAR) {
      this.newStars.push(q);
    } else {
      this.rest[this.restCount++] = q;
    }
  }

  /** The assembled state, without decided or dominated positions. */
  private finish(stars: StarSet): DfaState {
    for (let i = 0; i < this.touchedCount; i++) this.mark[this.touched[i]] = 0;
    this.touchedCount = 0;
    const { decided, newStars, posRule } = this;
    // Rules that just matched, and rules that reached a new star: their earlier positions go.
    let dropBefore: Map<number, number> | null = null;
    if (decided.length > 0 || newStars.length > 0) {
      dropBefore = new Map();
      for (const q of newStars) {
        const r = posRule[q];
        dropBefore.set(r, Math.max(q, dropBefore.get(r) ?? -1));
      }
      for (const r of decided) dropBefore.set(r, Infinity);
      if (newStars.length > 0 || stars.positions.some((p) => dropBefore!.has(posRule[p]))) {
        stars = this.internStars(this.deriveStars(stars.positions, dropBefore));
      }
    }
    const rest: number[] = [];
    for (let i = 0; i < this.restCount; i++) {
      const q = this.rest[i];
      if (dropBefore !== null && q < (dropBefore.get(posRule[q]) ?? -1)) continue;
      rest.push(q);
    }
    return { stars, rest: sorted(rest), allow: this.allow, disallow: this.disallow };
  }

  /** The star positions of `from`, less decided rules, plus new stars (one per rule, the last). */
  private deriveStars(from: readonly number[], dropBefore: Map<number, number>): number[] {
    const posRule = this.posRule;
    const out: number[] = [];
    for (const p of from) if (!(p < (dropBefore.get(posRule[p]) ?? -1))) out.push(p);
    for (const q of this.newStars) if (dropBefore.get(posRule[q]) === q) out.push(q);
    return out.sort(byNumber);
  }

  private internStars(positions: number[]): StarSet {
    const hash = hashInts(0x811c9dc5, positions);
    let bucket = this.starSets.get(hash);
    if (bucket === undefined) this.starSets.set(hash, (bucket = []));
    for (const set of bucket) if (sameInts(set.positions, positions)) return set;
    const byByte = indexByByte(positions, (p) => this.tok[p + 1]);
    const set: StarSet = { id: this.starSetCount++, positions, byByte };
    bucket.push(set);
    this.setOctets += positions.length * 12 + 96;
    return set;
  }

  /** The entry of the state, creating it if new; -1 when it would pass the cap. */
  private intern(state: DfaState, force = false): number {
    const rest = state.rest;
    let h = Math.imul(0x811c9dc5 ^ state.allow, 0x01000193);
    h = Math.imul(h ^ state.disallow, 0x01000193);
    h = hashInts(Math.imul(h ^ state.stars.id, 0x01000193), rest);
    let bucket = this.index.get(h);
    if (bucket !== undefined) {
      for (const id of bucket) {
        const o = this.states[id];
        if (o.stars === state.stars && o.allow === state.allow && o.disallow === state.disallow && sameInts(o.rest, rest)) {
          return this.entries[id];
        }
      }
    }

    const s = this.states.length;
    const tableBytes = (s >= this.capacity ? this.capacity * 2 : this.capacity) * this.rowBytes();
    const stateBytes = rest.length * (rest.length > INDEX_REST ? 12 : 4) + 96;
    if (!force && (s > MAX_STATES || tableBytes + this.setOctets + stateBytes > this.maxBytes)) {
      return -1; // over the cap: the caller clears the tables
    }
    if (s >= this.capacity) this.grow();
    this.states.push(state);
    if (bucket === undefined) this.index.set(h, (bucket = []));
    bucket.push(s);
    this.setOctets += stateBytes;
    const { allow, disallow } = state;

    let endAllow = NO_RULE;
    let endDisallow = NO_RULE;
    for (const q of rest) {
      if (this.tok[q] !== ANCHOR) continue;
      const r = this.posRule[q];
      if (this.rules[r * RULE_FIELDS + R_DISALLOW]) endDisallow = Math.min(endDisallow, r);
      else endAllow = Math.min(endAllow, r);
    }
    const info = (this.tables + this.capacity * this.nclasses * 2 + s * INFO_SIZE) >>> 2;
    const u32 = this.core.u32;
    u32[info] = allow;
    u32[info + 1] = disallow;
    u32[info + 2] = endAllow;
    u32[info + 3] = endDisallow;

    let entry = s;
    if (allow !== NO_RULE || disallow !== NO_RULE) entry |= ENTRY_SPECIAL;
    if (rest.length === 0 && state.stars.positions.length === 0) entry |= ENTRY_DEAD;
    this.entries.push(entry);
    return entry;
  }

  /** The WASM core's callback: the transition of `state` on byte class `cls`. */
  build(state: number, cls: number): number {
    if (state === 0) return this.clear(MIN_STATES);
    const target = this.step(this.states[state], cls);
    const entry = this.intern(target);
    if (entry >= 0) {
      this.core.u16[(this.tables >>> 1) + state * this.nclasses + cls] = entry;
      return entry;
    }
    this.resets++;
    const stars = target.stars.positions;
    this.clear(MIN_STATES);
    target.stars = this.internStars(stars);
    return this.intern(target, true); // not stored in the table: the source state is gone
  }

  private step(from: DfaState, cls: number): DfaState {
    const b = this.classRep[cls];
    this.begin();
    if (b >= 0) {
      // The literal after each star: those equal to b move past it.
      const moving = from.stars.byByte.get(b);
      if (moving !== undefined) for (const p of moving) this.close(p + 2);
      if (from.rest.length > INDEX_REST) {
        from.restByByte ??= indexByByte(from.rest, (q) => this.tok[q]);
        const hits = from.restByByte.get(b);
        if (hits !== undefined) for (const q of hits) this.close(q + 1);
      } else {
        const tok = this.tok;
        for (const q of from.rest) if (tok[q] === b) this.close(q + 1);
      }
    }
    return this.finish(from.stars);
  }
}

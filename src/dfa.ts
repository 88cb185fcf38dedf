// The lazy DFA: the rules of one matcher as a position automaton (one NFA
// position per pattern token), determinised on demand. The WASM core walks the
// transition table in linear memory and calls `build` for a transition it has
// not seen yet; each new state costs time linear in its NFA set, once.
//
// Two facts keep the states few. A rule that has matched (without `$`) is
// decided for the rest of the path, so its positions are dropped and the match
// is recorded as the state's "sticky" accept. And within one rule, a position
// before the last `*` it has reached can be dropped: `X*Y` matches nothing that
// `*Y` does not.
//
// Memory is capped per matcher: when the tables would pass the cap, they are
// cleared and rebuilt from the current state (the walk continues in linear time).
import type { Core } from './core.js';
import type { RuleTable } from './compile.js';
import { STAR } from './pattern.js';
import {
  ENTRY_DEAD, ENTRY_SPECIAL, H_CLASSMAP, H_FLAGS, H_INFO, H_NCLASSES, H_PRIO, H_START, H_TRANS, HEADER_SIZE,
  INFO_SIZE, NO_RULE,
} from './layout.js';

const ACCEPT = 257; // end of a pattern without `$`: matched
const ANCHOR = 258; // end of a pattern with `$`: matched if the path ends here

/** Default cap on one matcher's automaton memory (tables in WASM plus NFA sets). */
export const DEFAULT_MAX_DFA_BYTES = 8 << 20;
const MIN_STATES = 4;

export class LazyDfa {
  /** Address of the matcher header in WASM memory. */
  readonly header: number;
  private readonly core: Core;
  private readonly nclasses: number;
  private readonly classRep: Int16Array;
  private readonly tok: Uint16Array;
  private readonly posRule: Int32Array;
  private readonly ruleDisallow: Uint8Array;
  private readonly starts: Int32Array;
  private readonly maxBytes: number;

  private sets: Int32Array[] = [];
  private entries: number[] = [];
  private index = new Map<string, number>();
  private setOctets = 0;
  private tables = 0;
  private capacity = 0;
  /** Times the tables were cleared for the cap. */
  resets = 0;

  // Scratch for building a state.
  private readonly mark: Uint8Array;
  private readonly touched: Int32Array;
  private readonly next: Int32Array;

  constructor(core: Core, table: RuleTable, flags: number, maxBytes = DEFAULT_MAX_DFA_BYTES) {
    this.core = core;
    this.nclasses = table.nclasses;
    this.classRep = table.classRep;
    this.maxBytes = maxBytes;

    const nrules = table.rules.length;
    let size = 0;
    for (const r of table.rules) size += r.pattern.tokens.length + 1;
    this.tok = new Uint16Array(size);
    this.posRule = new Int32Array(size);
    this.ruleDisallow = new Uint8Array(nrules);
    this.starts = new Int32Array(nrules);
    let p = 0;
    table.rules.forEach((r, id) => {
      this.starts[id] = p;
      this.ruleDisallow[id] = r.kind === 'disallow' ? 1 : 0;
      for (const t of r.pattern.tokens) {
        this.posRule[p] = id;
        this.tok[p++] = t;
      }
      this.posRule[p] = id;
      this.tok[p++] = r.pattern.anchored ? ANCHOR : ACCEPT;
    });
    this.mark = new Uint8Array(size);
    this.touched = new Int32Array(size);
    this.next = new Int32Array(size);

    this.header = core.alloc(HEADER_SIZE + 256 + 4 * nrules);
    const h = this.header;
    core.u8.fill(0, h, h + HEADER_SIZE);
    core.u8.set(table.classMap, h + HEADER_SIZE);
    const u32 = core.u32;
    u32[(h + H_FLAGS) >>> 2] = flags;
    u32[(h + H_NCLASSES) >>> 2] = this.nclasses;
    u32[(h + H_CLASSMAP) >>> 2] = h + HEADER_SIZE;
    u32[(h + H_PRIO) >>> 2] = h + HEADER_SIZE + 256;
    const prio = (h + HEADER_SIZE + 256) >>> 2;
    table.rules.forEach((r, id) => (u32[prio + id] = r.pattern.priority));

    core.register(h, (state, cls) => this.build(state, cls));
    this.clear(MIN_STATES);
  }

  /** Number of DFA states built so far (since the last reset). */
  get states(): number {
    return this.sets.length - 1;
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
    return this.nclasses * 4 + INFO_SIZE;
  }

  /** Empties the tables (capacity for `capacity` states) and builds the start state. */
  private clear(capacity: number): void {
    if (this.tables) this.core.free(this.tables);
    this.capacity = capacity;
    this.tables = this.core.alloc(capacity * this.rowBytes());
    this.core.u8.fill(0, this.tables, this.tables + capacity * this.rowBytes());
    this.publishTables();
    this.sets = [new Int32Array(0)]; // state 0: unused, entry 0 means "not built"
    this.entries = [0];
    this.index.clear();
    this.setOctets = 0;

    this.begin();
    for (let r = 0; r < this.starts.length; r++) this.close(this.starts[r]);
    const start = this.intern(this.finish(), this.allow, this.disallow, true);
    this.core.u32[(this.header + H_START) >>> 2] = start;
  }

  private publishTables(): void {
    const u32 = this.core.u32;
    u32[(this.header + H_TRANS) >>> 2] = this.tables;
    u32[(this.header + H_INFO) >>> 2] = this.tables + this.capacity * this.nclasses * 4;
  }

  private grow(): void {
    const old = this.tables;
    const oldCap = this.capacity;
    const nc4 = this.nclasses * 4;
    this.capacity = oldCap * 2;
    this.tables = this.core.alloc(this.capacity * this.rowBytes());
    const u8 = this.core.u8;
    u8.fill(0, this.tables, this.tables + this.capacity * this.rowBytes());
    u8.copyWithin(this.tables, old, old + oldCap * nc4);
    const info = this.tables + this.capacity * nc4;
    u8.copyWithin(info, old + oldCap * nc4, old + oldCap * nc4 + oldCap * INFO_SIZE);
    this.core.free(old);
    this.publishTables();
  }

  // The state being assembled by close(): next[0, count), and its sticky accepts.
  private count = 0;
  private allow = NO_RULE;
  private disallow = NO_RULE;
  private touchedCount = 0;
  private accepted: number[] = [];
  private acceptedCount = 0;

  private begin(): void {
    this.count = 0;
    this.allow = NO_RULE;
    this.disallow = NO_RULE;
  }

  /**
   * Adds position q and its closure (q, and past each `*`) to the state being
   * assembled. An accepting position is not kept; its rule becomes a sticky accept.
   */
  private close(q: number): void {
    const tok = this.tok;
    for (;;) {
      if (this.mark[q]) return;
      this.mark[q] = 1;
      this.touched[this.touchedCount++] = q;
      const t = tok[q];
      if (t === ACCEPT) {
        const r = this.posRule[q];
        if (this.ruleDisallow[r]) this.disallow = Math.min(this.disallow, r);
        else this.allow = Math.min(this.allow, r);
        this.accepted[this.acceptedCount++] = r;
        return;
      }
      this.next[this.count++] = q;
      if (t !== STAR) return;
      q++;
    }
  }

  /** Turns next[0, count) into a state's NFA set: drops decided and dominated positions. */
  private finish(): Int32Array {
    const count = this.count;
    const tok = this.tok;
    const posRule = this.posRule;
    for (let i = 0; i < this.touchedCount; i++) this.mark[this.touched[i]] = 0;
    this.touchedCount = 0;
    // Rules that just matched are decided; mark them to drop their positions.
    const decided = new Set<number>();
    for (let i = 0; i < this.acceptedCount; i++) decided.add(this.accepted[i]);
    this.acceptedCount = 0;

    const sorted = this.next.subarray(0, count).sort();
    const out: number[] = [];
    let i = 0;
    while (i < count) {
      const r = posRule[sorted[i]];
      let j = i;
      let lastStar = -1;
      while (j < count && posRule[sorted[j]] === r) {
        if (tok[sorted[j]] === STAR) lastStar = sorted[j];
        j++;
      }
      if (!decided.has(r)) {
        for (let k = i; k < j; k++) if (sorted[k] >= lastStar) out.push(sorted[k]);
      }
      i = j;
    }
    return Int32Array.from(out);
  }

  /** The entry of the state (set, sticky accepts), creating it if new. */
  private intern(set: Int32Array, allow: number, disallow: number, force = false): number {
    const key = `${allow},${disallow}|${set.join(',')}`;
    const known = this.index.get(key);
    if (known !== undefined) return this.entries[known];

    const s = this.sets.length;
    const tableBytes = (s >= this.capacity ? this.capacity * 2 : this.capacity) * this.rowBytes();
    if (!force && tableBytes + this.setOctets + key.length * 2 + set.length * 4 > this.maxBytes) {
      return -1; // over the cap: the caller clears the tables
    }
    if (s >= this.capacity) this.grow();
    this.sets.push(set);
    this.index.set(key, s);
    this.setOctets += set.length * 4 + key.length * 2;

    let endAllow = NO_RULE;
    let endDisallow = NO_RULE;
    for (const q of set) {
      if (this.tok[q] !== ANCHOR) continue;
      const r = this.posRule[q];
      if (this.ruleDisallow[r]) endDisallow = Math.min(endDisallow, r);
      else endAllow = Math.min(endAllow, r);
    }
    const info = (this.tables + this.capacity * this.nclasses * 4 + s * INFO_SIZE) >>> 2;
    const u32 = this.core.u32;
    u32[info] = allow;
    u32[info + 1] = disallow;
    u32[info + 2] = endAllow;
    u32[info + 3] = endDisallow;

    let entry = s;
    if (allow !== NO_RULE || disallow !== NO_RULE) entry |= ENTRY_SPECIAL;
    if (set.length === 0) entry |= ENTRY_DEAD;
    entry >>>= 0;
    this.entries.push(entry);
    return entry;
  }

  /** The WASM core's callback: the transition of `state` on byte class `cls`. */
  build(state: number, cls: number): number {
    const from = this.sets[state];
    const target = this.step(from, cls);
    let entry = this.intern(target.set, target.allow, target.disallow);
    if (entry < 0) {
      this.resets++;
      this.clear(MIN_STATES);
      return this.intern(target.set, target.allow, target.disallow, true); // not stored: the source state is gone
    }
    const row = (this.tables >>> 2) + state * this.nclasses + cls;
    this.core.u32[row] = entry;
    return entry;
  }

  private step(from: Int32Array, cls: number) {
    const b = this.classRep[cls];
    const tok = this.tok;
    this.begin();
    for (let i = 0; i < from.length; i++) {
      const p = from[i];
      const t = tok[p];
      if (t === STAR) this.close(p);
      else if (t === b) this.close(p + 1);
    }
    const set = this.finish();
    return { set, allow: this.allow, disallow: this.disallow };
  }
}

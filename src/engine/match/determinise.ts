// The determiniser: one step of the subset construction over the rules' trie
// of pattern prefixes (src/engine/compile/trie.ts), on demand. The part of a
// hot matcher's lazy DFA that does not change once made (the trie and its byte
// classes); the states it makes are interned in the matcher's DfaStates, its
// mutable cache (dfa-states.ts).
//
// In: a state and a byte class. Out: the state after an octet of that class
// (not yet interned), or the start state. What keeps states few and cheap:
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
// Invariants: a state's rest nodes are the active non-star nodes that can still
// move or end a `$` rule; dropping a node never changes a verdict ("not
// covered" is always the safe answer when a bound is met).
import type { ByteClasses } from '../compile/rule-table.js';
import { childOf, hasEnd, T_STICKY_ALLOW, T_STICKY_DISALLOW, type Trie } from '../compile/trie.js';
import { NO_RULE } from '../wasm/layout.js';
import { ensureScratch, nextStamp, scratch } from './dfa-scratch.js';
import { type ClassIndex, type DfaState, type DfaStates, INDEX_REST, newState, NO_NODES, type StarSet } from './dfa-states.js';

/** Nodes a dominance check may visit (through frontiers of inactive stars) before it gives up. */
const DOMINANCE_BUDGET = 128;
/** Stars not in the set, in a row, that the walk up from a new star passes before it stops. */
const WALK_SKIP = 8;
/** Frontiers a memoised cover check may nest (a deep recursion gives up: "not covered" is always safe). */
const MAX_COVER_DEPTH = 64;

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
 * The state being assembled by begin/close/finish: one at a time for all
 * matchers, so a matcher's object holds none of it.
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

export class Determiniser {
  readonly nclasses: number;
  private readonly classRep: number[];
  private readonly classMap: Uint8Array;

  constructor(
    readonly trie: Trie,
    classes: ByteClasses,
    /** Where the star sets it makes are interned (and their moves counted). */
    private readonly states: DfaStates,
  ) {
    ({ classMap: this.classMap, classRep: this.classRep, nclasses: this.nclasses } = classes);
    ensureScratch(trie.size);
  }

  /** The start state (the root: the empty prefix), from the empty star set. */
  start(none: StarSet): DfaState {
    this.begin(none);
    this.close(0);
    return this.finish(none);
  }

  /** The state after an octet of class cls from `from`. */
  step(from: DfaState, cls: number): DfaState {
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

  private begin(from: StarSet): void {
    building.allow = NO_RULE;
    building.disallow = NO_RULE;
    building.from = from;
    building.fromStamp = from.uid;
    if (scratch.markedSet !== from.uid) {
      // (Steady states step from one set again and again: it stays marked.)
      for (const s of from.nodes) scratch.inFrom[s] = from.uid;
      scratch.markedSet = from.uid;
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
    // The rest less the dominated, in place (the state index copies it for a new state).
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
      stars = this.states.internStars(nodes);
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
    this.states.setOctets += moves.length * 4 + 64;
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
}

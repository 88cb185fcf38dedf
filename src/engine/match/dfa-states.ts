// The DFA's states, interned: the mutable cache of one hot matcher's lazy DFA
// (the determiniser, determinise.ts, is the part that does not change).
//
// In: states the determiniser assembled (a star set and the other active trie
// nodes, with their sticky accepts). Out: a state id per distinct state (ids
// from 1: entry 0 means "not built"), and the octets the JS side holds for
// them, which the cap counts beside the WASM tables (setOctets).
// Invariants: two states with the same star set, rest nodes (in any order) and
// accepts get one id; star sets are interned too, so states compare them by
// identity; everything is dropped at once (clear), never a state alone.
import { NO_RULE } from '../wasm/layout.js';
import { NO_POSITIONS } from '../compile/rule-table.js';
import { nextStamp, nextStarSetUid, scratch } from './dfa-scratch.js';

/** The octet children of some nodes, by byte class: targets[start[c], start[c + 1]). */
export interface ClassIndex {
  start: Int32Array;
  targets: Int32Array;
}

/** The `*` nodes a state has reached; shared by many states. A `*` never dies,
 * so a step costs the nodes that move, not the stars that merely wait. */
export interface StarSet {
  id: number;
  /** Star nodes, sorted. */
  nodes: number[];
  /** Their children by a class (where they move besides staying), listed on first use. */
  moves: (Int32Array | undefined)[];
  /** Unique among all matchers' sets: the key of the cover memo (see Determiniser.coveredBySet). */
  uid: number;
}

/** A DFA state: its star set plus its other active trie nodes. */
export interface DfaState {
  stars: StarSet;
  rest: number[];
  allow: number;
  disallow: number;
  /** The rest nodes' children by class; built for large states stepped from more than once */
  restMoves: ClassIndex | undefined;
  steps: number;
  /** Its hash (find): the index compares hashes before sets. */
  hash: number;
}

/** Rest sets larger than this get a byte index (restMoves), so a step costs only what moves. */
export const INDEX_REST = 64;
/** The empty node list, shared. */
export const NO_NODES: number[] = [];
/** Slots of an empty state index (powers of two). */
const INDEX_MIN_SLOTS = 16;
const INDEX_MAX_START_SLOTS = 256;

/** A state, always of one shape (V8 keeps its property accesses fast). */
export function newState(stars: StarSet, rest: number[], allow: number, disallow: number): DfaState {
  return { stars, rest, allow, disallow, restMoves: undefined, steps: 0, hash: 0 };
}

/** Octets a new state of `restLength` rest nodes holds on the JS side (its copy of the rest, its index, the object). */
export function stateOctets(restLength: number, nclasses: number): number {
  return restLength * (restLength > INDEX_REST ? 12 : 8) + (restLength > INDEX_REST ? nclasses * 4 + 64 : 0) + 96;
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

export class DfaStates {
  /** The states by id; state 0 is unused (entry 0 means "not built"). */
  list: DfaState[] = [];
  /** Octets held on the JS side: sets, their moves, states (what the cap counts beside the tables). */
  setOctets = 0;
  /** The states by hash, open addressing: state ids, 0 for an empty slot. */
  private index = NO_POSITIONS;
  /** Where the last find() stopped: add() puts the state there. */
  private slot = 0;
  /** hash -> star sets with it */
  private readonly starSets = new Map<number, StarSet[]>();
  private starSetCount = 0;

  constructor(private readonly nclasses: number) {}

  /** Drops every state and star set, for a trie of trieSize nodes; returns the empty star set. */
  clear(trieSize: number): StarSet {
    this.starSets.clear();
    this.starSetCount = 0;
    // Room for about as many states as the trie has nodes (often so): few rehashes.
    const slots = Math.min(INDEX_MAX_START_SLOTS, Math.max(INDEX_MIN_SLOTS, 2 ** Math.ceil(Math.log2(2 * trieSize))));
    if (this.index.length !== slots) this.index = new Int32Array(slots);
    else this.index.fill(0);
    this.setOctets = 0;
    const none = this.internStars([]);
    this.list = [newState(none, [], NO_RULE, NO_RULE)];
    return none;
  }

  /** The star set of these nodes (sorted), one per distinct set. */
  internStars(nodes: number[]): StarSet {
    const hash = hashInts(0x811c9dc5, nodes);
    const sets = this.starSets;
    let bucket = sets.get(hash);
    if (bucket === undefined) sets.set(hash, (bucket = []));
    for (const set of bucket) if (sameInts(set.nodes, nodes)) return set;
    const set: StarSet = { id: this.starSetCount++, uid: nextStarSetUid(), nodes, moves: new Array(this.nclasses) };
    bucket.push(set);
    // The array, its class index, and the objects around them.
    this.setOctets += nodes.length * 8 + this.nclasses * 8 + 256;
    return set;
  }

  /** The id of the state equal to this one, or 0 (then add() may add it). Sets its hash. */
  find(state: DfaState): number {
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
      const o = this.list[id];
      if (o.hash !== h || o.stars !== state.stars || o.allow !== state.allow || o.disallow !== state.disallow || o.rest.length !== rest.length) continue;
      if (marked === 0) {
        marked = nextStamp();
        for (const q of rest) scratch.stamps[q] = marked;
      }
      let same = true;
      for (let i = 0; i < o.rest.length && same; i++) same = scratch.stamps[o.rest[i]] === marked;
      if (same) return id;
    }
    this.slot = slot;
    return 0;
  }

  /** Adds the state the last find() did not find, counting `octets` for it (stateOctets); its id. */
  add(state: DfaState, octets: number): number {
    const s = this.list.length;
    // Its own copy of the rest: the step's array has room to spare.
    state.rest = state.rest.length === 0 ? NO_NODES : state.rest.slice();
    this.list.push(state);
    this.index[this.slot] = s;
    if (2 * s > this.index.length) this.rehash();
    this.setOctets += octets;
    return s;
  }

  /** Doubles the state index (kept at most half full). */
  private rehash(): void {
    const index = new Int32Array(this.index.length * 2);
    const mask = index.length - 1;
    for (let id = 1; id < this.list.length; id++) {
      const h = this.list[id].hash;
      let slot = (h ^ (h >>> 16)) & mask;
      while (index[slot] !== 0) slot = (slot + 1) & mask;
      index[slot] = id;
    }
    this.index = index;
  }
}

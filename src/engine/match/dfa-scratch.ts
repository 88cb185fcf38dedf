// Per-node scratch of the state being built, shared by all matchers: building
// is never re-entered (one state at a time, in the core's build callback), so
// a matcher holds none of it (a crawler keeps many that never build a state).
//
// In: trie node numbers (below the size passed to ensureScratch). Out: marks,
// stamps and memos the determiniser (determinise.ts) and the state index
// (dfa-states.ts) read and write. Invariant: a stamped mark is valid while it
// equals the current stamp, so marks are never cleared one by one; the arrays
// are cleared only when a counter wraps.

const newScratch = (n: number) => ({
  /** Nodes active in the state being assembled, and the list of them (to unmark). */
  mark: new Uint8Array(n),
  touched: new Int32Array(n),
  /** Node stamps: visited by the walk up from new stars, then dropped (or a set's members, for a comparison). */
  stamps: new Uint32Array(n),
  /** Node -> uid of the last star set marked that holds it. */
  inFrom: new Uint32Array(n),
  /** Cover memo: node -> uid of the star set the answer holds for, and the answer. */
  coverOf: new Uint32Array(n),
  cover: new Uint8Array(n),
  /** The star set whose nodes inFrom marks (its uid; 0: none). */
  markedSet: 0,
});

export let scratch = newScratch(1024);
let stamp = 0;
let starSetUid = 0;

/** Room for the nodes of a trie of `size` nodes. */
export function ensureScratch(size: number): void {
  if (scratch.mark.length < size) scratch = newScratch(Math.max(size, scratch.mark.length * 2)); // (its inFrom marks no set)
}

/** A fresh stamp for scratch.stamps. */
export function nextStamp(): number {
  if (++stamp === 0xffffffff) {
    scratch.stamps.fill(0);
    stamp = 1;
  }
  return stamp;
}

/** A star set's uid, unique among all matchers' sets (the key of the cover memo). */
export function nextStarSetUid(): number {
  if (++starSetUid === 0xffffffff) {
    scratch.coverOf.fill(0);
    scratch.inFrom.fill(0);
    scratch.markedSet = 0;
    starSetUid = 1;
  }
  return starSetUid;
}

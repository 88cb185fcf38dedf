// A trie simulated in the core: the set of active nodes stepped octet by
// octet, with the semantics of the DFA (dfa.ts): a node entered is active with
// its `*` child; a rule ending at an active node is a sticky accept, a `$` rule
// counts if the path ends on the node; a `*` node stays active on every octet.
// Rule mode (rules.ts) walks its trie of rules without `*` so, along octet
// edges only: one or two active nodes, whatever the number of rules.
import {
  H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE,
  N_SIZE, N_CHILD_START, N_CHILD_TOK, N_CHILD_NODE, N_TERM, N_TERMS, N_STAR_CHILD, N_IS_STAR,
  INFO_STICKY_ALLOW, INFO_STICKY_DISALLOW, INFO_END_ALLOW, INFO_END_DISALLOW,
} from "../src/engine/layout";

// Working memory, grown to the largest trie walked: a stamp per node (the
// generation it was last added in) and two lists of active nodes.
let stamps: usize = 0;
let lists: usize = 0;
let room: i32 = 0;
let generation: u32 = 0;

// The trie being walked, and the best rules met (module state: one walk at a time).
let childStart: usize = 0;
let childTok: usize = 0;
let childNode: usize = 0;
let term: usize = 0;
let terms: usize = 0;
let starChild: usize = 0;
let isStar: usize = 0;
let allow: u32 = NO_RULE;
let disallow: u32 = NO_RULE;

function reserve(size: i32): void {
  if (size <= room) return;
  if (stamps != 0) {
    heap.free(stamps);
    heap.free(lists);
  }
  room = size + (size >> 1) + 16;
  stamps = heap.alloc(<usize>room << 2);
  lists = heap.alloc(<usize>room << 3);
  memory.fill(stamps, 0, <usize>room << 2);
  generation = 0;
}

@inline function nextGeneration(): void {
  if (++generation == 0) {
    memory.fill(stamps, 0, <usize>room << 2);
    generation = 1;
  }
}

/** The octet child of q, or -1 (children sorted by octet). */
@inline function childOf(q: i32, b: u8): i32 {
  let lo = load<i32>(childStart + (<usize>q << 2));
  let hi = load<i32>(childStart + (<usize>q << 2), 4);
  if (hi - lo <= 8) {
    for (; lo < hi; lo++) if (load<u8>(childTok + <usize>lo) == b) return load<i32>(childNode + (<usize>lo << 2));
    return -1;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = load<u8>(childTok + <usize>mid);
    if (m == b) return load<i32>(childNode + (<usize>mid << 2));
    if (m < b) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** Activates q (and its `*` child) in the list at `list`, which holds k nodes; returns the new count.
 * A node is listed only if it can still move or end a `$` rule (a star always can). */
function add(q: i32, list: usize, k: i32): i32 {
  while (q >= 0) {
    const stamp = stamps + (<usize>q << 2);
    if (load<u32>(stamp) == generation) break;
    store<u32>(stamp, generation);
    const i = load<i32>(term + (<usize>q << 2));
    let ends = false;
    if (i >= 0) {
      const at = terms + (<usize>i << 4);
      const a = load<u32>(at, INFO_STICKY_ALLOW);
      const d = load<u32>(at, INFO_STICKY_DISALLOW);
      if (a < allow) allow = a;
      if (d < disallow) disallow = d;
      ends = (load<u32>(at, INFO_END_ALLOW) & load<u32>(at, INFO_END_DISALLOW)) != NO_RULE;
    }
    const star = isStar != 0 && load<u8>(isStar + <usize>q) != 0;
    if (star || ends || load<i32>(childStart + (<usize>q << 2), 4) > load<i32>(childStart + (<usize>q << 2))) {
      store<i32>(list + (<usize>k << 2), q);
      k++;
    }
    q = starChild != 0 ? load<i32>(starChild + (<usize>q << 2)) : -1;
  }
  return k;
}


/** Simulates the trie block t (N_* fields) over p[0, n), storing the best allow
 * and disallow rule ids in m's header (H_OUT_*). A trie whose star fields are 0
 * is walked along its octet edges only: rule mode's literal rules (rules.ts). */
export function walkTrie(m: usize, t: usize, p: usize, n: i32): void {
  reserve(load<i32>(t, N_SIZE));
  childStart = load<usize>(t, N_CHILD_START);
  childTok = load<usize>(t, N_CHILD_TOK);
  childNode = load<usize>(t, N_CHILD_NODE);
  term = load<usize>(t, N_TERM);
  terms = load<usize>(t, N_TERMS);
  starChild = load<usize>(t, N_STAR_CHILD);
  isStar = load<usize>(t, N_IS_STAR);
  allow = NO_RULE;
  disallow = NO_RULE;

  let cur = lists;
  let next = lists + (<usize>room << 2);
  nextGeneration();
  let count = add(0, cur, 0); // the root: the empty prefix
  const end = p + <usize>n;
  while (p < end && count > 0) {
    const b = load<u8>(p++);
    nextGeneration();
    let k = 0;
    for (let j = 0; j < count; j++) {
      const q = load<i32>(cur + (<usize>j << 2));
      if (isStar != 0 && load<u8>(isStar + <usize>q) != 0) k = add(q, next, k); // a star eats the octet
      const c = childOf(q, b);
      if (c >= 0) k = add(c, next, k);
    }
    const swap = cur;
    cur = next;
    next = swap;
    count = k;
  }
  // The path ends here: `$` rules ending at an active node count.
  for (let j = 0; j < count; j++) {
    const i = load<i32>(term + (<usize>load<i32>(cur + (<usize>j << 2)) << 2));
    if (i < 0) continue;
    const at = terms + (<usize>i << 4);
    const a = load<u32>(at, INFO_END_ALLOW);
    const d = load<u32>(at, INFO_END_DISALLOW);
    if (a < allow) allow = a;
    if (d < disallow) disallow = d;
  }
  store<u32>(m, allow, H_OUT_ALLOW);
  store<u32>(m, disallow, H_OUT_DISALLOW);
}

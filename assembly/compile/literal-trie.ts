// Rule mode's trie of its rules' literal heads (src/engine/match/matcher-block.ts
// writes it, N_* fields): the rules without `*` whole, and the octets before
// the first `*` of the others. Without stars a trie is walked along one path,
// the node of the octets read so far, so it costs one step per octet whatever
// the number of rules. A rule ending on a node passed is matched for good
// (sticky); a `$` rule only if the path ends on its node. A node where `*`
// rules' heads end has their entries (N_TAILS): the walk lists it for
// assembly/match/rule-mode.ts, which verifies them.
import {
  H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE,
  N_CHILD_START, N_CHILD_TOK, N_CHILD_NODE, N_TERM, N_TERMS, N_TAILS, N_HEADER, NT_FIRST, NT_END, NT_SIZE,
  INFO_STICKY_ALLOW, INFO_STICKY_DISALLOW, INFO_END_ALLOW, INFO_END_DISALLOW,
  RM_HEADER, RE_ID, RE_FLAGS, RE_TOKENS, RE_LENGTH, RE_SIZE, RE_ANCHORED, RE_DISALLOW, RULE_LIST_STAR,
} from "../../src/engine/wasm/layout";
import { alloc } from "../base/alloc";

/** The octet child of q, or -1 (children sorted by octet). */
@inline function childOf(t: usize, q: i32, b: u8): i32 {
  const childStart = load<usize>(t, N_CHILD_START);
  const childTok = load<usize>(t, N_CHILD_TOK);
  const childNode = load<usize>(t, N_CHILD_NODE);
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

/** Walks p[0, n) down the literal trie t, storing the best allow and disallow
 * rule ids met in m's header (H_OUT_*), and writing to `met` (room for n + 1)
 * the terminals passed whose node has `*` rules (N_TAILS); returns how many. */
export function walkLiteralTrie(m: usize, t: usize, p: usize, n: i32, met: usize): i32 {
  const term = load<usize>(t, N_TERM);
  const terms = load<usize>(t, N_TERMS);
  const tails = load<usize>(t, N_TAILS);
  let allow: u32 = NO_RULE;
  let disallow: u32 = NO_RULE;
  let count = 0;
  let q: i32 = 0; // the root: the empty prefix
  for (let i: i32 = 0; ; i++) {
    const k = load<i32>(term + (<usize>q << 2));
    if (k >= 0) {
      const at = terms + (<usize>k << 4);
      allow = min(allow, load<u32>(at, INFO_STICKY_ALLOW));
      disallow = min(disallow, load<u32>(at, INFO_STICKY_DISALLOW));
      if (i == n) {
        allow = min(allow, load<u32>(at, INFO_END_ALLOW));
        disallow = min(disallow, load<u32>(at, INFO_END_DISALLOW));
      }
      if (tails != 0) {
        const tail = tails + <usize>k * NT_SIZE;
        if (load<u32>(tail, NT_FIRST) != load<u32>(tail, NT_END)) {
          store<u32>(met + (<usize>count << 2), <u32>k);
          count++;
        }
      }
    }
    if (i == n) break;
    q = childOf(t, q, load<u8>(p + <usize>i));
    if (q < 0) break;
  }
  store<u32>(m, allow, H_OUT_ALLOW);
  store<u32>(m, disallow, H_OUT_DISALLOW);
  return count;
}

// The trie's making (src/engine/compile/literal-heads.ts calls it, when a
// matcher takes rule mode on turning hot): in the core, as the cold list's
// index is (cold-index.ts), because it runs once per matcher, where
// JavaScript would run it unoptimised. The heads are
// sorted (radix, by octets); each one's nodes are its octets past what it shares with the head
// before, made in depth-first order, so a node's children come in octet order.

/** The octets before entry i's first `*` (all of them without one). */
function headOf(list: usize, i: u32): i32 {
  const e = list + RM_HEADER + <usize>i * RE_SIZE;
  const t = load<usize>(e, RE_TOKENS);
  const n = load<i32>(e, RE_LENGTH);
  let k = 0;
  while (k < n && load<u8>(t + <usize>k) != RULE_LIST_STAR) k++;
  return k;
}

@inline function tokensAt(list: usize, i: u32): usize {
  return load<usize>(list + RM_HEADER + <usize>i * RE_SIZE, RE_TOKENS);
}

/** Octets a[0, k) and b[0, l) share at their start. */
@inline function sharedOctets(a: usize, k: i32, b: usize, l: i32): i32 {
  const m = k < l ? k : l;
  let i = 0;
  while (i < m && load<u8>(a + <usize>i) == load<u8>(b + <usize>i)) i++;
  return i;
}

/** Compares a[0, k) and b[0, l) by octets, a prefix first. */
@inline function compareOctets(a: usize, k: i32, b: usize, l: i32): i32 {
  const s = sharedOctets(a, k, b, l);
  if (s < k && s < l) return <i32>load<u8>(a + <usize>s) - <i32>load<u8>(b + <usize>s);
  return k - l;
}

/** Entry x's head octet at `at`, plus 1, or 0 past its end. */
@inline function octetAt(list: usize, lengths: usize, x: u32, at: i32): u32 {
  return at < load<i32>(lengths + (<usize>x << 2)) ? 1 + <u32>load<u8>(tokensAt(list, x) + <usize>at) : 0;
}

/**
 * Sorts the entries order[lo, hi), whose heads share their first `at` octets,
 * by head (a prefix first): a most significant digit radix sort, by one
 * octet at a time (counting, stable; an octet they all share skipped), each
 * bucket then by the next octet, the largest in the same call (so the calls
 * nest at most log2 of the entries deep), a short range by insertion.
 * O(octets that tell the heads apart).
 */
function sortByHead(list: usize, order: usize, spare: usize, lengths: usize, lo: usize, hi: usize, at: i32): void {
  const counts = memory.data(258 << 2);
  while (true) {
    const m = hi - lo;
    if (m < 32) {
      for (let i = lo + 1; i < hi; i++) {
        const x = load<u32>(order + (i << 2));
        const tx = tokensAt(list, x);
        const lx = load<i32>(lengths + (<usize>x << 2));
        let j = i;
        while (j > lo) {
          const y = load<u32>(order + ((j - 1) << 2));
          if (compareOctets(tokensAt(list, y), load<i32>(lengths + (<usize>y << 2)), tx, lx) <= 0) break;
          store<u32>(order + (j << 2), y);
          j--;
        }
        store<u32>(order + (j << 2), x);
      }
      return;
    }
    memory.fill(counts, 0, 258 << 2);
    for (let k = lo; k < hi; k++) {
      const c = counts + (<usize>(octetAt(list, lengths, load<u32>(order + (k << 2)), at) + 1) << 2);
      store<u32>(c, load<u32>(c) + 1);
    }
    let same: i32 = -1;
    for (let d: usize = 1; d <= 257; d++) if (<usize>load<u32>(counts + (d << 2)) == m) same = <i32>d - 1;
    if (same == 0) return; // (the same head, all of them)
    if (same > 0) {
      at++;
      continue;
    }
    for (let d: usize = 0; d < 257; d++) store<u32>(counts + ((d + 1) << 2), load<u32>(counts + ((d + 1) << 2)) + load<u32>(counts + (d << 2)));
    for (let k = lo; k < hi; k++) {
      const x = load<u32>(order + (k << 2));
      const c = counts + (<usize>octetAt(list, lengths, x, at) << 2);
      const to = lo + <usize>load<u32>(c);
      store<u32>(c, load<u32>(c) + 1);
      store<u32>(spare + (to << 2), x);
    }
    memory.copy(order + (lo << 2), spare + (lo << 2), m << 2);
    // The buckets (runs of one octet; heads ended first, done): each by the next octet, the largest last.
    let bigLo = lo;
    let bigHi = lo;
    let k = lo;
    while (k < hi) {
      const c = octetAt(list, lengths, load<u32>(order + (k << 2)), at);
      let j = k + 1;
      while (j < hi && octetAt(list, lengths, load<u32>(order + (j << 2)), at) == c) j++;
      if (c != 0 && j - k > 1) {
        if (j - k > bigHi - bigLo) {
          if (bigHi - bigLo > 1) sortByHead(list, order, spare, lengths, bigLo, bigHi, at + 1);
          bigLo = k;
          bigHi = j;
        } else {
          sortByHead(list, order, spare, lengths, k, j, at + 1);
        }
      }
      k = j;
    }
    if (bigHi - bigLo <= 1) return;
    lo = bigLo;
    hi = bigHi;
    at++;
  }
}

/**
 * The trie of the heads of a rule list's `count` entries (RE_* fields: layout.ts),
 * as a block (N_* fields) whose tails (N_TAILS, zeroed) have room for a list per
 * terminal: each distinct head has a terminal, which holds the best ids of the
 * rules without `*` that end there. Writes per entry i to nodes (12 octets each)
 * for a `*` rule the node where its head ends, the head's octets and the rule's
 * signature (buckets of the octets it names: RM_SIGNATURES), else -1. Returns
 * the block (alloc's, freed by its matcher).
 */
export function buildLiteralHeads(list: usize, count: u32, nodes: usize): usize {
  const n = <usize>count;
  const order = heap.alloc((n + 1) << 2);
  const spare = heap.alloc((n + 1) << 2);
  const lengths = heap.alloc((n + 1) << 2);
  let longest = 0;
  for (let i: u32 = 0; i < count; i++) {
    store<u32>(order + (<usize>i << 2), i);
    const k = headOf(list, i);
    store<i32>(lengths + (<usize>i << 2), k);
    if (k > longest) longest = k;
  }
  sortByHead(list, order, spare, lengths, 0, n, 0);
  const from = order;
  const to = spare;
  // What each head shares with the one before (in `to`, free now): the nodes and terminals to make.
  const common = to;
  let size: usize = 1;
  let terminals: usize = 0;
  for (let k: usize = 0; k < n; k++) {
    const a = load<u32>(from + (k << 2));
    const l = load<i32>(lengths + (<usize>a << 2));
    let c = 0;
    if (k > 0) {
      const b = load<u32>(from + ((k - 1) << 2));
      const lb = load<i32>(lengths + (<usize>b << 2));
      c = sharedOctets(tokensAt(list, a), l, tokensAt(list, b), lb);
      if (c < l || lb != l) terminals++;
    } else {
      terminals++;
    }
    store<i32>(common + (k << 2), c);
    size += <usize>(l - c);
  }
  const edges = size - 1;
  const childStartAt: usize = N_HEADER;
  const childNodeAt = childStartAt + ((size + 1) << 2);
  const termAt = childNodeAt + (edges << 2);
  const termsAt = termAt + (size << 2);
  const tailsAt = termsAt + (terminals << 4);
  const childTokAt = tailsAt + terminals * NT_SIZE;
  const block = alloc(childTokAt + edges);
  const cs = block + childStartAt;
  const cn = block + childNodeAt;
  const term = block + termAt;
  const terms = block + termsAt;
  const ct = block + childTokAt;
  store<usize>(block, cs, N_CHILD_START);
  store<usize>(block, cn, N_CHILD_NODE);
  store<usize>(block, ct, N_CHILD_TOK);
  store<usize>(block, term, N_TERM);
  store<usize>(block, terms, N_TERMS);
  store<usize>(block, block + tailsAt, N_TAILS);
  memory.fill(term, 0xff, size << 2); // (-1: no terminal)
  memory.fill(terms, 0xff, terminals << 4); // (NO_RULE)
  memory.fill(block + tailsAt, 0, terminals * NT_SIZE);
  // The nodes, their parents (in childNode's room until the links) and octets (in childTok's).
  const parent = heap.alloc(size << 2);
  const path = heap.alloc(<usize>(longest + 1) << 2);
  store<i32>(path, 0);
  let made: usize = 1;
  let next: i32 = 0;
  for (let k: usize = 0; k < n; k++) {
    const a = load<u32>(from + (k << 2));
    const e = list + RM_HEADER + <usize>a * RE_SIZE;
    const t = load<usize>(e, RE_TOKENS);
    const l = load<i32>(lengths + (<usize>a << 2));
    for (let d = load<i32>(common + (k << 2)); d < l; d++) {
      const c = made++;
      store<u32>(parent + (c << 2), load<u32>(path + (<usize>d << 2)));
      store<u8>(ct + c - 1, load<u8>(t + <usize>d));
      store<u32>(path + (<usize>(d + 1) << 2), <u32>c);
    }
    const q = <usize>load<u32>(path + (<usize>l << 2));
    let x = load<i32>(term + (q << 2));
    if (x < 0) {
      x = next++;
      store<i32>(term + (q << 2), x);
    }
    const fact = nodes + <usize>a * 12;
    const length = load<i32>(e, RE_LENGTH);
    if (length != l) {
      // A `*` rule, planned by star-plan.ts: its head's node and octets, and its signature.
      let named: u32 = 0;
      for (let i = 0; i < length; i++) {
        const octet = load<u8>(t + <usize>i);
        if (octet != RULE_LIST_STAR) named |= <u32>1 << (octet & 31);
      }
      store<u32>(fact, <u32>q);
      store<i32>(fact, l, 4);
      store<u32>(fact, named, 8);
      continue;
    }
    store<i32>(fact, -1);
    const flags = load<u32>(e, RE_FLAGS);
    const field = terms + (<usize>x << 4) + ((flags & RE_ANCHORED) != 0 ? INFO_END_ALLOW : INFO_STICKY_ALLOW) + ((flags & RE_DISALLOW) != 0 ? 4 : 0);
    const id = load<u32>(e, RE_ID);
    if (id < load<u32>(field)) store<u32>(field, id);
  }
  // Children in CSR form: counted by parent, then placed in id order (a node's children were made in octet order).
  memory.fill(cs, 0, (size + 1) << 2);
  for (let c: usize = 1; c < size; c++) {
    const at = cs + ((<usize>load<u32>(parent + (c << 2)) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let q: usize = 0; q < size; q++) store<u32>(cs + ((q + 1) << 2), load<u32>(cs + ((q + 1) << 2)) + load<u32>(cs + (q << 2)));
  // The octets were written at c - 1 (node order); an edge's octet goes to its place, so read them first.
  const octets = heap.alloc(edges + 1);
  memory.copy(octets, ct, edges);
  for (let c: usize = 1; c < size; c++) {
    const at = cs + (<usize>load<u32>(parent + (c << 2)) << 2);
    const slot = <usize>load<u32>(at);
    store<u32>(at, <u32>slot + 1);
    store<u32>(cn + (slot << 2), <u32>c);
    store<u8>(ct + slot, load<u8>(octets + c - 1));
  }
  // childStart[p] was moved on to its end: shifted back.
  memory.copy(cs + 4, cs, size << 2);
  store<u32>(cs, 0);
  heap.free(octets);
  heap.free(path);
  heap.free(parent);
  heap.free(lengths);
  heap.free(spare);
  heap.free(order);
  return block;
}

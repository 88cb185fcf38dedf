// The indexed cold walk: a cold list's rules reached by their literal heads
// (layout.ts RI_*, RH_*; indexColdList below writes the index)
// instead of one by one. The heads are sorted; a binary search finds the last
// head at or below the path, and the heads the path starts with are that one's
// chain of parents from the first as long as the octets it shares with the
// path. Only their rules are tried: a path of a 30,000-rule file meets a few
// dozen, not all of them (rules that start with `*` have the empty head, and
// are tried always).
//
// The index is built here too (indexColdList), when the host's review of a
// cold matcher says so (src/engine/match/cold-review.ts): a merge sort of the
// heads, in the core because it runs once per matcher, where JavaScript would
// run it unoptimised.
import {
  H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE, RM_HEADER, RM_SIGNATURES, RI_HEADS, RI_HEADER,
  RH_TOKENS, RH_LENGTH, RH_PARENT, RH_FIRST, RH_END, RH_SIZE, RE_ID, RE_FLAGS, RE_TOKENS, RE_LENGTH, RE_SIZE, RE_ANCHORED, RE_DISALLOW,
  RM_COUNT, RM_INDEX, COLD_HEAD_MAX, RULE_LIST_STAR,
} from "../../src/engine/wasm/layout";
import { bucketsOf, matches } from "./rules";
import { alloc } from "../base/alloc";

/** Octets p[0, n) and h[0, k) have in common at their start. */
@inline function shared(p: usize, n: i32, h: usize, k: i32): i32 {
  const m = n < k ? n : k;
  let i = 0;
  while (i < m && load<u8>(p + <usize>i) == load<u8>(h + <usize>i)) i++;
  return i;
}

/** Decides p[0, n) for the cold matcher m by its list's index; stores the best
 * rule's id in its kind's H_OUT_* (the other NO_RULE: the best decides).
 * Returns the work done (heads compared, entries visited, a unit per 16 octets of path matched against). */
export function walkIndexed(m: usize, list: usize, index: usize, p: usize, n: i32): i32 {
  const heads = index + RI_HEADER;
  const count = <i32>load<u32>(index, RI_HEADS);
  const entries = heads + <usize>count * RH_SIZE;
  let work = 0;
  // The last head at or below the path (a head the path starts with is below it), and what it shares with the path.
  let lo = 0;
  let hi = count;
  let common = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const h = heads + <usize>mid * RH_SIZE;
    const t = load<usize>(h, RH_TOKENS);
    const k = load<i32>(h, RH_LENGTH);
    const s = shared(p, n, t, k);
    work++;
    if (s == k || (s < n && load<u8>(t + <usize>s) < load<u8>(p + <usize>s))) lo = mid + 1;
    else hi = mid;
  }
  let q = lo - 1;
  if (q >= 0) {
    const h = heads + <usize>q * RH_SIZE;
    common = shared(p, n, load<usize>(h, RH_TOKENS), load<i32>(h, RH_LENGTH));
  }
  // Up to the first head the path starts with: one no longer than what they share.
  while (q >= 0 && load<i32>(heads + <usize>q * RH_SIZE, RH_LENGTH) > common) q = load<i32>(heads + <usize>q * RH_SIZE, RH_PARENT);
  const signatures = load<usize>(list, RM_SIGNATURES);
  let pathBuckets: u32 = 0;
  let bucketed = false;
  let best: u32 = NO_RULE;
  let disallow = false;
  for (; q >= 0; q = load<i32>(heads + <usize>q * RH_SIZE, RH_PARENT)) {
    const h = heads + <usize>q * RH_SIZE;
    const known = load<i32>(h, RH_LENGTH);
    const end = load<u32>(h, RH_END);
    for (let j = load<u32>(h, RH_FIRST); j < end; j++) {
      const i = <usize>load<u32>(entries + (<usize>j << 2));
      const e = list + RM_HEADER + i * RE_SIZE;
      const id = load<u32>(e, RE_ID);
      work++;
      if (id >= best) break; // this head's rules left rank below the best match
      if (signatures != 0) {
        const named = load<u32>(signatures + (i << 2));
        if (named != 0) {
          if (!bucketed) {
            pathBuckets = bucketsOf(p, n);
            bucketed = true;
          }
          if ((named & ~pathBuckets) != 0) continue; // it names an octet the path lacks
        }
      }
      const flags = load<u32>(e, RE_FLAGS);
      work += n >> 4;
      if (!matches(p, n, load<usize>(e, RE_TOKENS), load<i32>(e, RE_LENGTH), (flags & RE_ANCHORED) != 0, known)) continue;
      best = id;
      disallow = (flags & RE_DISALLOW) != 0;
      break;
    }
  }
  store<u32>(m, disallow ? NO_RULE : best, H_OUT_ALLOW);
  store<u32>(m, disallow ? best : NO_RULE, H_OUT_DISALLOW);
  return work;
}

/** Entry i's tokens and the length of its head (its octets before any `*`, at most COLD_HEAD_MAX). */
@inline function tokensOf(list: usize, i: u32): usize {
  return load<usize>(list + RM_HEADER + <usize>i * RE_SIZE, RE_TOKENS);
}

function headLength(list: usize, i: u32): i32 {
  const e = list + RM_HEADER + <usize>i * RE_SIZE;
  const t = load<usize>(e, RE_TOKENS);
  const n = min(load<i32>(e, RE_LENGTH), COLD_HEAD_MAX);
  let k = 0;
  while (k < n && load<u8>(t + <usize>k) != RULE_LIST_STAR) k++;
  return k;
}

/** Compares heads a[0, k) and b[0, l) by octets, a prefix first. */
function compareHeads(a: usize, k: i32, b: usize, l: i32): i32 {
  const m = k < l ? k : l;
  for (let i = 0; i < m; i++) {
    const x = <i32>load<u8>(a + <usize>i);
    const y = <i32>load<u8>(b + <usize>i);
    if (x != y) return x - y;
  }
  return k - l;
}

/** Indexes the cold list (RM_INDEX, layout.ts RI_*). Returns the index's octets. */
export function indexColdList(list: usize): usize {
  const count = load<u32>(list, RM_COUNT);
  const n = <usize>count;
  // Scratch: entry numbers (two runs for the merge sort) and head lengths.
  const order = heap.alloc(n << 2);
  const spare = heap.alloc(n << 2);
  const lengths = heap.alloc(n << 2);
  for (let i: u32 = 0; i < count; i++) {
    store<u32>(order + (<usize>i << 2), i);
    store<i32>(lengths + (<usize>i << 2), headLength(list, i));
  }
  // Bottom-up merge sort by head, stable: a head's entries stay in rank order.
  let from = order;
  let to = spare;
  for (let width: usize = 1; width < n; width <<= 1) {
    for (let lo: usize = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const a = load<u32>(from + (i << 2));
        const b = load<u32>(from + (j << 2));
        const c = compareHeads(tokensOf(list, a), load<i32>(lengths + (<usize>a << 2)), tokensOf(list, b), load<i32>(lengths + (<usize>b << 2)));
        if (c <= 0) {
          store<u32>(to + (k++ << 2), a);
          i++;
        } else {
          store<u32>(to + (k++ << 2), b);
          j++;
        }
      }
      while (i < mid) store<u32>(to + (k++ << 2), load<u32>(from + (i++ << 2)));
      while (j < hi) store<u32>(to + (k++ << 2), load<u32>(from + (j++ << 2)));
    }
    const t = from;
    from = to;
    to = t;
  }
  // The distinct heads.
  let heads: usize = 0;
  for (let i: usize = 0; i < n; i++) {
    const a = load<u32>(from + (i << 2));
    if (i == 0) {
      heads++;
      continue;
    }
    const b = load<u32>(from + ((i - 1) << 2));
    if (compareHeads(tokensOf(list, a), load<i32>(lengths + (<usize>a << 2)), tokensOf(list, b), load<i32>(lengths + (<usize>b << 2))) != 0) heads++;
  }
  const octets = <usize>RI_HEADER + heads * RH_SIZE + (n << 2);
  const index = alloc(octets);
  store<u32>(index, <u32>heads, RI_HEADS);
  const records = index + RI_HEADER;
  const entries = records + heads * RH_SIZE;
  // The heads that are prefixes of the last one, innermost on top (`spare` or `order`, whichever is free now).
  const chain = to;
  let depth: usize = 0;
  let q: i32 = -1;
  for (let i: usize = 0; i < n; i++) {
    const a = load<u32>(from + (i << 2));
    store<u32>(entries + (i << 2), a);
    const t = tokensOf(list, a);
    const k = load<i32>(lengths + (<usize>a << 2));
    if (q >= 0) {
      const h = records + <usize>q * RH_SIZE;
      if (load<i32>(h, RH_LENGTH) == k && compareHeads(load<usize>(h, RH_TOKENS), k, t, k) == 0) {
        store<u32>(h, <u32>i + 1, RH_END); // (the same head: one more rule)
        continue;
      }
    }
    q++;
    const h = records + <usize>q * RH_SIZE;
    while (depth > 0) {
      const top = records + <usize>load<u32>(chain + ((depth - 1) << 2)) * RH_SIZE;
      const l = load<i32>(top, RH_LENGTH);
      if (l <= k && compareHeads(load<usize>(top, RH_TOKENS), l, t, l) == 0) break;
      depth--;
    }
    store<usize>(h, t, RH_TOKENS);
    store<i32>(h, k, RH_LENGTH);
    store<i32>(h, depth > 0 ? <i32>load<u32>(chain + ((depth - 1) << 2)) : -1, RH_PARENT);
    store<u32>(h, <u32>i, RH_FIRST);
    store<u32>(h, <u32>i + 1, RH_END);
    store<u32>(chain + (depth++ << 2), <u32>q);
  }
  heap.free(order);
  heap.free(spare);
  heap.free(lengths);
  store<usize>(list, index, RM_INDEX);
  return octets;
}

// Rule mode's `*` rules planned and written in the core, for every matcher that
// takes rule mode (src/engine/compile/literal-heads.ts makes it from a rule
// list: a cold matcher's, one from its table, or one from a hot matcher's trie).
// The only planner the library runs; test/helpers/star-plan-reference.ts is the
// host's reference, held equal octet for octet (test/engine/property.test.ts).
// In the core, not in JavaScript: a plan runs once per matcher, mostly before
// the JIT has warmed.
//
// In: the rule list (entries by id, RE_*), the facts buildLiteralHeads wrote
// (per rule: its head's node or -1, its head's octets, its signature), the
// policy's tailRulesMax, the literal trie's block (its N_TAILS to fill). Out:
// the list's block (RM_*, RE_* entries, signatures, the gram index G_*, the
// tokens); lastStarPlanOctets and lastStarPlanTried. Invariant: every `*` rule
// is in exactly one place, its head's node's list or the gram index.
import {
  G_BITS, G_ENTRIES, G_FILTERS, G_FIRST, G_HEADER, G_SEEN, G_START, GE_GRAM, GE_RULE, GE_SIZE, GRAM_FILTER_HASH, GRAM_HASH,
  N_TAILS, N_TERM, NT_END, NT_FIRST, NT_KNOWN, NT_SIZE,
  RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS,
  RM_COUNT, RM_GRAMS, RM_HEADER, RM_SIGNATURES, RULE_LIST_STAR,
} from "../../src/engine/wasm/layout";
import { alloc } from "../base/alloc";

let lastOctets: u32 = 0;
let lastTried: u32 = 0;

/** The octets of the last plan's block. */
export function lastStarPlanOctets(): u32 {
  return lastOctets;
}

/** Rules a URL tries at most, about, in the last plan (the cost model's rule mode: src/engine/match/mode-policy.ts). */
export function lastStarPlanTried(): u32 {
  return lastTried;
}

@inline function i32At(base: usize, i: usize): i32 {
  return load<i32>(base + (i << 2));
}

@inline function setI32(base: usize, i: usize, v: i32): void {
  store<i32>(base + (i << 2), v);
}

/** The plan of the list's `*` rules, written as their block (see above): its address. */
export function planStarRuleList(list: usize, count: u32, facts: usize, tailRulesMax: i32, trie: usize): usize {
  // The `*` rules in rank order (the list's entries are by id): rule r is entry rule[r].
  let n: usize = 0;
  let nodes: i32 = 0;
  for (let i: usize = 0; i < <usize>count; i++) {
    const q = load<i32>(facts + i * 12);
    if (q < 0) continue;
    n++;
    if (q + 1 > nodes) nodes = q + 1;
  }
  const rule = heap.alloc((n + 1) << 2);
  const start = heap.alloc((n + 1) << 2); // its tokens' offset in the block's tokens
  let tokenCount: usize = 0;
  let r: usize = 0;
  for (let i: usize = 0; i < <usize>count; i++) {
    if (load<i32>(facts + i * 12) < 0) continue;
    setI32(rule, r, <i32>i);
    setI32(start, r, <i32>tokenCount);
    tokenCount += <usize>load<u32>(list + RM_HEADER + i * RE_SIZE, RE_LENGTH);
    r++;
  }
  // The rules by node (a counting sort, stable: each node's in rank order).
  const first = heap.alloc(<usize>(nodes + 1) << 2);
  memory.fill(first, 0, <usize>(nodes + 1) << 2);
  for (let k: usize = 0; k < n; k++) {
    const q = <usize>load<i32>(facts + <usize>i32At(rule, k) * 12);
    setI32(first, q + 1, i32At(first, q + 1) + 1);
  }
  for (let q: usize = 0; q < <usize>nodes; q++) setI32(first, q + 1, i32At(first, q + 1) + i32At(first, q));
  const byNode = heap.alloc((n + 1) << 2);
  const fill = heap.alloc(<usize>(nodes + 1) << 2);
  memory.copy(fill, first, <usize>nodes << 2);
  for (let k: usize = 0; k < n; k++) {
    const q = <usize>load<i32>(facts + <usize>i32At(rule, k) * 12);
    const at = i32At(fill, q);
    setI32(fill, q, at + 1);
    setI32(byNode, <usize>at, <i32>k);
  }
  heap.free(fill);
  // The grams of the rules of crowded lists (distinct per rule: a hash slot each), and each gram's count over them.
  let room: usize = 0;
  for (let k: usize = 0; k < n; k++) {
    const f = facts + <usize>i32At(rule, k) * 12;
    const q = <usize>load<i32>(f);
    if (i32At(first, q + 1) - i32At(first, q) <= tailRulesMax) continue;
    const length = load<i32>(list + RM_HEADER + <usize>i32At(rule, k) * RE_SIZE, RE_LENGTH);
    const grams = length - load<i32>(f, 4) - 3;
    if (grams > 0) room += <usize>grams;
  }
  let bits: i32 = 4;
  while ((<usize>1 << bits) < 2 * room) bits++;
  const size = <usize>1 << bits;
  const keys = heap.alloc(size << 2);
  const counts = heap.alloc(size << 2); // 0: empty; negative: chosen (its count negated)
  const last = heap.alloc(size << 2); // the last rule counted, plus 1
  memory.fill(counts, 0, size << 2);
  memory.fill(last, 0, size << 2);
  const gramAt = heap.alloc((n + 1) << 2);
  const slots = heap.alloc((room + 1) << 2);
  let used: i32 = 0;
  for (let k: usize = 0; k < n; k++) {
    setI32(gramAt, k, used);
    const i = <usize>i32At(rule, k);
    const f = facts + i * 12;
    const q = <usize>load<i32>(f);
    if (i32At(first, q + 1) - i32At(first, q) <= tailRulesMax) continue;
    const e = list + RM_HEADER + i * RE_SIZE;
    const t = load<usize>(e, RE_TOKENS);
    const end = t + <usize>load<u32>(e, RE_LENGTH);
    for (let p = t + <usize>load<i32>(f, 4); p + 4 <= end; p++) {
      const a = <u32>load<u8>(p);
      const b = <u32>load<u8>(p, 1);
      const c = <u32>load<u8>(p, 2);
      const d = <u32>load<u8>(p, 3);
      if (a == RULE_LIST_STAR || b == RULE_LIST_STAR || c == RULE_LIST_STAR || d == RULE_LIST_STAR) continue;
      const g = a | (b << 8) | (c << 16) | (d << 24);
      // (the product's top bits: its low ones are the gram's first octets' alone)
      let h = <usize>((g * GRAM_HASH) >>> (32 - bits));
      while (i32At(counts, h) != 0 && load<u32>(keys + (h << 2)) != g) h = (h + 1) & (size - 1);
      if (i32At(last, h) == <i32>k + 1) continue;
      setI32(last, h, <i32>k + 1);
      store<u32>(keys + (h << 2), g);
      setI32(counts, h, i32At(counts, h) + 1);
      setI32(slots, <usize>used, <i32>h);
      used++;
    }
  }
  setI32(gramAt, n, used);
  heap.free(last);

  // The list's order: each node's rules without grams (node order), then the gram index's (rank order).
  const order = heap.alloc((n + 1) << 2); // entry -> rule
  let entries: usize = 0;
  let shared: u32 = 0; // rules of lists every path meets (heads of an octet or none)
  let longest: u32 = 0;
  let groups: u32 = 0;
  const term = load<usize>(trie, N_TERM);
  const tails = load<usize>(trie, N_TAILS);
  for (let k: usize = 0; k < n; ) {
    const q = <usize>load<i32>(facts + <usize>i32At(rule, <usize>i32At(byNode, k)) * 12);
    const from = entries;
    const end = <usize>i32At(first, q + 1);
    for (; k < end; k++) {
      const x = <usize>i32At(byNode, k);
      if (i32At(gramAt, x + 1) == i32At(gramAt, x)) setI32(order, entries++, <i32>x);
    }
    const kept = <u32>(entries - from);
    if (kept == 0) continue;
    const known = load<i32>(facts + <usize>i32At(rule, <usize>i32At(byNode, <usize>i32At(first, q))) * 12, 4);
    const tail = tails + <usize>NT_SIZE * <usize>i32At(term, q);
    store<u32>(tail, <u32>from, NT_FIRST);
    store<u32>(tail, <u32>entries, NT_END);
    store<i32>(tail, known, NT_KNOWN);
    groups++;
    if (known <= 1) shared += kept;
    else if (kept > longest) longest = kept;
  }
  if (groups == 0) store<usize>(trie, 0, N_TAILS);
  const gramFirst = entries;
  // The gram index: each rule (rank order) by its rarest gram, its filter of all its grams.
  const items = n - gramFirst;
  const chosenOf = heap.alloc((items + 1) << 2);
  const filters = heap.alloc((items + 1) << 3);
  let chosen: u32 = 0;
  for (let x: usize = 0; x < n; x++) {
    const lo = i32At(gramAt, x);
    const hi = i32At(gramAt, x + 1);
    if (hi == lo) continue;
    let best = <usize>i32At(slots, <usize>lo);
    let filter: u64 = 0;
    for (let j = lo; j < hi; j++) {
      const slot = <usize>i32At(slots, <usize>j);
      if (abs<i32>(i32At(counts, slot)) < abs<i32>(i32At(counts, best))) best = slot;
      filter |= <u64>1 << <u64>((load<u32>(keys + (slot << 2)) * GRAM_FILTER_HASH) >>> 26);
    }
    const c = i32At(counts, best);
    if (c > 0) {
      setI32(counts, best, -c);
      chosen++;
    }
    const m = entries - gramFirst;
    store<u32>(chosenOf + (m << 2), load<u32>(keys + (best << 2)));
    store<u64>(filters + (m << 3), filter);
    setI32(order, entries++, <i32>x);
  }
  heap.free(slots);
  heap.free(gramAt);
  heap.free(counts);
  heap.free(keys);
  let gramBits: i32 = 0;
  if (items > 0) {
    gramBits = 4;
    while ((<u32>1 << gramBits) < 2 * chosen) gramBits++;
  }
  lastTried = shared + longest + (items > 0 ? (<u32>items + chosen - 1) / chosen + 1 : 0);

  // The block (layout.ts RM_*, RE_*, G_*, GE_*).
  const buckets: usize = items > 0 ? <usize>1 << gramBits : 0;
  const signaturesAt: usize = <usize>RM_HEADER + n * <usize>RE_SIZE;
  const gramsAt: usize = signaturesAt + (n << 2);
  const seenWords = (items + 31) >> 5;
  const startAt: usize = gramsAt + (buckets > 0 ? <usize>G_HEADER : 0);
  const seenAt: usize = startAt + (buckets > 0 ? (buckets + 1) << 2 : 0);
  const filtersAt: usize = (seenAt + (seenWords << 2) + 7) & ~(<usize>7);
  const entriesAt: usize = filtersAt + (items << 3);
  const tokensAt: usize = entriesAt + items * <usize>GE_SIZE;
  const octets: usize = tokensAt + tokenCount + <usize>RE_TOKEN_SLACK;
  const block = alloc(octets);
  memory.fill(block, 0, tokensAt);
  memory.fill(block + tokensAt + tokenCount, 0, RE_TOKEN_SLACK);
  store<u32>(block, <u32>n, RM_COUNT);
  store<usize>(block, block + signaturesAt, RM_SIGNATURES);
  for (let en: usize = 0; en < n; en++) {
    const x = <usize>i32At(order, en);
    const i = <usize>i32At(rule, x);
    const e = list + RM_HEADER + i * RE_SIZE;
    const to = block + RM_HEADER + en * RE_SIZE;
    const length = load<u32>(e, RE_LENGTH);
    const tokens = block + tokensAt + <usize>i32At(start, x);
    memory.copy(tokens, load<usize>(e, RE_TOKENS), <usize>length);
    store<u32>(to, load<u32>(e, RE_ID), RE_ID);
    store<u32>(to, load<u32>(e, RE_FLAGS) & (RE_ANCHORED | RE_DISALLOW), RE_FLAGS);
    store<usize>(to, tokens, RE_TOKENS);
    store<u32>(to, length, RE_LENGTH);
    store<u32>(block + signaturesAt + (en << 2), en < gramFirst ? load<u32>(facts + i * 12, 8) : 0);
  }
  if (items > 0) {
    const g = block + gramsAt;
    const starts = block + startAt;
    const list_ = block + entriesAt;
    store<u32>(g, <u32>gramBits, G_BITS);
    store<usize>(g, starts, G_START);
    store<usize>(g, list_, G_ENTRIES);
    store<u32>(g, <u32>gramFirst, G_FIRST);
    store<usize>(g, block + seenAt, G_SEEN);
    store<usize>(g, block + filtersAt, G_FILTERS);
    memory.copy(block + filtersAt, filters, items << 3);
    // The entries by bucket (a counting sort, stable: a bucket's in rule order).
    for (let m: usize = 0; m < items; m++) {
      const b = <usize>((load<u32>(chosenOf + (m << 2)) * GRAM_HASH) >>> (32 - gramBits));
      setI32(starts, b + 1, i32At(starts, b + 1) + 1);
    }
    for (let b: usize = 0; b < buckets; b++) setI32(starts, b + 1, i32At(starts, b + 1) + i32At(starts, b));
    const at = heap.alloc(buckets << 2);
    memory.copy(at, starts, buckets << 2);
    for (let m: usize = 0; m < items; m++) {
      const gram = load<u32>(chosenOf + (m << 2));
      const b = <usize>((gram * GRAM_HASH) >>> (32 - gramBits));
      const k = <usize>i32At(at, b);
      setI32(at, b, <i32>k + 1);
      store<u32>(list_ + k * GE_SIZE, gram, GE_GRAM);
      store<u32>(list_ + k * GE_SIZE, <u32>m, GE_RULE);
    }
    heap.free(at);
    store<usize>(block, g, RM_GRAMS);
  }
  heap.free(filters);
  heap.free(chosenOf);
  heap.free(order);
  heap.free(byNode);
  heap.free(first);
  heap.free(start);
  heap.free(rule);
  lastOctets = <u32>octets;
  return block;
}

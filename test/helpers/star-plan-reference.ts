// Rule mode's `*` rules planned in the host: the reference the core's planner
// (assembly/compile/star-plan.ts, the one the library runs) must equal octet for
// octet (test/engine/property.test.ts, through host-references.ts
// ruleModeBlocksInHost). Not used by the library.
//
// Decomposed as Hyperscan does: a rule's literal head is found by the trie of
// heads (its node lists the rule: N_TAILS), and the rule is verified from
// there; the rules of a head that too many share (most often `/`: `/*/a/*/b`)
// are found instead by one 4-octet gram of their segments past the head, in a
// gram index (layout.ts G_*), each with a 64-bit filter of all its grams.
//
// In: the `*` rules in rank order, each with its head's node and octets, and
// the policy's tailRulesMax. Out: a plan (what goes where, and what a URL
// costs: the cost model's estimate), then the list's block in the core.
// Invariant: every `*` rule is in exactly one place, a node's list (rank
// order) or the gram index, so the walk sees each rule it could match.
import type { Core } from '../../src/engine/wasm/core.js';
import {
  G_BITS, G_ENTRIES, G_FILTERS, G_FIRST, G_HEADER, G_SEEN, G_START, GE_GRAM, GE_RULE, GE_SIZE, GRAM_FILTER_HASH, GRAM_HASH,
  RE_FLAGS, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS,
  RM_COUNT, RM_GRAMS, RM_HEADER, RM_INDEX, RM_SIGNATURES, RM_URLS, RM_WORK, RULE_LIST_STAR,
} from '../../src/engine/wasm/layout.js';

/** The octets of a gram. */
const GRAM = 4;

/** The `*` rules that end on one node's list: entries [first, end) of the list, their heads `known` octets. */
export interface TailGroup {
  node: number;
  first: number;
  end: number;
  known: number;
}

export interface StarRulePlan {
  /** Per entry in list order: rule id, RE_FLAGS, its tokens in `tokens`, its signature (0: none). */
  ids: number[];
  flags: number[];
  starts: number[];
  lengths: number[];
  signatures: number[];
  tokens: Uint8Array;
  tokenCount: number;
  /** Nodes of the literal trie whose lists are not empty, in node order. */
  groups: TailGroup[];
  /** The gram index: its rules are the list's entries from gramFirst on (rank order), each
   * with its filter (two u32 in gramFilters); per gram entry its gram and its rule (from
   * gramFirst), sorted by bucket. */
  gramFirst: number;
  gramBits: number;
  grams: number[];
  gramRules: number[];
  gramFilters: number[];
  /** Rules a URL tries at most, about (the cost model's rule mode: src/engine/match/mode-policy.ts). */
  tried: number;
}

/** A `*` rule: its id, RE_FLAGS, its tokens (start, length), the node where its literal head of `known` octets ends. */
export interface StarRule {
  id: number;
  flags: number;
  start: number;
  length: number;
  node: number;
  known: number;
  /** Its signature, when known (the core's: src/engine/compile/literal-heads.ts), else made from its tokens. */
  signature?: number;
}

/** The buckets (octet & 31) of the octets a rule names (RM_SIGNATURES). */
function signature(tokens: Uint8Array, r: StarRule): number {
  let s = 0;
  for (let i = r.start; i < r.start + r.length; i++) if (tokens[i] !== RULE_LIST_STAR) s |= 1 << (tokens[i] & 31);
  return s >>> 0;
}

/**
 * The plan of `*` rules in rank order (their tokens in `tokens`), each with
 * the node of the literal trie where its head ends (the core's
 * buildLiteralHeads gives them). Typed arrays and counting sorts, no maps, as
 * the core's.
 */
export function planOf(rules: StarRule[], tokens: Uint8Array<ArrayBuffer>, tokenCount: number, tailRulesMax: number): StarRulePlan {
  const n = rules.length;
  // The rules by node (a counting sort, stable: each node's in rank order).
  let nodes = 0;
  for (const r of rules) nodes = Math.max(nodes, r.node + 1);
  const first = new Int32Array(nodes + 1);
  for (const r of rules) first[r.node + 1]++;
  for (let q = 0; q < nodes; q++) first[q + 1] += first[q];
  const byNode = new Int32Array(n);
  const fill = first.slice(0, nodes);
  for (let i = 0; i < n; i++) byNode[fill[rules[i].node]++] = i;
  // The grams of the rules of crowded lists (distinct per rule: a hash slot each), and each gram's count over them.
  let room = 0;
  for (const r of rules) if (first[r.node + 1] - first[r.node] > tailRulesMax) room += Math.max(0, r.length - r.known - GRAM + 1);
  const counts = new GramCounts(room);
  const gramAt = new Int32Array(n + 1); // rule i's grams: the slots slots[gramAt[i], gramAt[i + 1])
  const slots = new Int32Array(room);
  let used = 0;
  for (let i = 0; i < n; i++) {
    gramAt[i] = used;
    const r = rules[i];
    if (first[r.node + 1] - first[r.node] <= tailRulesMax) continue;
    const end = r.start + r.length;
    for (let k = r.start + r.known; k + GRAM <= end; k++) {
      const a = tokens[k];
      const b = tokens[k + 1];
      const c = tokens[k + 2];
      const d = tokens[k + 3];
      if (a === RULE_LIST_STAR || b === RULE_LIST_STAR || c === RULE_LIST_STAR || d === RULE_LIST_STAR) continue;
      const slot = counts.add((a | (b << 8) | (c << 16) | (d << 24)) >>> 0, i);
      if (slot >= 0) slots[used++] = slot;
    }
  }
  gramAt[n] = used;

  const plan: StarRulePlan = {
    ids: [], flags: [], starts: [], lengths: [], signatures: [], tokens, tokenCount, groups: [],
    gramFirst: 0, gramBits: 0, grams: [], gramRules: [], gramFilters: [], tried: 0,
  };
  const add = (r: StarRule, signed: boolean) => {
    plan.ids.push(r.id);
    plan.flags.push(r.flags);
    plan.starts.push(r.start);
    plan.lengths.push(r.length);
    plan.signatures.push(signed ? (r.signature ?? signature(tokens, r)) : 0);
    return plan.ids.length - 1;
  };
  const hasGrams = (i: number) => gramAt[i + 1] > gramAt[i];
  let shared = 0; // rules of lists every path meets (heads of an octet or none)
  let longest = 0;
  for (let k = 0; k < n; ) {
    const q = rules[byNode[k]].node;
    const start = plan.ids.length;
    for (; k < first[q + 1]; k++) if (!hasGrams(byNode[k])) add(rules[byNode[k]], true);
    const kept = plan.ids.length - start;
    if (kept === 0) continue;
    const known = rules[byNode[first[q]]].known;
    plan.groups.push({ node: q, first: start, end: plan.ids.length, known });
    if (known <= 1) shared += kept;
    else longest = Math.max(longest, kept);
  }
  // The gram index: each rule (rank order) by its rarest gram, a bucket's entries in rule order.
  plan.gramFirst = plan.ids.length;
  const chosenOf: number[] = [];
  let chosen = 0;
  for (let i = 0; i < n; i++) {
    if (!hasGrams(i)) continue;
    let best = slots[gramAt[i]];
    let lo = 0;
    let hi = 0;
    for (let j = gramAt[i]; j < gramAt[i + 1]; j++) {
      const slot = slots[j];
      if (counts.count(slot) < counts.count(best)) best = slot;
      const bit = Math.imul(counts.gram(slot), GRAM_FILTER_HASH) >>> 26;
      if (bit < 32) lo |= 1 << bit;
      else hi |= 1 << (bit - 32);
    }
    const gram = counts.gram(best);
    if (counts.choose(best)) chosen++;
    plan.gramFilters.push(lo >>> 0, hi >>> 0);
    add(rules[i], false);
    chosenOf.push(gram);
  }
  const items = chosenOf.length;
  if (items > 0) {
    let bits = 4;
    while (1 << bits < 2 * chosen) bits++;
    plan.gramBits = bits;
    const buckets = new Int32Array((1 << bits) + 1);
    const bucket = (g: number) => Math.imul(g, GRAM_HASH) >>> (32 - bits);
    for (const g of chosenOf) buckets[bucket(g) + 1]++;
    for (let b = 0; b < 1 << bits; b++) buckets[b + 1] += buckets[b];
    const order = new Int32Array(items);
    for (let x = 0; x < items; x++) order[buckets[bucket(chosenOf[x])]++] = x;
    for (let k = 0; k < items; k++) {
      plan.grams.push(chosenOf[order[k]]);
      plan.gramRules.push(order[k]);
    }
  }
  plan.tried = shared + longest + (items > 0 ? Math.ceil(items / chosen) + 1 : 0);
  return plan;
}

/** Counts of grams (u32) over rules, an open-addressing hash in typed arrays, by slot; a gram chosen is marked. */
class GramCounts {
  private readonly keys: Uint32Array;
  private readonly counts: Int32Array; // 0: empty; negative: chosen (its count negated)
  private readonly last: Int32Array; // the last rule counted, plus 1
  private readonly mask: number;
  constructor(most: number) {
    let size = 16;
    while (size < 2 * most) size *= 2;
    this.keys = new Uint32Array(size);
    this.counts = new Int32Array(size);
    this.last = new Int32Array(size);
    this.mask = size - 1;
  }
  /** Counts g for rule i, once per rule: its slot, or -1 when rule i had it already. */
  add(g: number, i: number): number {
    let h = Math.imul(g, GRAM_HASH) & this.mask;
    while (this.counts[h] !== 0 && this.keys[h] !== g) h = (h + 1) & this.mask;
    if (this.last[h] === i + 1) return -1;
    this.last[h] = i + 1;
    this.keys[h] = g;
    this.counts[h]++;
    return h;
  }
  gram(slot: number): number {
    return this.keys[slot];
  }
  count(slot: number): number {
    return Math.abs(this.counts[slot]);
  }
  /** Marks the slot's gram chosen; whether it was not yet. */
  choose(slot: number): boolean {
    if (this.counts[slot] < 0) return false;
    this.counts[slot] = -this.counts[slot];
    return true;
  }
}

/** Octets of the plan's list block. */
function listLayout(plan: StarRulePlan) {
  const count = plan.ids.length;
  const signaturesAt = RM_HEADER + count * RE_SIZE;
  const gramsAt = signaturesAt + 4 * count;
  const buckets = plan.grams.length > 0 ? 1 << plan.gramBits : 0;
  const gramRules = buckets > 0 ? count - plan.gramFirst : 0;
  const seenWords = Math.ceil(gramRules / 32);
  const startAt = gramsAt + (buckets > 0 ? G_HEADER : 0);
  const seenAt = startAt + (buckets > 0 ? 4 * (buckets + 1) : 0);
  const filtersAt = (seenAt + 4 * seenWords + 7) & ~7;
  const entriesAt = filtersAt + 8 * gramRules;
  const tokensAt = entriesAt + plan.grams.length * GE_SIZE;
  return { signaturesAt, gramsAt, startAt, seenAt, seenWords, filtersAt, entriesAt, tokensAt, octets: tokensAt + plan.tokenCount + RE_TOKEN_SLACK };
}

/** Writes the plan's list (entries, signatures, the gram index, tokens) as one block; its address and octets. */
export function writeStarRules(core: Core, plan: StarRulePlan): { block: number; octets: number } {
  const count = plan.ids.length;
  const at = listLayout(plan);
  const block = core.alloc(at.octets);
  const { u8, u32 } = core; // (after the allocation: the core's memory may have grown)
  u8.fill(0, block, block + RM_HEADER);
  u32[(block + RM_COUNT) >>> 2] = count;
  u32[(block + RM_SIGNATURES) >>> 2] = block + at.signaturesAt;
  u32[(block + RM_INDEX) >>> 2] = 0;
  u32[(block + RM_WORK) >>> 2] = 0;
  u32[(block + RM_URLS) >>> 2] = 0;
  u8.set(plan.tokens.subarray(0, plan.tokenCount), block + at.tokensAt);
  for (let e = 0; e < count; e++) {
    const x = (block + RM_HEADER + e * RE_SIZE) >>> 2;
    u32[x + RE_ID / 4] = plan.ids[e];
    u32[x + RE_FLAGS / 4] = plan.flags[e]; // (no head bits: rule mode knows its heads from the trie)
    u32[x + RE_TOKENS / 4] = block + at.tokensAt + plan.starts[e];
    u32[x + RE_LENGTH / 4] = plan.lengths[e];
    u32[((block + at.signaturesAt) >>> 2) + e] = plan.signatures[e];
  }
  const n = plan.grams.length;
  if (n > 0) {
    const g = block + at.gramsAt;
    const buckets = 1 << plan.gramBits;
    u32[(g + G_BITS) >>> 2] = plan.gramBits;
    u32[(g + G_START) >>> 2] = block + at.startAt;
    u32[(g + G_ENTRIES) >>> 2] = block + at.entriesAt;
    u32[(g + G_FIRST) >>> 2] = plan.gramFirst;
    u32[(g + G_SEEN) >>> 2] = block + at.seenAt;
    u32.fill(0, (block + at.seenAt) >>> 2, ((block + at.seenAt) >>> 2) + at.seenWords);
    u32[(g + G_FILTERS) >>> 2] = block + at.filtersAt;
    u32.set(plan.gramFilters, (block + at.filtersAt) >>> 2);
    const start = (block + at.startAt) >>> 2;
    u32.fill(0, start, start + buckets + 1);
    for (const gram of plan.grams) u32[start + (Math.imul(gram, GRAM_HASH) >>> (32 - plan.gramBits)) + 1]++;
    for (let b = 0; b < buckets; b++) u32[start + b + 1] += u32[start + b];
    for (let i = 0; i < n; i++) {
      const x = (block + at.entriesAt + i * GE_SIZE) >>> 2;
      u32[x + GE_GRAM / 4] = plan.grams[i];
      u32[x + GE_RULE / 4] = plan.gramRules[i];
    }
    u32[(block + RM_GRAMS) >>> 2] = g;
  }
  return { block, octets: at.octets };
}

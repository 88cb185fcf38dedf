// Rule mode's `*` rules (assembly/rule-mode.ts walks them), decomposed as
// Hyperscan does: a rule's literal head is found by the trie of heads (its
// node lists the rule: N_TAILS), and the rule is verified from there; the rules
// of a head that too many share (most often `/`: `/*/a/*/b`) are found instead
// by one 4-octet gram of their segments past the head, in a gram index
// (layout.ts G_*), each with a 64-bit filter of all its grams.
//
// In: a trie with star fields (trie.ts) and the policy's tailRulesMax. Out: a
// plan (what goes where, and what a URL costs: the cost model's estimate),
// then the list's block in the core. Invariant: every `*` rule of the trie is
// in exactly one place, a node's list (rank order) or the gram index, so the
// walk sees each rule it could match.
import type { Core } from '../wasm/core.js';
import {
  G_BITS, G_ENTRIES, G_FILTERS, G_FIRST, G_HEADER, G_SEEN, G_START, GE_GRAM, GE_RULE, GE_SIZE, GRAM_FILTER_HASH, GRAM_HASH, NO_RULE,
  RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS,
  RM_COUNT, RM_GRAMS, RM_HEADER, RM_INDEX, RM_SIGNATURES, RM_URLS, RM_WORK, RULE_LIST_STAR,
} from '../wasm/layout.js';
import { T_END_ALLOW, T_END_DISALLOW, T_STICKY_DISALLOW, type Trie } from './trie.js';
import { grown } from '../parse/grown.js';

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
  /** Nodes of the trie whose lists are not empty, in node order. */
  groups: TailGroup[];
  /** The gram index: its rules are the list's entries from gramFirst on (rank order), each
   * with its filter (two u32 in gramFilters); per gram entry its gram and its rule (from
   * gramFirst), sorted by bucket. */
  gramFirst: number;
  gramBits: number;
  grams: number[];
  gramRules: number[];
  gramFilters: number[];
  /** Rules a URL tries at most, about (the cost model's rule mode: mode-policy.ts). */
  tried: number;
}

interface StarRule {
  id: number;
  flags: number;
  start: number;
  length: number;
  node: number;
  known: number;
}

/** The `*` rules of t, depth first (their tokens in the returned buffer), each with the node where its literal head ends. */
function starRulesOf(t: Trie): { rules: StarRule[]; tokens: Uint8Array<ArrayBuffer>; tokenCount: number } {
  let path: Uint8Array<ArrayBuffer> = new Uint8Array(256); // (octet tokens, as the list holds them)
  let tokens: Uint8Array<ArrayBuffer> = new Uint8Array(1024);
  let tokenCount = 0;
  const rules: StarRule[] = [];
  const nodes = [0];
  const next = [0];
  const heads = [-1]; // the node where the path's literal head ends, once it has a `*`
  while (nodes.length > 0) {
    const top = nodes.length - 1;
    const q = nodes[top];
    const i = next[top]++;
    const octetsEnd = t.childStart[q + 1] - t.childStart[q];
    let child: number;
    let token: number;
    if (i < octetsEnd) {
      child = t.childNode[t.childStart[q] + i];
      token = t.childTok[t.childStart[q] + i];
    } else if (i === octetsEnd && t.starChild[q] >= 0) {
      child = t.starChild[q];
      token = RULE_LIST_STAR;
    } else {
      nodes.pop();
      next.pop();
      heads.pop();
      continue;
    }
    const depth = top + 1; // the child's path: path[0, depth)
    if (path.length <= depth) path = grown(path, depth + 1, depth);
    path[top] = token;
    nodes.push(child);
    next.push(0);
    const head = heads[top] < 0 && token === RULE_LIST_STAR ? q : heads[top];
    heads.push(head);
    const k = t.term[child];
    if (k < 0 || head < 0) continue;
    for (let f = 0; f < 4; f++) {
      const id = t.terms[k * 4 + f];
      if (id === NO_RULE) continue;
      if (tokens.length < tokenCount + depth) tokens = grown(tokens, 2 * (tokenCount + depth), tokenCount);
      tokens.set(path.subarray(0, depth), tokenCount);
      const flags = (f >= T_END_ALLOW ? RE_ANCHORED : 0) | (f === T_STICKY_DISALLOW || f === T_END_DISALLOW ? RE_DISALLOW : 0);
      let known = 0;
      while (path[known] !== RULE_LIST_STAR) known++;
      rules.push({ id, flags, start: tokenCount, length: depth, node: head, known });
      tokenCount += depth;
    }
  }
  return { rules, tokens, tokenCount };
}

// Rules of t with two `*` or more before literal octets (`/*/a/*/b`, not
// `*.pdf` nor `/a*`): the nearest `*` above their node has another above it
// (a last `*` has no octets after it). Each such `*` keeps its trie nodes
// active along the path, so that where many are met the DFA's states are sets
// of them that few paths share.
export function heavyStarRules(t: Trie): number {
  if (!t.starry) return 0;
  let n = 0;
  for (let q = 0; q < t.size; q++) {
    const k = t.term[q];
    if (k < 0) continue;
    const above = t.starAbove[q];
    if (above < 0 || t.starAbove[above] < 0) continue;
    for (let f = 0; f < 4; f++) if (t.terms[k * 4 + f] !== NO_RULE) n++;
  }
  return n;
}

/** The grams of a rule's segments past its head (no `*` in them), distinct. */
function gramsOf(tokens: Uint8Array, r: StarRule): number[] {
  const out = new Set<number>();
  const end = r.start + r.length;
  for (let i = r.start + r.known; i + GRAM <= end; i++) {
    const a = tokens[i];
    const b = tokens[i + 1];
    const c = tokens[i + 2];
    const d = tokens[i + 3];
    if (a === RULE_LIST_STAR || b === RULE_LIST_STAR || c === RULE_LIST_STAR || d === RULE_LIST_STAR) continue;
    out.add((a | (b << 8) | (c << 16) | (d << 24)) >>> 0);
  }
  return [...out];
}

/** The buckets (octet & 31) of the octets a rule names (RM_SIGNATURES). */
function signature(tokens: Uint8Array, r: StarRule): number {
  let s = 0;
  for (let i = r.start; i < r.start + r.length; i++) if (tokens[i] !== RULE_LIST_STAR) s |= 1 << (tokens[i] & 31);
  return s >>> 0;
}

/** Where each `*` rule of t goes: a list longer than tailRulesMax gives its rules that have a gram to the gram index. */
export function planStarRules(t: Trie, tailRulesMax: number): StarRulePlan {
  const { rules, tokens, tokenCount } = starRulesOf(t);
  const byNode = new Map<number, StarRule[]>();
  for (const r of rules) {
    let list = byNode.get(r.node);
    if (list === undefined) byNode.set(r.node, (list = []));
    list.push(r);
  }
  // The rules of crowded lists, with their grams; each gram's count over them.
  const gramsOfRule = new Map<StarRule, number[]>();
  const counts = new Map<number, number>();
  for (const list of byNode.values()) {
    if (list.length <= tailRulesMax) continue;
    for (const r of list) {
      const grams = gramsOf(tokens, r);
      if (grams.length === 0) continue;
      gramsOfRule.set(r, grams);
      for (const g of grams) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
  }
  const plan: StarRulePlan = {
    ids: [], flags: [], starts: [], lengths: [], signatures: [], tokens, tokenCount, groups: [],
    gramFirst: 0, gramBits: 0, grams: [], gramRules: [], gramFilters: [], tried: 0,
  };
  const add = (r: StarRule, signed: boolean) => {
    plan.ids.push(r.id);
    plan.flags.push(r.flags);
    plan.starts.push(r.start);
    plan.lengths.push(r.length);
    plan.signatures.push(signed ? signature(tokens, r) : 0);
    return plan.ids.length - 1;
  };
  const byRank = (a: StarRule, b: StarRule) => a.id - b.id;
  let shared = 0; // rules of lists every path meets (heads of an octet or none)
  let longest = 0;
  for (const node of [...byNode.keys()].sort((a, b) => a - b)) {
    const kept = byNode.get(node)!.filter((r) => !gramsOfRule.has(r)).sort(byRank);
    if (kept.length === 0) continue;
    const first = plan.ids.length;
    for (const r of kept) add(r, true);
    plan.groups.push({ node, first, end: plan.ids.length, known: kept[0].known });
    if (kept[0].known <= 1) shared += kept.length;
    else longest = Math.max(longest, kept.length);
  }
  // The gram index: each rule by its rarest gram.
  const indexed = [...gramsOfRule.keys()].sort(byRank);
  const chosen = new Set<number>();
  plan.gramFirst = plan.ids.length;
  const items = indexed.map((r) => {
    const grams = gramsOfRule.get(r)!;
    let gram = grams[0];
    for (const g of grams) if (counts.get(g)! < counts.get(gram)!) gram = g;
    chosen.add(gram);
    let lo = 0;
    let hi = 0;
    for (const g of grams) {
      const bit = Math.imul(g, GRAM_FILTER_HASH) >>> 26;
      if (bit < 32) lo |= 1 << bit;
      else hi |= 1 << (bit - 32);
    }
    plan.gramFilters.push(lo >>> 0, hi >>> 0);
    return { gram, rule: add(r, false) - plan.gramFirst };
  });
  if (items.length > 0) {
    let bits = 4;
    while (1 << bits < 2 * chosen.size) bits++;
    plan.gramBits = bits;
    const bucket = (g: number) => Math.imul(g, GRAM_HASH) >>> (32 - bits);
    items.sort((a, b) => bucket(a.gram) - bucket(b.gram) || a.rule - b.rule);
    for (const x of items) {
      plan.grams.push(x.gram);
      plan.gramRules.push(x.rule);
    }
  }
  plan.tried = shared + longest + (items.length > 0 ? Math.ceil(items.length / chosen.size) + 1 : 0);
  return plan;
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

// Rule lists in the core (assembly/rules.ts: rules tried one by one, best
// first), laid out as layout.ts says (RM_*, RE_*):
// - a cold matcher's, all its rules straight from the compiler's tokens, which
//   the list holds instead of the JS side (and gives back when it turns hot);
// - rule mode's, the trie's rules that have a `*`, read back from the trie.
import type { Core } from '../wasm/core.js';
import { ACCEPT, ANCHOR, type ColdList, type RuleTable, RULE_FIELDS, R_ANCHORED, R_DISALLOW, R_FIRST_POSITION } from './rule-table.js';
import {
  NO_RULE, RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_HEAD_MAX, RE_HEAD_SHIFT, RE_ID, RE_LENGTH, RE_OCTET_SET, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS,
  RI_HEADER, RI_HEADS, RH_SIZE, RM_COUNT, RM_HEADER, RM_INDEX, RM_OCTETS, RM_SIGNATURES, RM_URLS, RM_WORK, RULE_LIST_STAR, TOKEN_STAR,
} from '../wasm/layout.js';
import { T_END_ALLOW, T_END_DISALLOW, T_STICKY_DISALLOW, Trie } from './trie.js';
import { grown } from '../parse/grown.js';

/**
 * A cold matcher's rule list, written by the compiler straight from its octet
 * tokens (tokenizeRulesPacked: file order, no terminals; in the core's token
 * area, or staged in `octets`): the tokens, then an entry per rank. f holds
 * the rules' fields in file order (RULE_FIELDS each, and a last row whose
 * first position ends the tokens); rankOf[id] is the file index of rank id.
 * No token array is made on the JS side (takeColdList makes one when the
 * matcher turns hot).
 */
export function writeColdList(core: Core, octets: Uint8Array | null, f: Int32Array, rankOf: Int32Array, count: number): ColdList {
  const tokens = f[count * RULE_FIELDS + R_FIRST_POSITION];
  const signaturesAt = RM_HEADER + count * RE_SIZE;
  const tokensAt = signaturesAt + 4 * count;
  const block = core.alloc(tokensAt + tokens + RE_TOKEN_SLACK);
  if (octets !== null) {
    core.u8.set(octets.subarray(0, tokens), block + tokensAt);
  } else {
    const area = core.compilerBuffers(0, 0, 0).tokens; // (where the tokenizer wrote them)
    core.u8.copyWithin(block + tokensAt, area, area + tokens);
  }
  const { u8, u32 } = core; // (after the allocations: the core's memory may have grown)
  u32[(block + RM_COUNT) >>> 2] = count;
  u32[(block + RM_OCTETS) >>> 2] = 0; // (a cold matcher's rules mostly fail at their first octets: no octet sets)
  u32[(block + RM_SIGNATURES) >>> 2] = block + signaturesAt;
  u32[(block + RM_INDEX) >>> 2] = 0; // (an index and reviews come later, if at all: cold-index.ts, LazyDfa)
  u32[(block + RM_WORK) >>> 2] = 0;
  u32[(block + RM_URLS) >>> 2] = 0;
  for (let id = 0; id < count; id++) {
    const at = rankOf[id] * RULE_FIELDS;
    const first = f[at + R_FIRST_POSITION];
    const length = f[at + RULE_FIELDS + R_FIRST_POSITION] - first;
    const e = (block + RM_HEADER + id * RE_SIZE) >>> 2;
    u32[e + RE_ID / 4] = id;
    const head = literalHead(u8, block + tokensAt + first, length);
    u32[e + RE_FLAGS / 4] = (f[at + R_ANCHORED] ? RE_ANCHORED : 0) | (f[at + R_DISALLOW] ? RE_DISALLOW : 0) | (head << RE_HEAD_SHIFT);
    // A rule whose head the first word does not test (a `*` in its first octets) is tested by the octets it names.
    u32[((block + signaturesAt) >>> 2) + id] = head < RE_HEAD_MAX ? signature(u8, block + tokensAt + first, length) : 0;
    u32[e + RE_TOKENS / 4] = block + tokensAt + first;
    u32[e + RE_LENGTH / 4] = length;
  }
  return { block, tokens };
}

/** The buckets (octet & 31) of the octets that the tokens t[at, at + length) name (RM_SIGNATURES). */
function signature(t: Uint8Array, at: number, length: number): number {
  let s = 0;
  for (let i = at; i < at + length; i++) if (t[i] !== RULE_LIST_STAR) s |= 1 << (t[i] & 31);
  return s >>> 0;
}

/** How many of the tokens t[at, at + length) lead before any `*`, at most RE_HEAD_MAX (RE_FLAGS' head). */
function literalHead(t: Uint8Array, at: number, length: number): number {
  let n = 0;
  while (n < RE_HEAD_MAX && n < length && t[at + n] !== RULE_LIST_STAR) n++;
  return n;
}

// Rules of a cold list of count rules with two `*` or more before literal
// octets ("/*/a/*/b", not "*.pdf" nor "/a*"): what makes an automaton's states
// many (each such `*` keeps trie nodes active along the path).
export function starHeavyRuleCount(core: Core, list: ColdList, count: number): number {
  const { u8, u32 } = core;
  let n = 0;
  for (let id = 0; id < count; id++) {
    const e = (list.block + RM_HEADER + id * RE_SIZE) >>> 2;
    const t = u32[e + RE_TOKENS / 4];
    let literalAfter = false;
    let stars = 0;
    for (let i = t + u32[e + RE_LENGTH / 4] - 1; i >= t && stars < 2; i--) {
      if (u8[i] !== RULE_LIST_STAR) literalAfter = true;
      else if (literalAfter) stars++;
    }
    if (stars >= 2) n++;
  }
  return n;
}

/** Octets of a cold list's index (assembly/cold-index.ts), 0 when it has none. */
export function coldIndexBytes(core: Core, list: ColdList): number {
  const u32 = core.u32;
  const index = u32[(list.block + RM_INDEX) >>> 2];
  return index === 0 ? 0 : RI_HEADER + u32[(index + RI_HEADS) >>> 2] * RH_SIZE + 4 * u32[(list.block + RM_COUNT) >>> 2];
}

/** Frees a cold list's index, if it has one. */
export function freeColdIndex(core: Core, listBlock: number): void {
  const at = (listBlock + RM_INDEX) >>> 2;
  const index = core.u32[at];
  if (index !== 0) core.free(index);
  core.u32[at] = 0;
}

/** Octets of a cold list of count rules. */
export function coldListBytes(count: number, list: ColdList): number {
  return RM_HEADER + count * (RE_SIZE + 4) + list.tokens + RE_TOKEN_SLACK;
}

/** The table's token arrays back from a cold list (file order, terminals
 * again), which is freed (with its index). */
export function takeColdList(core: Core, list: ColdList, table: RuleTable): void {
  const { block } = list;
  const count = table.count;
  const { u8, u32 } = core;
  const entry = (id: number) => (block + RM_HEADER + id * RE_SIZE) >>> 2;
  // File order is the order of the rules' tokens (rules without any tie: either order is right).
  const byPlace = Array.from({ length: count }, (_, id) => id).sort((a, b) => u32[entry(a) + RE_TOKENS / 4] - u32[entry(b) + RE_TOKENS / 4]);
  const n = list.tokens + count;
  const nfa = new ArrayBuffer(n * 6);
  const posRule = new Int32Array(nfa, 0, n);
  const tok = new Uint16Array(nfa, n * 4, n);
  let p = 0;
  for (const id of byPlace) {
    const e = entry(id);
    const from = u32[e + RE_TOKENS / 4];
    const length = u32[e + RE_LENGTH / 4];
    for (let i = from; i < from + length; i++) tok[p++] = u8[i] === RULE_LIST_STAR ? TOKEN_STAR : u8[i];
    tok[p++] = u32[e + RE_FLAGS / 4] & RE_ANCHORED ? ANCHOR : ACCEPT;
    posRule.fill(id, p - length - 1, p);
  }
  table.tok = tok;
  table.posRule = posRule;
  freeColdIndex(core, block);
  core.free(block);
}

/** Rules of a numbered trie (DFS order, star fields) whose pattern has a `*`: what rule mode tries one by one. */
export function starRuleCount(t: Trie): number {
  let n = 0;
  for (let q = 0; q < t.size; q++) {
    const i = t.term[q];
    if (i < 0 || !(t.isStar[q] || t.starAbove[q] >= 0)) continue;
    for (let f = 0; f < 4; f++) if (t.terms[i * 4 + f] !== NO_RULE) n++;
  }
  return n;
}

/** Writes the `*` rules of t as rule mode's list, with each entry's octet set;
 * returns its address and size. t is any trie with star fields. */
export function writeStarRules(core: Core, t: Trie): { block: number; octets: number } {
  // Depth first, the path's tokens on a stack: a terminal below a star is an entry.
  let path: Uint8Array<ArrayBuffer> = new Uint8Array(256); // (octet tokens, as the list holds them)
  let tokens: Uint8Array<ArrayBuffer> = new Uint8Array(1024);
  let tokenCount = 0;
  const ids: number[] = [];
  const flags: number[] = [];
  const starts: number[] = [];
  const lengths: number[] = [];
  const nodes = [0];
  const next = [0];
  const stars = [0];
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
      stars.pop();
      continue;
    }
    const depth = top + 1; // the child's path: path[0, depth)
    if (path.length <= depth) path = grown(path, depth + 1, depth);
    path[top] = token;
    nodes.push(child);
    next.push(0);
    stars.push(stars[top] + (token === RULE_LIST_STAR ? 1 : 0));
    const k = t.term[child];
    if (k < 0 || stars[depth] === 0) continue;
    for (let f = 0; f < 4; f++) {
      const id = t.terms[k * 4 + f];
      if (id === NO_RULE) continue;
      if (tokens.length < tokenCount + depth) tokens = grown(tokens, 2 * (tokenCount + depth), tokenCount);
      tokens.set(path.subarray(0, depth), tokenCount);
      ids.push(id);
      flags.push((f >= T_END_ALLOW ? RE_ANCHORED : 0) | (f === T_STICKY_DISALLOW || f === T_END_DISALLOW ? RE_DISALLOW : 0));
      starts.push(tokenCount);
      lengths.push(depth);
      tokenCount += depth;
    }
  }

  const count = ids.length;
  const order = Array.from({ length: count }, (_, e) => e).sort((a, b) => ids[a] - ids[b]);
  const setsAt = RM_HEADER + count * RE_SIZE;
  const tokensAt = setsAt + count * RE_OCTET_SET;
  const octets = tokensAt + tokenCount + RE_TOKEN_SLACK;
  const block = core.alloc(octets);
  const { u8, u32 } = core;
  u8.fill(0, block, block + tokensAt);
  u32[(block + RM_COUNT) >>> 2] = count;
  u32[(block + RM_OCTETS) >>> 2] = block + setsAt;
  u32[(block + RM_SIGNATURES) >>> 2] = 0; // (the octet sets test more)
  u8.set(tokens.subarray(0, tokenCount), block + tokensAt);
  order.forEach((e, rank) => {
    const at = block + RM_HEADER + rank * RE_SIZE;
    u32[(at + RE_ID) >>> 2] = ids[e];
    u32[(at + RE_FLAGS) >>> 2] = flags[e] | (literalHead(tokens, starts[e], lengths[e]) << RE_HEAD_SHIFT);
    u32[(at + RE_TOKENS) >>> 2] = block + tokensAt + starts[e];
    u32[(at + RE_LENGTH) >>> 2] = lengths[e];
    const named = (block + setsAt + rank * RE_OCTET_SET) >>> 2;
    for (let j = starts[e]; j < starts[e] + lengths[e]; j++) {
      const b = tokens[j];
      if (b !== RULE_LIST_STAR) u32[named + (b >>> 5)] |= 1 << (b & 31);
    }
  });
  return { block, octets };
}


// A cold matcher's rule list in the core (assembly/match/rules.ts: rules tried one
// by one, best first), laid out as layout.ts says (RM_*, RE_*): all its rules
// straight from the compiler's tokens, which the list holds instead of the JS
// side (and gives back when it turns hot). Rule mode's list of `*` rules is
// star-rules.ts's. Most cold lists are written by the core itself, the same way
// (assembly/compile/cold-list.ts compileColdRules); writeColdList writes the others.
import type { Core } from '../wasm/core.js';
import { ACCEPT, ANCHOR, type ColdList, ColdListBlock, CompiledRuleTable, KIND_DISALLOW, type RuleTable, RULE_FIELDS, R_ANCHORED, R_DISALLOW, R_FIRST_POSITION } from './rule-table.js';
import {
  H_POSITIVE, HEADER_SIZE, RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_HEAD_MAX, RE_HEAD_SHIFT, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS,
  RI_HEADER, RI_HEADS, RH_SIZE, RM_COUNT, RM_GRAMS, RM_OCTETS, RM_HEADER, RM_INDEX, RM_SIGNATURES, RM_URLS, RM_WORK, RULE_LIST_STAR, TOKEN_STAR,
} from '../wasm/layout.js';

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
  u32[(block + RM_OCTETS) >>> 2] = tokens; // (all its rules' tokens: the core's compiler shares most with the values)
  u32[(block + RM_GRAMS) >>> 2] = 0; // (rule mode's)
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
  return new ColdListBlock(block, tokens);
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

/** Octets of the index (assembly/match/cold-index.ts) of the cold list at `list`, 0 when it has none. */
export function coldIndexBytes(core: Core, list: number): number {
  const u32 = core.u32;
  const index = u32[(list + RM_INDEX) >>> 2];
  return index === 0 ? 0 : RI_HEADER + u32[(index + RI_HEADS) >>> 2] * RH_SIZE + 4 * u32[(list + RM_COUNT) >>> 2];
}

/** Frees a cold list's index, if it has one. */
export function freeColdIndex(core: Core, listBlock: number): void {
  const at = (listBlock + RM_INDEX) >>> 2;
  const index = core.u32[at];
  if (index !== 0) core.free(index);
  core.u32[at] = 0;
}

/** Octets of the cold list at `list`, of count rules (the tokens it holds: RM_OCTETS). */
export function coldListBytes(core: Core, count: number, list: number): number {
  return RM_HEADER + count * (RE_SIZE + 4) + core.u32[(list + RM_OCTETS) >>> 2] + RE_TOKEN_SLACK;
}

/** The rule table of the matcher whose block is at `header`, its count rules' token arrays back
 * from its cold list at `block` (file order, terminals again), which is freed (with its index);
 * `tokens`: the list's tokens in all (COLD_COMPILE_TOKENS). */
export function takeColdList(core: Core, header: number, count: number, block: number, tokens: number): RuleTable {
  const { u8, u32 } = core;
  const entry = (id: number) => (block + RM_HEADER + id * RE_SIZE) >>> 2;
  // File order (rules without any tie: either order is right) is the order of their lines (the
  // table's block, by id), then of their tokens (a rule and Google's index.htm companion share a
  // line; the list holds both's tokens, in file order). Most rules' tokens are in the values (by rank).
  const lines = (header + HEADER_SIZE) >>> 2;
  const byPlace = Array.from({ length: count }, (_, id) => id).sort((a, b) => u32[lines + a] - u32[lines + b] || u32[entry(a) + RE_TOKENS / 4] - u32[entry(b) + RE_TOKENS / 4]);
  const n = tokens + count;
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
  freeColdIndex(core, block);
  core.free(block);
  const valueOctets = count === 0 ? 0 : u32[lines + 2 * count - 1] & ~KIND_DISALLOW; // (the last value's end)
  return new CompiledRuleTable(count, header, valueOctets, u32[(header + H_POSITIVE) >>> 2], tok, posRule, null);
}

// A cold matcher's rule list in the core (assembly/match/rules.ts: rules tried one
// by one, best first), laid out as layout.ts says (RM_*, RE_*): all its rules'
// tokens, which the list holds instead of the JS side (and gives back when it
// turns hot: takeColdList). The core writes every cold list
// (assembly/compile/cold-list.ts compileColdRules); here, what the host reads of
// one: its octets and its index's, and the table it gives back. Rule mode's list
// of `*` rules is the core's too (assembly/compile/star-plan.ts).
import type { Core } from '../wasm/core.js';
import { ACCEPT, ANCHOR, CompiledRuleTable, KIND_DISALLOW, type RuleTable } from './rule-table.js';
import {
  H_POSITIVE, HEADER_SIZE, RE_ANCHORED, RE_FLAGS, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS,
  RI_HEADER, RI_HEADS, RH_SIZE, RM_COUNT, RM_OCTETS, RM_HEADER, RM_INDEX, RULE_LIST_STAR, TOKEN_STAR,
} from '../wasm/layout.js';

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

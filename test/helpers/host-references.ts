// Host-side references for what the core now does itself (the property tests
// check the core against them): rule mode's plan of `*` rules, the count of
// star-heavy rules the cost model asks for, and a cold list's entries. Not used
// by the library.
import type { Core } from '../../src/engine/wasm/core.js';
import { ACCEPT, type ColdList, type RuleTable, ruleKinds } from '../../src/engine/compile/rule-table.js';
import { STAR } from '../../src/engine/parse/pattern.js';
import { literalOctets } from '../../src/engine/compile/literal-heads.js';
import { planOf, type StarRule, type StarRulePlan } from './star-plan-reference.js';
import {
  N_TAILS, N_TERM, NT_END, NT_FIRST, NT_KNOWN, NT_SIZE,
  RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_HEAD_MAX, RE_HEAD_SHIFT, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKENS, RM_COUNT, RM_HEADER, RM_SIGNATURES, RULE_LIST_STAR,
} from '../../src/engine/wasm/layout.js';

/**
 * ruleModeBlocks (src/engine/compile/literal-heads.ts) as the host did it before the core
 * planned the `*` rules (star-plan-reference.ts planOf): the reference the
 * core's plan (assembly/compile/star-plan.ts) must equal, octet for octet.
 */
export function ruleModeBlocksInHost(core: Core, list: number, count: number, tailRulesMax: number): { literal: { block: number; octets: number }; plan: StarRulePlan } {
  const nodesAt = core.alloc(12 * count + 4);
  const block = core.exports.buildLiteralHeads(list, count, nodesAt);
  if (core.u8.length === 0) core.refresh(); // (the core's memory grew)
  const { u8, u32, i32 } = core;
  // The `*` rules, their tokens copied out (the list may be freed before the plan is written).
  const rules: StarRule[] = [];
  let tokens = new Uint8Array(1024);
  let tokenCount = 0;
  const facts = nodesAt >>> 2;
  for (let i = 0; i < count; i++) {
    const node = i32[facts + 3 * i];
    if (node < 0) continue; // (no `*`: a terminal's)
    const e = (list + RM_HEADER + i * RE_SIZE) >>> 2;
    const t = u32[e + RE_TOKENS / 4];
    const length = u32[e + RE_LENGTH / 4];
    if (tokens.length < tokenCount + length) {
      const bigger = new Uint8Array(2 * (tokenCount + length));
      bigger.set(tokens.subarray(0, tokenCount));
      tokens = bigger;
    }
    tokens.set(u8.subarray(t, t + length), tokenCount); // (natively: this runs once, unoptimised)
    const flags = u32[e + RE_FLAGS / 4] & (RE_ANCHORED | RE_DISALLOW);
    rules.push({ id: u32[e + RE_ID / 4], flags, start: tokenCount, length, node, known: i32[facts + 3 * i + 1], signature: u32[facts + 3 * i + 2] });
    tokenCount += length;
  }
  core.free(nodesAt);
  const plan = planOf(rules, tokens, tokenCount, tailRulesMax);
  // Each list at its node's terminal (the core gave every head one).
  const term = u32[(block + N_TERM) >>> 2] >>> 2;
  const tails = u32[(block + N_TAILS) >>> 2];
  for (const g of plan.groups) {
    const x = (tails + NT_SIZE * i32[term + g.node]) >>> 2;
    u32[x + NT_FIRST / 4] = g.first;
    u32[x + NT_END / 4] = g.end;
    u32[x + NT_KNOWN / 4] = g.known;
  }
  if (plan.groups.length === 0) u32[(block + N_TAILS) >>> 2] = 0;
  return { literal: { block, octets: literalOctets(core, block) }, plan };
}

// The reference for the core's count (literal-heads.ts starHeavyCounts), as the host
// counted before: rules of a cold list of count rules with two `*` or more before literal
// octets ("/*/a/*/b", not "*.pdf" nor "/a*"): what makes an automaton's states
// many (each such `*` keeps trie nodes active along the path). `plain`: those
// that rule mode would try one by one, with no run of 4 literal octets past
// their first `*`; `gram`: the others (its gram index finds them: star-plan-reference.ts).
export function starHeavyRuleCounts(core: Core, list: ColdList, count: number): { plain: number; gram: number } {
  const { u8, u32 } = core;
  let plain = 0;
  let grams = 0;
  for (let id = 0; id < count; id++) {
    const e = (list.block + RM_HEADER + id * RE_SIZE) >>> 2;
    const t = u32[e + RE_TOKENS / 4];
    const end = t + u32[e + RE_LENGTH / 4];
    let stars = 0; // `*` with literal octets after them
    let star = false; // a `*` before, none counted since
    let run = 0; // literal octets in a row past the first `*`
    let gram = false;
    for (let i = t; i < end; i++) {
      if (u8[i] === RULE_LIST_STAR) {
        star = true;
        run = 0;
        continue;
      }
      if (star) {
        stars++;
        star = false;
      }
      if (stars > 0 && ++run >= 4) gram = true;
    }
    if (stars >= 2 && gram) grams++;
    else if (stars >= 2) plain++;
  }
  return { plain, gram: grams };
}

/** A cold list's entry: its RE_FLAGS (head bits too), its signature (RM_SIGNATURES), its tokens. */
export interface ColdEntry {
  flags: number;
  signature: number;
  tokens: string;
}

/**
 * The cold list of a hot table's rules, entry by id (rank), as the host wrote cold lists
 * before the core compiled them all (compile.ts's ranking and Google's index.htm
 * companions, the core's tokenizer): the reference the core's cold list
 * (assembly/compile/cold-list.ts) must equal. A rule's head is its octets before any
 * `*`, at most RE_HEAD_MAX; one whose head that leaves short of RE_HEAD_MAX is
 * tested by the buckets (octet & 31) of the octets it names.
 */
export function coldEntriesOf(table: RuleTable): ColdEntry[] {
  const kinds = ruleKinds(table);
  const entries: ColdEntry[] = [];
  let octets: number[] = [];
  for (let p = 0; p < table.tok.length; p++) {
    const t = table.tok[p];
    if (t < ACCEPT) {
      octets.push(t === STAR ? RULE_LIST_STAR : t);
      continue;
    }
    const id = table.posRule[p];
    let head = 0;
    while (head < RE_HEAD_MAX && head < octets.length && octets[head] !== RULE_LIST_STAR) head++;
    let signature = 0;
    if (head < RE_HEAD_MAX) for (const o of octets) if (o !== RULE_LIST_STAR) signature |= 1 << (o & 31);
    const flags = (t === ACCEPT ? 0 : RE_ANCHORED) | (kinds[id] ? RE_DISALLOW : 0) | (head << RE_HEAD_SHIFT);
    entries[id] = { flags, signature: signature >>> 0, tokens: octets.join(',') };
    octets = [];
  }
  return entries;
}

/** The entries of the cold list at `list` in the core, by id (as coldEntriesOf gives them). */
export function coldEntriesAt(core: Core, list: number): ColdEntry[] {
  const { u8, u32 } = core;
  const signatures = u32[(list + RM_SIGNATURES) >>> 2];
  return Array.from({ length: u32[(list + RM_COUNT) >>> 2] }, (_, id) => {
    const e = (list + RM_HEADER + id * RE_SIZE) >>> 2;
    const t = u32[e + RE_TOKENS / 4];
    if (u32[e + RE_ID / 4] !== id) throw new Error(`entry ${id} holds rule ${u32[e + RE_ID / 4]}`);
    return { flags: u32[e + RE_FLAGS / 4], signature: u32[(signatures >>> 2) + id], tokens: [...u8.subarray(t, t + u32[e + RE_LENGTH / 4])].join(',') };
  });
}

// Rule mode made straight from a matcher's rules, for a matcher that takes it
// on turning hot (src/engine/match/dfa.ts: its automaton would thrash): the
// trie of the rules' literal heads (assembly/compile/literal-trie.ts makes it in the
// core, and walks it) and the plan of its `*` rules (assembly/compile/star-plan.ts
// makes and writes it in the core: the only planner of `*` rules), from a rule
// list in the core: the cold list, one written from the table, or one written
// from a hot matcher's trie (trie-rule-list.ts).
//
// Made so, without the trie of pattern prefixes (trie.ts: its hash, its
// depth-first numbering, its frontiers, none of which rule mode needs) nor the
// automaton's first state, rule mode costs a small part of what the trie did
// (the figures: docs/benchmarks.md, "Figures behind design choices").
//
// In: a rule list (layout.ts RM_HEADER, then RE_* entries, tokens as octets
// with RULE_LIST_STAR for `*`), its count, the policy's tailRulesMax. Out: the
// literal trie's block (N_*, its tails written) and the `*` rules' block, for
// matcher-block.ts writeRuleMode. Invariant: every rule is in exactly one
// place: a terminal of the trie (no `*`), or the plan (a node's list or the
// gram index).
import type { Core } from '../wasm/core.js';
import { ACCEPT, type RuleTable, ruleKinds } from './rule-table.js';
import { STAR } from '../parse/pattern.js';
import {
  N_CHILD_NODE, N_CHILD_START, N_CHILD_TOK,
  RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS, RM_HEADER, RULE_LIST_STAR,
} from '../wasm/layout.js';

// Rules of the table with two `*` or more before literal octets (`/*/a/*/b`,
// not `*.pdf` nor `/a*`): each such `*` keeps its trie nodes active along the
// path, so that where many are met the DFA's states are sets of them that few
// paths share (mode-policy.ts starShare).
export function heavyStarRulesOf(table: RuleTable): number {
  const tok = table.tok;
  let n = 0;
  let stars = 0;
  for (let p = 0; p < tok.length; p++) {
    const t = tok[p];
    if (t === STAR) stars++;
    else if (t >= ACCEPT) {
      if (stars >= 2) n++; // (a pattern never ends with `*`: each has octets after it)
      stars = 0;
    }
  }
  return n;
}

/** The list's rules with two `*` or more before literal octets (the core counts them): `plain`, those
 * rule mode would try one by one (no run of 4 literal octets past their first `*`); `gram`, the others. */
export function starHeavyCounts(core: Core, list: number, count: number): { plain: number; gram: number } {
  const plain = core.exports.starHeavyRules(list, count);
  return { plain, gram: core.exports.lastGramHeavyRules() };
}

/** A rule list of the table's rules in the core (entries by id, as a cold list's; their RE_ID,
 * RE_FLAGS, RE_TOKENS, RE_LENGTH only, for ruleModeBlocks): its block, the caller's to free. */
export function ruleListOf(core: Core, table: RuleTable): number {
  const { tok, posRule, count } = table;
  const kinds = ruleKinds(table);
  const tokensAt = RM_HEADER + count * RE_SIZE;
  const block = core.alloc(tokensAt + tok.length - count + RE_TOKEN_SLACK);
  const { u8, u32 } = core; // (after the allocation: the core's memory may have grown)
  let from = 0;
  let at = block + tokensAt;
  for (let p = 0; p < tok.length; p++) {
    const t = tok[p];
    if (t < ACCEPT) {
      u8[at++] = t === STAR ? RULE_LIST_STAR : t;
      continue;
    }
    const id = posRule[p];
    const e = (block + RM_HEADER + id * RE_SIZE) >>> 2;
    u32[e + RE_ID / 4] = id;
    u32[e + RE_FLAGS / 4] = (t === ACCEPT ? 0 : RE_ANCHORED) | (kinds[id] ? RE_DISALLOW : 0);
    u32[e + RE_TOKENS / 4] = at - (p - from);
    u32[e + RE_LENGTH / 4] = p - from;
    from = p + 1;
  }
  u8.fill(0, at, at + RE_TOKEN_SLACK);
  return block;
}

/** Rule mode's two blocks in the core (each the caller's, or its matcher's, to free), and what a URL costs in it. */
export interface RuleModeBlocks {
  /** The trie of literal heads (N_*), its tails listing the `*` rules. */
  literal: { block: number; octets: number };
  /** The `*` rules (RM_*, RE_* entries, signatures, the gram index). */
  star: { block: number; octets: number };
  /** Rules a URL tries at most, about (the cost model's rule mode: mode-policy.ts). */
  tried: number;
}

/**
 * Rule mode's trie of literal heads for the `count` rules of the list (entries by rank),
 * with the `*` rules planned and written by the core (assembly/compile/star-plan.ts)
 * and listed at their heads' terminals (N_TAILS). The list is left as it is.
 */
export function ruleModeBlocks(core: Core, list: number, count: number, tailRulesMax: number): RuleModeBlocks {
  const nodesAt = core.alloc(12 * count + 4);
  const block = core.exports.buildLiteralHeads(list, count, nodesAt);
  const star = core.exports.planStarRuleList(list, count, nodesAt, tailRulesMax, block);
  core.free(nodesAt);
  if (core.u8.length === 0) core.refresh(); // (the core's memory grew)
  return {
    literal: { block, octets: literalOctets(core, block) },
    star: { block: star, octets: core.exports.lastStarPlanOctets() },
    tried: core.exports.lastStarPlanTried(),
  };
}

/** Frees rule mode's blocks that no matcher took. */
export function freeRuleModeBlocks(core: Core, blocks: RuleModeBlocks): void {
  core.free(blocks.literal.block);
  core.free(blocks.star.block);
}

/** The literal trie block's octets, from its layout (N_CHILD_START first, the octets of N_CHILD_TOK last). */
export function literalOctets(core: Core, block: number): number {
  const u32 = core.u32;
  const childStart = u32[(block + N_CHILD_START) >>> 2];
  const size = (u32[(block + N_CHILD_NODE) >>> 2] - childStart) / 4 - 1;
  return u32[(block + N_CHILD_TOK) >>> 2] + size - 1 - block;
}

// A hot matcher's rules written back as a rule list in the core, for rule mode
// (src/engine/match/dfa.ts, when its automaton thrashes): its table's tokens
// were dropped once the trie held them, so the trie's paths are its rules. The
// core then makes rule mode from the list as from any other
// (literal-heads.ts ruleModeBlocks: the literal trie, and the plan of `*` rules
// of assembly/compile/star-plan.ts), so that there is one planner.
//
// In: the trie (trie.ts). Out: rule mode's blocks, made from a rule list
// (layout.ts RM_HEADER, then RE_* entries in rank order, tokens as octets with
// RULE_LIST_STAR for `*`) freed once read. Invariant: each rule the trie keeps
// (the best of each kind at a node: a pattern written twice keeps one) is one
// entry, its tokens the node's path.
import type { Core } from '../wasm/core.js';
import { NO_RULE, RE_ANCHORED, RE_DISALLOW, RE_FLAGS, RE_ID, RE_LENGTH, RE_SIZE, RE_TOKEN_SLACK, RE_TOKENS, RM_HEADER, RULE_LIST_STAR } from '../wasm/layout.js';
import { T_END_ALLOW, T_END_DISALLOW, T_STICKY_DISALLOW, type Trie } from './trie.js';
import { grown } from '../parse/grown.js';
import { ruleModeBlocks, type RuleModeBlocks } from './literal-heads.js';

/** Rule mode's blocks for the trie's rules, made by the core (its list freed once read). */
export function ruleModeBlocksOfTrie(core: Core, t: Trie, tailRulesMax: number): RuleModeBlocks {
  const { list, count } = ruleListOfTrie(core, t);
  const blocks = ruleModeBlocks(core, list, count, tailRulesMax);
  core.free(list);
  return blocks;
}

/** The trie's rules as a rule list in the core (entries by rank): its block and count. */
function ruleListOfTrie(core: Core, t: Trie): { list: number; count: number } {
  let path: Uint8Array<ArrayBuffer> = new Uint8Array(256);
  let tokens: Uint8Array<ArrayBuffer> = new Uint8Array(1024);
  let tokenCount = 0;
  const ids: number[] = [];
  const flags: number[] = [];
  const starts: number[] = [];
  const lengths: number[] = [];
  const add = (q: number, depth: number) => {
    const k = t.term[q];
    if (k < 0) return;
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
  };
  // Depth first, with a stack: a node's octet children, then its `*` child.
  add(0, 0);
  const nodes = [0];
  const next = [0];
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
      continue;
    }
    const depth = top + 1; // (the child's path: path[0, depth))
    if (path.length <= depth) path = grown(path, 2 * depth, depth);
    path[top] = token;
    nodes.push(child);
    next.push(0);
    add(child, depth);
  }
  // The entries by rank (ids are ranks).
  const count = ids.length;
  const order = Array.from({ length: count }, (_, e) => e).sort((a, b) => ids[a] - ids[b]);
  const tokensAt = RM_HEADER + count * RE_SIZE;
  const list = core.alloc(tokensAt + tokenCount + RE_TOKEN_SLACK);
  const { u8, u32 } = core; // (after the allocation: the core's memory may have grown)
  u8.fill(0, list, list + RM_HEADER);
  u8.set(tokens.subarray(0, tokenCount), list + tokensAt);
  u8.fill(0, list + tokensAt + tokenCount, list + tokensAt + tokenCount + RE_TOKEN_SLACK);
  for (let e = 0; e < count; e++) {
    const r = order[e];
    const x = (list + RM_HEADER + e * RE_SIZE) >>> 2;
    u32[x + RE_ID / 4] = ids[r];
    u32[x + RE_FLAGS / 4] = flags[r];
    u32[x + RE_TOKENS / 4] = list + tokensAt + starts[r];
    u32[x + RE_LENGTH / 4] = lengths[r];
  }
  return { list, count };
}

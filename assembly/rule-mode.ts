// Rule mode: a matcher whose DFA thrashed (src/engine/match/dfa.ts decides)
// walks its rules decomposed, Hyperscan's way: literals are found by one
// automaton, each candidate's `*` tail is verified.
// - The trie of the rules' literal heads (literal-trie.ts): the rules without
//   `*` are decided by the walk itself, one step per octet whatever their
//   number; the nodes it passes where `*` rules' heads end list those rules.
// - Those rules are verified best first (ids are ranks), only those that rank
//   above the best match so far, from the octet after their head (matches()).
// - Rules whose head too many share (most often `/`: `/*/a/*/b`) are in the
//   gram index instead (layout.ts G_*): one pass over the path's 4-octet grams
//   finds the rules one of whose grams it holds; a rule is verified only if the
//   path also holds, by a 64-bit filter, every gram of its segments.
// The DFA thrashes on such files because each such `*` keeps its trie nodes
// active along the path (states are sets of them, few met twice); here they
// cost nothing until their literals are met.
import {
  H_LITERAL_TRIE, H_RULES, H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE,
  RM_HEADER, RM_SIGNATURES, RM_GRAMS, RE_ID, RE_FLAGS, RE_TOKENS, RE_LENGTH, RE_SIZE, RE_ANCHORED, RE_DISALLOW,
  N_TAILS, NT_FIRST, NT_END, NT_KNOWN, NT_SIZE,
  G_BITS, G_START, G_ENTRIES, GE_GRAM, GE_ENTRY, GE_FILTER, GE_SIZE, GRAM_HASH, GRAM_FILTER_HASH,
} from "../src/engine/wasm/layout";
import { walkLiteralTrie } from "./literal-trie";
import { bucketsOf, matches } from "./rules";

// The terminals with `*` rules a walk passed (walkLiteralTrie writes them):
// room for the longest path seen, never per call.
let met: usize = 0;
let metRoom: i32 = 0;

function metFor(n: i32): usize {
  if (n + 1 > metRoom) {
    if (met != 0) heap.free(met);
    metRoom = n + 1 + ((n + 1) >> 1) + 16;
    met = heap.alloc(<usize>metRoom << 2);
  }
  return met;
}

/** Decides p[0, n) for matcher m in rule mode, storing the best allow and
 * disallow rule ids in its header (H_OUT_*). */
export function walkRuleMode(m: usize, p: usize, n: i32): void {
  const trie = load<usize>(m, H_LITERAL_TRIE);
  const list = load<usize>(m, H_RULES);
  const found = metFor(n);
  const count = walkLiteralTrie(m, trie, p, n, found);
  let allow = load<u32>(m, H_OUT_ALLOW);
  let disallow = load<u32>(m, H_OUT_DISALLOW);
  let best = allow < disallow ? allow : disallow;
  let bestDisallow = disallow < allow;
  const signatures = load<usize>(list, RM_SIGNATURES);
  let pathBuckets: u32 = 0;
  let bucketed = false;
  // The `*` rules whose heads the path starts with.
  if (count != 0) {
    const tails = load<usize>(trie, N_TAILS);
    for (let c = 0; c < count; c++) {
      const tail = tails + <usize>load<u32>(found + (<usize>c << 2)) * NT_SIZE;
      const known = load<i32>(tail, NT_KNOWN);
      const end = load<u32>(tail, NT_END);
      for (let j = load<u32>(tail, NT_FIRST); j < end; j++) {
        const e = list + RM_HEADER + <usize>j * RE_SIZE;
        const id = load<u32>(e, RE_ID);
        if (id >= best) break; // (the node's rules in rank order: the rest rank below)
        const named = load<u32>(signatures + (<usize>j << 2));
        if (named != 0) {
          if (!bucketed) {
            pathBuckets = bucketsOf(p, n);
            bucketed = true;
          }
          if ((named & ~pathBuckets) != 0) continue; // it names an octet the path lacks
        }
        const flags = load<u32>(e, RE_FLAGS);
        if (!matches(p, n, load<usize>(e, RE_TOKENS), load<i32>(e, RE_LENGTH), (flags & RE_ANCHORED) != 0, known)) continue;
        best = id;
        bestDisallow = (flags & RE_DISALLOW) != 0;
        break;
      }
    }
  }
  const grams = load<usize>(list, RM_GRAMS);
  if (grams != 0 && n >= 4) {
    gramDisallow = bestDisallow;
    best = walkGrams(list, grams, p, n, best);
    bestDisallow = gramDisallow;
  }
  if (best != NO_RULE) {
    if (bestDisallow) disallow = best;
    else allow = best;
  }
  store<u32>(m, allow, H_OUT_ALLOW);
  store<u32>(m, disallow, H_OUT_DISALLOW);
}

/** Whether walkGrams' best is a disallow (its own when it found one). */
let gramDisallow = false;

/** The gram index's rules that match p[0, n) and rank above `best`: returns
 * the best of them, or `best` when none (gramDisallow says its kind). */
function walkGrams(list: usize, grams: usize, p: usize, n: i32, best: u32): u32 {
  // The path's 4-grams as a 64-bit filter.
  const last = n - 4;
  let filter: u64 = 0;
  for (let i = 0; i <= last; i++) filter |= <u64>1 << <u64>((load<u32>(p + <usize>i) * GRAM_FILTER_HASH) >>> 26);
  const shift = 32 - load<u32>(grams, G_BITS);
  const start = load<usize>(grams, G_START);
  const entries = load<usize>(grams, G_ENTRIES);
  for (let i = 0; i <= last; i++) {
    const g = load<u32>(p + <usize>i);
    const b = <usize>((g * GRAM_HASH) >>> shift);
    const end = load<u32>(start + (b << 2), 4);
    for (let j = load<u32>(start + (b << 2)); j < end; j++) {
      const x = entries + <usize>j * GE_SIZE;
      if (load<u32>(x, GE_GRAM) != g || (load<u64>(x, GE_FILTER) & ~filter) != 0) continue;
      const e = list + RM_HEADER + <usize>load<u32>(x, GE_ENTRY) * RE_SIZE;
      const id = load<u32>(e, RE_ID);
      if (id >= best) continue;
      const flags = load<u32>(e, RE_FLAGS);
      if (!matches(p, n, load<usize>(e, RE_TOKENS), load<i32>(e, RE_LENGTH), (flags & RE_ANCHORED) != 0, 0)) continue;
      best = id;
      gramDisallow = (flags & RE_DISALLOW) != 0;
    }
  }
  return best;
}

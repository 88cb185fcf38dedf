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
  G_BITS, G_START, G_ENTRIES, G_FIRST, G_SEEN, G_FILTERS, GE_GRAM, GE_RULE, GE_SIZE, GRAM_HASH, GRAM_FILTER_HASH, RULE_LIST_STAR,
} from "../../src/engine/wasm/layout";
import { walkLiteralTrie } from "../compile/literal-trie";
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
 * the best of them, or `best` when none (gramDisallow says its kind). The
 * rules whose gram the path holds, and all of whose grams it holds by its
 * filter, are marked, then verified best first (the marks are in rank order)
 * until one matches: most that pass the filter do, so few are verified. */
function walkGrams(list: usize, grams: usize, p: usize, n: i32, best: u32): u32 {
  const last = n - 4;
  let filter: u64 = 0; // the path's 4-grams
  for (let i = 0; i <= last; i++) filter |= <u64>1 << <u64>((load<u32>(p + <usize>i) * GRAM_FILTER_HASH) >>> 26);
  const shift = 32 - load<u32>(grams, G_BITS);
  const start = load<usize>(grams, G_START);
  const entries = load<usize>(grams, G_ENTRIES);
  const filters = load<usize>(grams, G_FILTERS);
  const seen = load<usize>(grams, G_SEEN);
  let lo: u32 = <u32>-1; // the marked words
  let hi: u32 = 0;
  for (let i = 0; i <= last; i++) {
    const g = load<u32>(p + <usize>i);
    const b = <usize>((g * GRAM_HASH) >>> shift);
    const end = load<u32>(start + (b << 2), 4);
    for (let j = load<u32>(start + (b << 2)); j < end; j++) {
      const x = entries + <usize>j * GE_SIZE;
      if (load<u32>(x, GE_GRAM) != g) continue;
      const r = load<u32>(x, GE_RULE);
      if ((load<u64>(filters + (<usize>r << 3)) & ~filter) != 0) continue; // a gram of it the path lacks
      const w = r >> 5;
      const at = seen + (<usize>w << 2);
      store<u32>(at, load<u32>(at) | (<u32>1 << (r & 31)));
      if (w < lo) lo = w;
      if (w > hi) hi = w;
    }
  }
  if (lo > hi) return best;
  const first = load<u32>(grams, G_FIRST);
  let done = false;
  let w = lo;
  for (; w <= hi; w++) {
    const at = seen + (<usize>w << 2);
    let bits = load<u32>(at);
    store<u32>(at, 0);
    while (bits != 0) {
      const r = (w << 5) + <u32>ctz(bits);
      bits &= bits - 1;
      const e = list + RM_HEADER + <usize>(first + r) * RE_SIZE;
      const id = load<u32>(e, RE_ID);
      if (id >= best) {
        done = true; // (the rest rank below)
        break;
      }
      const flags = load<u32>(e, RE_FLAGS);
      if (!matches(p, n, load<usize>(e, RE_TOKENS), load<i32>(e, RE_LENGTH), (flags & RE_ANCHORED) != 0, 0)) continue;
      best = id;
      gramDisallow = (flags & RE_DISALLOW) != 0;
      done = true;
      break;
    }
    if (done) break;
  }
  // The marks past where the walk stopped, cleared.
  if (w < hi) memory.fill(seen + (<usize>(w + 1) << 2), 0, <usize>(hi - w) << 2);
  return best;
}

// Rules of a rule list with two `*` or more before literal octets (`/*/a/*/b`,
// not `*.pdf` nor `/a*`): what makes an automaton thrash (src/engine/match/
// mode-policy.ts starShare). Counted here, not by the host, since the cost
// model asks once per matcher, where JavaScript runs it unoptimised (a pass over
// every octet of the rules).

/** Of the last count: those with a run of 4 literal octets past their first `*` (rule mode's gram index finds them). */
let gramHeavy: u32 = 0;

/** Counts the list's `count` entries with two `*` or more before literal octets: returns those
 * without a gram (rule mode would try them one by one); lastGramHeavyRules() the others. */
export function starHeavyRules(list: usize, count: u32): u32 {
  let plain: u32 = 0;
  let grams: u32 = 0;
  for (let id: u32 = 0; id < count; id++) {
    const e = list + RM_HEADER + <usize>id * RE_SIZE;
    const t = load<usize>(e, RE_TOKENS);
    const end = t + <usize>load<u32>(e, RE_LENGTH);
    let stars = 0; // `*` with literal octets after them
    let star = false; // a `*` before, none counted since
    let run = 0; // literal octets in a row past the first `*`
    let gram = false;
    for (let i = t; i < end; i++) {
      if (load<u8>(i) == RULE_LIST_STAR) {
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
  gramHeavy = grams;
  return plain;
}

export function lastGramHeavyRules(): u32 {
  return gramHeavy;
}

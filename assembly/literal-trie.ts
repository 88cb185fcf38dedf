// Rule mode's trie of its rules' literal heads (src/engine/match/matcher-block.ts
// writes it, N_* fields): the rules without `*` whole, and the octets before
// the first `*` of the others. Without stars a trie is walked along one path,
// the node of the octets read so far, so it costs one step per octet whatever
// the number of rules. A rule ending on a node passed is matched for good
// (sticky); a `$` rule only if the path ends on its node. A node where `*`
// rules' heads end has their entries (N_TAILS): the walk lists it for
// assembly/rule-mode.ts, which verifies them.
import {
  H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE,
  N_CHILD_START, N_CHILD_TOK, N_CHILD_NODE, N_TERM, N_TERMS, N_TAILS, NT_FIRST, NT_END, NT_SIZE,
  INFO_STICKY_ALLOW, INFO_STICKY_DISALLOW, INFO_END_ALLOW, INFO_END_DISALLOW,
} from "../src/engine/wasm/layout";

/** The octet child of q, or -1 (children sorted by octet). */
@inline function childOf(t: usize, q: i32, b: u8): i32 {
  const childStart = load<usize>(t, N_CHILD_START);
  const childTok = load<usize>(t, N_CHILD_TOK);
  const childNode = load<usize>(t, N_CHILD_NODE);
  let lo = load<i32>(childStart + (<usize>q << 2));
  let hi = load<i32>(childStart + (<usize>q << 2), 4);
  if (hi - lo <= 8) {
    for (; lo < hi; lo++) if (load<u8>(childTok + <usize>lo) == b) return load<i32>(childNode + (<usize>lo << 2));
    return -1;
  }
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = load<u8>(childTok + <usize>mid);
    if (m == b) return load<i32>(childNode + (<usize>mid << 2));
    if (m < b) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** Walks p[0, n) down the literal trie t, storing the best allow and disallow
 * rule ids met in m's header (H_OUT_*), and writing to `met` (room for n + 1)
 * the terminals passed whose node has `*` rules (N_TAILS); returns how many. */
export function walkLiteralTrie(m: usize, t: usize, p: usize, n: i32, met: usize): i32 {
  const term = load<usize>(t, N_TERM);
  const terms = load<usize>(t, N_TERMS);
  const tails = load<usize>(t, N_TAILS);
  let allow: u32 = NO_RULE;
  let disallow: u32 = NO_RULE;
  let count = 0;
  let q: i32 = 0; // the root: the empty prefix
  for (let i: i32 = 0; ; i++) {
    const k = load<i32>(term + (<usize>q << 2));
    if (k >= 0) {
      const at = terms + (<usize>k << 4);
      allow = min(allow, load<u32>(at, INFO_STICKY_ALLOW));
      disallow = min(disallow, load<u32>(at, INFO_STICKY_DISALLOW));
      if (i == n) {
        allow = min(allow, load<u32>(at, INFO_END_ALLOW));
        disallow = min(disallow, load<u32>(at, INFO_END_DISALLOW));
      }
      if (tails != 0) {
        const tail = tails + <usize>k * NT_SIZE;
        if (load<u32>(tail, NT_FIRST) != load<u32>(tail, NT_END)) {
          store<u32>(met + (<usize>count << 2), <u32>k);
          count++;
        }
      }
    }
    if (i == n) break;
    q = childOf(t, q, load<u8>(p + <usize>i));
    if (q < 0) break;
  }
  store<u32>(m, allow, H_OUT_ALLOW);
  store<u32>(m, disallow, H_OUT_DISALLOW);
  return count;
}

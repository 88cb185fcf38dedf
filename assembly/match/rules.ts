// Rule lists: rules tried one by one, best first. A cold matcher's first URLs
// are decided so (cold.ts: nothing is built for them, not even a trie).
// Rule by rule, a pattern of `*`-separated segments is matched greedily (each
// segment at its leftmost place after the one before, a `$` pattern's last
// segment at the path's end), in one pass over the path per rule, and the rules
// are tried best first (ids are ranks), so the first match decides.
// matches() is also what rule mode (rule-mode.ts) verifies its `*` rules with.
import {
  H_RULES, H_OUT_ALLOW, H_OUT_DISALLOW, NO_RULE, RULE_LIST_STAR,
  RM_COUNT, RM_HEADER, RE_ID, RE_FLAGS, RE_TOKENS, RE_LENGTH, RE_SIZE, RE_ANCHORED, RE_DISALLOW, RE_HEAD_SHIFT, RM_SIGNATURES,
} from "../../src/engine/wasm/layout";

/** The buckets (octet & 31) of the octets of p[0, n), as bits. */
export function bucketsOf(p: usize, n: i32): u32 {
  let s: u32 = 0;
  for (let i = 0; i < n; i++) s |= <u32>1 << (<u32>load<u8>(p + <usize>i) & 31);
  return s;
}

/** Does p[i, i + k) hold the octets t[0, k)? */
@inline function sameAt(p: usize, t: usize, k: i32): bool {
  for (let j = 0; j < k; j++) if (load<u8>(p + <usize>j) != load<u8>(t + <usize>j)) return false;
  return true;
}

/** The first place at or after i where the segment t[0, k) is in p[0, n), or -1.
 * Places of its first octet are found 16 at a time (SIMD) while 16 octets of
 * the path are left (no octet past it is read), then one by one. */
function find(p: usize, i: i32, n: i32, t: usize, k: i32): i32 {
  const first = load<u8>(t);
  const last = n - k;
  const splat = i8x16.splat(first);
  for (; i + 16 <= n && i <= last; i += 16) {
    let hits = i8x16.bitmask(i8x16.eq(v128.load(p + <usize>i), splat));
    while (hits != 0) {
      const at = i + <i32>ctz(hits);
      if (at > last) return -1;
      if (sameAt(p + <usize>at + 1, t + 1, k - 1)) return at;
      hits &= hits - 1;
    }
  }
  for (; i <= last; i++) {
    if (load<u8>(p + <usize>i) == first && sameAt(p + <usize>i + 1, t + 1, k - 1)) return i;
  }
  return -1;
}

/** Does the pattern t[0, len) (octets, RULE_LIST_STAR for `*`) match the path
 * p[0, n)? Greedy placement is exact for `*`-separated segments: the leftmost
 * place of each leaves the most room to the ones after it. */
export function matches(p: usize, n: i32, t: usize, len: i32, anchored: bool, known: i32): bool {
  // The first segment is at the path's start (its first `known` octets are known to be there:
  // a literal head, never longer than the pattern).
  let i = known;
  let k = known;
  for (; k < len; k++, i++) {
    const c = load<u8>(t + <usize>k);
    if (c == RULE_LIST_STAR) break;
    if (i >= n || load<u8>(p + <usize>i) != c) return false;
  }
  if (k == len) return !anchored || i == n;
  while (true) {
    while (k < len && load<u8>(t + <usize>k) == RULE_LIST_STAR) k++;
    if (k == len) return true; // a last `*` takes the rest, `$` or not
    const s = k;
    while (k < len && load<u8>(t + <usize>k) != RULE_LIST_STAR) k++;
    const size = k - s;
    const segment = t + <usize>s;
    if (k == len && anchored) return n - size >= i && sameAt(p + <usize>(n - size), segment, size);
    const at = find(p, i, n, segment, size);
    if (at < 0) return false;
    if (k == len) return true;
    i = at + size;
  }
  return false; // (never reached: each turn returns or moves k on)
}

/** Decides p[0, n) for matcher m by its rule list, storing the best allow
 * and disallow rule ids that decide it in its header (H_OUT_*). Returns the
 * entries visited and a unit per 16 octets of path matched against (the cold
 * walk's work: cold.ts). */
export function walkRules(m: usize, p: usize, n: i32): i32 {
  let allow: u32 = NO_RULE;
  let disallow: u32 = NO_RULE;
  const list = load<usize>(m, H_RULES);
  const count = load<u32>(list, RM_COUNT);
  // The path's first four octets, for the rules' literal heads (a shorter path is left to matches()).
  const head = n >= 4 ? load<u32>(p) : 0;
  // The path's octet buckets, made for the first rule that has a signature to test.
  const signatures = load<usize>(list, RM_SIGNATURES);
  let pathBuckets: u32 = 0;
  let bucketed = false;
  let i: usize = 0;
  let scans = 0; // (octets of path the rules' matches went over, at most: the cold walk's work)
  for (; i < <usize>count; i++) {
    const e = list + RM_HEADER + i * RE_SIZE;
    const id = load<u32>(e, RE_ID);
    const flags = load<u32>(e, RE_FLAGS);
    const tokens = load<usize>(e, RE_TOKENS);
    const literal = (flags >> RE_HEAD_SHIFT) & 7;
    const tested = literal != 0 && n >= 4;
    if (tested && ((head ^ load<u32>(tokens)) & (<u32>-1 >>> ((4 - literal) << 3))) != 0) continue;
    if (signatures != 0) {
      const named = load<u32>(signatures + (i << 2));
      if (named != 0) {
        if (!bucketed) {
          pathBuckets = bucketsOf(p, n);
          bucketed = true;
        }
        if ((named & ~pathBuckets) != 0) continue; // it names an octet the path lacks
      }
    }
    scans += n >> 4;
    if (!matches(p, n, tokens, load<i32>(e, RE_LENGTH), (flags & RE_ANCHORED) != 0, tested ? <i32>literal : 0)) continue;
    // The best match of all: it decides (the other kind's best, if any, ranks below it).
    if (flags & RE_DISALLOW) disallow = id;
    else allow = id;
    break;
  }
  store<u32>(m, allow, H_OUT_ALLOW);
  store<u32>(m, disallow, H_OUT_DISALLOW);
  return <i32>i + 1 + scans;
}

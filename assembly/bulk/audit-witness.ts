// robots audit's category of one set of rules, decided by witnesses in the core
// (src/bulk/audit/rule-category.ts states the method, and is the host's for what
// this leaves undecided): over the tokens tokenizeRules wrote for the set (one
// call, all its rules), the verdict at `/`, then an allowed and a disallowed
// path among the candidates: `/`, each rule's literal octets, and the same with
// one octet no rule names, in that order, each decided rule by rule (the longest
// allow against the longest disallow). The first witness of each kind met is the
// answer's proof, as the host's. No allocation: the candidate is written into
// the host's path area, the octets named into a static table.
import { escapesRaw, hexValue, isUnreserved } from "../parse/normalize";
import {
  AUDIT_ALL, AUDIT_ALLOWED_WITNESS, AUDIT_CODE, AUDIT_DISALLOWED_WITNESS, AUDIT_NONE, AUDIT_OTHER_OCTET, AUDIT_PART, AUDIT_ROOT_ALLOW,
  AUDIT_ROOT_ALLOWED, AUDIT_ROOT_DISALLOW, AUDIT_STEPS, AUDIT_UNDECIDED, AUDIT_WITNESS_NONE, AUDIT_WITNESS_ROOT, TOKEN_ANCHOR, TOKEN_STAR, TOKENIZE_RESULT,
} from "../../src/engine/wasm/layout";

// The set: its tokens (u16), tokenizeRules' results (first token, priority; then the count written), a kind per rule (1: allow).
let toks: usize = 0;
let results: usize = 0;
let kinds: usize = 0;
let rules: i32 = 0;
/** A 64-bit mask of the literal octets of each rule (octet & 63: its bit), u64 per rule. */
let masks: usize = 0;
/** Rules looked at for candidates so far (a mask tested, or compared), against the bound the host gives. */
let visited: i32 = 0;
/** Steps of glob matching (an octet of a path or of a rule looked at), written to the answer (AUDIT_STEPS, at most
 * i32's largest): the tests bound the work by it. */
let steps: i64 = 0;
/** The segment search's table: an i32 per token of the longest rule, after the masks. */
let borders: usize = 0;
// The best allow and disallow of the last verdict (a rule's index, -1 none).
let bestAllow: i32 = -1;
let bestDisallow: i32 = -1;

/** The octets the rules and "/robots.txt" name (unnamedOctet's, cleared at each use). */
const NAMED = memory.data(256);

@inline function first(i: i32): i32 {
  return load<i32>(results + <usize>i * TOKENIZE_RESULT);
}

@inline function priority(i: i32): i32 {
  return load<i32>(results + <usize>i * TOKENIZE_RESULT, 4);
}

@inline function token(k: i32): u32 {
  return <u32>load<u16>(toks + (<usize>k << 1));
}

/** Tokens before the rule's terminal. */
@inline function length(i: i32): i32 {
  return first(i + 1) - 1 - first(i);
}

@inline function anchored(i: i32): bool {
  return token(first(i + 1) - 1) == TOKEN_ANCHOR;
}

@inline function isAllow(i: i32): bool {
  return load<u8>(kinds + <usize>i) != 0;
}

/** Whether rule i matches path[0, n): a prefix of it (the whole when anchored). Its literal start must begin the
 * path; each run of literals after a star is found at its leftmost place after the last one's (segmentAt), and the
 * last run, when anchored, must end the path: steps linear in the rule's and the path's octets (the host's
 * ruleMatches, path-verdict.ts, says why this is exact). */
function ruleMatches(i: i32, path: usize, n: i32): bool {
  let p = first(i);
  const end = p + length(i);
  let s: i32 = 0;
  while (p < end) {
    const t = token(p);
    if (t == TOKEN_STAR || s == n || t != <u32>load<u8>(path + <usize>s)) break;
    p++;
    s++;
  }
  steps += <i64>(s + 1);
  if (p == end) return !anchored(i) || s == n;
  if (token(p) != TOKEN_STAR) return false;
  for (;;) {
    // A run of literals after the star at p.
    const from = ++p;
    while (p < end && token(p) != TOKEN_STAR) p++;
    const runLength = p - from;
    if (p == end && anchored(i)) {
      // The last run ends the path.
      steps += <i64>runLength;
      if (n - s < runLength) return false;
      const at = n - runLength;
      for (let k: i32 = 0; k < runLength; k++) if (token(from + k) != <u32>load<u8>(path + <usize>(at + k))) return false;
      return true;
    }
    const at = segmentAt(from, runLength, path, n, s);
    if (at < 0) return false;
    if (p == end) return true;
    s = at + runLength;
  }
  return false; // (the loop returns)
}

/** Where tokens [from, from + m) first occur in path[s, n), or -1: Knuth–Morris–Pratt over the borders area (each
 * prefix's longest proper border, an i32 per token), at most 2 × (m + n) steps. */
function segmentAt(from: i32, m: i32, path: usize, n: i32, s: i32): i32 {
  steps++;
  if (m == 0) return s;
  if (n - s < m) return -1;
  store<i32>(borders, 0);
  let k: i32 = 0;
  for (let q: i32 = 1; q < m; q++) {
    const t = token(from + q);
    while (k > 0 && t != token(from + k)) {
      k = load<i32>(borders + (<usize>(k - 1) << 2));
      steps++;
    }
    if (t == token(from + k)) k++;
    store<i32>(borders + (<usize>q << 2), k);
  }
  steps += <i64>m;
  k = 0;
  for (let i = s; i < n; i++) {
    steps++;
    const c = <u32>load<u8>(path + <usize>i);
    while (k > 0 && c != token(from + k)) {
      k = load<i32>(borders + (<usize>(k - 1) << 2));
      steps++;
    }
    if (c == token(from + k)) k++;
    if (k == m) return i - m + 1;
  }
  return -1;
}

/** The mask of the octets of path[0, n) (octet & 63: its bit). */
function octetMask(path: usize, n: i32): u64 {
  let m: u64 = 0;
  for (let i: i32 = 0; i < n; i++) m |= (<u64>1) << (<u64>load<u8>(path + <usize>i) & 63);
  return m;
}

/** Each rule's mask of its literal octets, written to masks. */
function ruleMasks(): void {
  for (let i: i32 = 0; i < rules; i++) {
    let m: u64 = 0;
    const end = first(i) + length(i);
    for (let k = first(i); k < end; k++) {
      const t = token(k);
      if (t < 256) m |= (<u64>1) << (<u64>t & 63);
    }
    store<u64>(masks + (<usize>i << 3), m);
  }
}

/** The verdict of path[0, n): true allowed (bestAllow and bestDisallow say which rules decided). A rule one of
 * whose literal octets the path lacks cannot match it: its mask says so before any comparison. */
function verdict(path: usize, n: i32): bool {
  bestAllow = -1;
  bestDisallow = -1;
  const lacking = ~octetMask(path, n);
  visited += rules;
  for (let i: i32 = 0; i < rules; i++) {
    if ((load<u64>(masks + (<usize>i << 3)) & lacking) != 0) continue;
    const allow = isAllow(i);
    const best = allow ? bestAllow : bestDisallow;
    if (best >= 0 && priority(best) >= priority(i)) continue;
    if (!ruleMatches(i, path, n)) continue;
    if (allow) bestAllow = i;
    else bestDisallow = i;
  }
  const allowPriority = bestAllow < 0 ? -1 : priority(bestAllow);
  return !(bestDisallow >= 0 && priority(bestDisallow) > max(allowPriority, 0));
}

// The rfc path automaton (src/bulk/audit/profile-paths.ts): in the path (a segment's start, ".", "..", any other),
// in the query, or within an escape (after '%', after its first hex digit h: 16 states each, in the path or the query).
const REJECT: i32 = -1;
const SEGMENT_START: i32 = 0;
const DOT: i32 = 1;
const DOT_DOT: i32 = 2;
const SEGMENT: i32 = 3;
const QUERY: i32 = 4;
const PERCENT_PATH: i32 = 5;
const PERCENT_QUERY: i32 = 6;
const HEX_PATH: i32 = 7; // + h
const HEX_QUERY: i32 = 23; // + h

/** Upper-case hex digit value, or -1 (a normalised escape is upper-case). */
@inline function upperHex(c: u32): i32 {
  return c >= 0x61 ? -1 : hexValue(c);
}

function rfcStep(state: i32, c: u32): i32 {
  if (state == PERCENT_PATH || state == PERCENT_QUERY) {
    const h = upperHex(c);
    return h < 0 ? REJECT : (state == PERCENT_PATH ? HEX_PATH : HEX_QUERY) + h;
  }
  if (state >= HEX_PATH) {
    const inPath = state < HEX_QUERY;
    const h = upperHex(c);
    // An escape of an unreserved octet is that octet, raw.
    if (h < 0 || isUnreserved(<u32>(((state - (inPath ? HEX_PATH : HEX_QUERY)) << 4) | h))) return REJECT;
    return inPath ? SEGMENT : QUERY;
  }
  // A '%' stands only as an escape's; '#' ends the URL's path; other octets that need escaping are escaped.
  const raw = c != 0x25 && c != 0x23 && !escapesRaw(c);
  if (state == QUERY) {
    if (c == 0x25) return PERCENT_QUERY;
    return raw ? QUERY : REJECT;
  }
  const dots = state == DOT || state == DOT_DOT;
  if (c == 0x2f) return dots ? REJECT : SEGMENT_START; // "/./", "/../" are removed
  if (c == 0x3f) return dots ? REJECT : QUERY;
  if (c == 0x2e) return state == SEGMENT_START ? DOT : state == DOT ? DOT_DOT : SEGMENT;
  if (c == 0x25) return PERCENT_PATH;
  return raw ? SEGMENT : REJECT;
}

/** Whether path[0, n) is a path under the profile (rfc: normalised; google: no NUL, no '#'). */
function isProfilePath(path: usize, n: i32, rfc: bool): bool {
  if (n == 0 || load<u8>(path) != 0x2f) return false;
  let state = SEGMENT_START;
  for (let i: i32 = 0; i < n; i++) {
    const c = <u32>load<u8>(path + <usize>i);
    if (rfc) state = rfcStep(state, c);
    else if (c == 0 || c == 0x23) state = REJECT;
    if (state == REJECT) return false;
  }
  return !rfc || state == SEGMENT_START || state == SEGMENT || state == QUERY;
}

function isRobotsTxt(path: usize, n: i32): bool {
  const robots = "/robots.txt";
  if (n != robots.length) return false;
  for (let i: i32 = 0; i < n; i++) if (<u32>load<u8>(path + <usize>i) != <u32>robots.charCodeAt(i)) return false;
  return true;
}

/** An unreserved octet no rule names (the most common next octet of a real path), printable first. */
function unnamedOctet(): u32 {
  memory.fill(NAMED, 0, 256);
  const robots = "/robots.txt";
  for (let i: i32 = 0; i < robots.length; i++) store<u8>(NAMED + <usize>robots.charCodeAt(i), 1);
  for (let i: i32 = 0; i < rules; i++) {
    const end = first(i) + length(i);
    for (let k = first(i); k < end; k++) {
      const t = token(k);
      if (t < 256) store<u8>(NAMED + <usize>t, 1);
    }
  }
  // (Printable ASCII first; no octet outside it is unreserved.)
  for (let c: u32 = 0x21; c < 0x7f; c++) if (load<u8>(NAMED + <usize>c) == 0 && isUnreserved(c)) return c;
  return 0x7e;
}

/**
 * The category of a set's n rules (tokens at t, tokenizeRules' results at r, a
 * kind per rule at k), under rfc or google, its verdict at `/` and its proof:
 * written to out (AUDIT_*). Candidates are decided until the rules looked at
 * for them pass `bound`: past it, or with a witness missing (the walk's to
 * find), AUDIT_UNDECIDED. path: room for the longest rule's tokens and two
 * octets; m: room for a mask per rule (8 octets, aligned), then for an i32 per token of the longest rule (the
 * segment search's table).
 */
export function auditWitnesses(t: usize, r: usize, k: usize, n: i32, rfc: bool, bound: i32, path: usize, m: usize, out: usize): void {
  toks = t;
  results = r;
  kinds = k;
  rules = n;
  masks = m;
  borders = m + (<usize>n << 3);
  visited = 0;
  steps = 0;
  ruleMasks();
  store<u8>(path, 0x2f);
  const rootAllowed = verdict(path, 1);
  store<i32>(out, bestAllow, AUDIT_ROOT_ALLOW << 2);
  store<i32>(out, bestDisallow, AUDIT_ROOT_DISALLOW << 2);
  store<i32>(out, rootAllowed ? 1 : 0, AUDIT_ROOT_ALLOWED << 2);
  store<i32>(out, AUDIT_WITNESS_NONE, AUDIT_ALLOWED_WITNESS << 2);
  store<i32>(out, AUDIT_WITNESS_NONE, AUDIT_DISALLOWED_WITNESS << 2);
  store<i32>(out, -1, AUDIT_OTHER_OCTET << 2);
  store<i32>(out, <i32>min(steps, <i64>i32.MAX_VALUE), AUDIT_STEPS << 2);
  // A disallow decides only when longer than 0 (an empty Disallow allows): none can, nothing is disallowed. An
  // unanchored rule of no octets or `/` alone matches every path. (A rule that starts with an octet other than '/'
  // or `*` matches no path.)
  let decides = false;
  let everywhere = false;
  let allows = false;
  for (let i: i32 = 0; i < n; i++) {
    const len = length(i);
    const head = token(first(i));
    if (len > 0 && head != 0x2f && head != TOKEN_STAR) continue;
    if (isAllow(i)) allows = allows || priority(i) > 0;
    else if (priority(i) > 0) {
      decides = true;
      everywhere = everywhere || (!anchored(i) && (len == 0 || (len == 1 && head == 0x2f)));
    }
  }
  if (!decides) {
    store<i32>(out, AUDIT_NONE, AUDIT_CODE << 2);
    return;
  }
  if (everywhere && !allows) {
    store<i32>(out, AUDIT_ALL, AUDIT_CODE << 2);
    return;
  }
  let allowed: i32 = rootAllowed ? AUDIT_WITNESS_ROOT : AUDIT_WITNESS_NONE;
  let disallowed: i32 = rootAllowed ? AUDIT_WITNESS_NONE : AUDIT_WITNESS_ROOT;
  let other: i32 = -1;
  let code = AUDIT_UNDECIDED;
  for (let i: i32 = 0; i < n && code == AUDIT_UNDECIDED; i++) {
    const len = length(i);
    const from = first(i);
    const head = token(from);
    if (len == 0 || (head != 0x2f && head != TOKEN_STAR)) continue;
    // Its literal octets (each star matching nothing; after a leading star, from a '/'), then with one octet more.
    let m: i32 = 0;
    if (head == TOKEN_STAR && (len < 2 || token(from + 1) != 0x2f)) {
      store<u8>(path, 0x2f);
      m = 1;
    }
    for (let q = from; q < from + len; q++) {
      const c = token(q);
      if (c != TOKEN_STAR) {
        store<u8>(path + <usize>m, <u8>c);
        m++;
      }
    }
    for (let variant: i32 = 0; variant < 2; variant++) {
      if (variant == 1) {
        if (other < 0) other = <i32>unnamedOctet();
        store<u8>(path + <usize>m, <u8>other);
      }
      const size = m + variant;
      if (!isProfilePath(path, size, rfc) || isRobotsTxt(path, size)) continue;
      if (verdict(path, size)) {
        if (allowed == AUDIT_WITNESS_NONE) allowed = 2 * i + variant;
      } else if (disallowed == AUDIT_WITNESS_NONE) disallowed = 2 * i + variant;
      if (allowed != AUDIT_WITNESS_NONE && disallowed != AUDIT_WITNESS_NONE) {
        code = AUDIT_PART;
        break;
      }
      if (visited > bound) break;
    }
    if (visited > bound) break;
  }
  store<i32>(out, code, AUDIT_CODE << 2);
  store<i32>(out, allowed, AUDIT_ALLOWED_WITNESS << 2);
  store<i32>(out, disallowed, AUDIT_DISALLOWED_WITNESS << 2);
  store<i32>(out, other, AUDIT_OTHER_OCTET << 2);
  store<i32>(out, <i32>min(steps, <i64>i32.MAX_VALUE), AUDIT_STEPS << 2);
}

// The verdict: a URL's path walked through a matcher (the DFA, a cold walk,
// or its rule lists, whichever mode the matcher is in), the best allow and
// disallow left in its header. index.ts exports check() on it; batch.ts and
// classify.ts call decide() per URL of a run. A module of its own so that none
// of them imports index.ts (which re-exports them).
import {
  H_FLAGS, H_CLASSMAP, H_TRANS, H_START, H_POSITIVE, H_OUT_ALLOW, H_OUT_DISALLOW,
  FLAG_RFC, INFO_STICKY_ALLOW, INFO_STICKY_DISALLOW, INFO_END_ALLOW, INFO_END_DISALLOW,
  INFO_SIZE, ENTRY_SPECIAL, ENTRY_DEAD, ENTRY_ROW_MASK, WIDE_SPECIAL, WIDE_DEAD, WIDE_ROW_MASK, ROW_ALIGN,
  FLAG_WIDE, FLAG_RULES, NO_RULE, H_COLD, H_HOT_URLS,
} from "../../src/engine/wasm/layout";
import { pathStart, pathEnd, pathSlash } from "../parse/path";
import { isNormal, normalizeInto } from "../parse/normalize";
import { firstDotSegment, removeDotSegments } from "../parse/dot-segments";
import { buildTransition } from "../host";
import { walkCold } from "./cold";
import { walkRuleMode } from "./rule-mode";

// Scratch space for a path that is rewritten before the walk (normalised, with
// a '/' prepended, or its dot segments removed). Grows to the longest path seen; never per call.
let scratch: usize = 0;
let scratchSize: usize = 0;

function scratchFor(size: usize): usize {
  if (size > scratchSize) {
    if (scratch != 0) heap.free(scratch);
    scratchSize = size + (size >> 1) + 64;
    scratch = heap.alloc(scratchSize);
  }
  return scratch;
}

@inline function minRule(a: u32, b: u32): u32 {
  return a < b ? a : b;
}

/** Walks p[0, n) through the DFA of matcher m, whose transition entries are
 * of type E (u16 or u32, see layout.ts); stores the best allow and disallow rule
 * ids in the header. A step is a class lookup (off the critical path: it does
 * not depend on the state) and one load at row + class. Returns false, having
 * decided nothing, when a state built on the way made the entries wide (the
 * matcher started over: see LazyDfa.build) or put the matcher in rule mode. */
@inline function walk<E>(m: usize, p: usize, n: i32): bool {
  const SPECIAL: u32 = sizeof<E>() == 2 ? ENTRY_SPECIAL : <u32>WIDE_SPECIAL;
  const DEAD: u32 = sizeof<E>() == 2 ? ENTRY_DEAD : <u32>WIDE_DEAD;
  const MASK: u32 = sizeof<E>() == 2 ? ENTRY_ROW_MASK : <u32>WIDE_ROW_MASK;
  const SHIFT: usize = <usize>alignof<E>(); // log2 of the entry's size
  let e = load<u32>(m, H_START);
  if (e == 0) {
    e = buildTransition(m, 0, 0); // the start state is built on first use (the byte classes with it)
    if (load<u32>(m, H_FLAGS) & FLAG_RULES) return false; // (or rule mode taken at once: dfa.ts turnHot)
  }
  const classes = load<usize>(m, H_CLASSMAP);
  let rows = load<usize>(m, H_TRANS);
  let row = <usize>(e & MASK) * ROW_ALIGN;
  let allow: u32 = NO_RULE;
  let disallow: u32 = NO_RULE;
  if (e & SPECIAL) {
    allow = load<u32>(rows + row, INFO_STICKY_ALLOW);
    disallow = load<u32>(rows + row, INFO_STICKY_DISALLOW);
  }
  if (e & DEAD) {
    storeOut(m, allow, disallow);
    return true;
  }
  const end = p + <usize>n;
  while (p < end) {
    const c = <usize>load<u8>(classes + <usize>load<u8>(p));
    e = <u32>load<E>((rows + (c << SHIFT)) + row, INFO_SIZE); // (row added last: the class part does not wait for the last step)
    if (e == 0) {
      e = buildTransition(m, <u32>row, <u32>c);
      if (load<u32>(m, H_FLAGS) & (sizeof<E>() == 2 ? FLAG_WIDE | FLAG_RULES : FLAG_RULES)) return false;
      rows = load<usize>(m, H_TRANS);
    }
    row = <usize>(e & MASK) * ROW_ALIGN;
    if (e & (SPECIAL | DEAD)) {
      if (e & SPECIAL) {
        allow = minRule(allow, load<u32>(rows + row, INFO_STICKY_ALLOW));
        disallow = minRule(disallow, load<u32>(rows + row, INFO_STICKY_DISALLOW));
      }
      if (e & DEAD) {
        storeOut(m, allow, disallow);
        return true;
      }
    }
    p++;
  }
  allow = minRule(allow, load<u32>(rows + row, INFO_END_ALLOW));
  disallow = minRule(disallow, load<u32>(rows + row, INFO_END_DISALLOW));
  storeOut(m, allow, disallow);
  return true;
}

@inline function storeOut(m: usize, allow: u32, disallow: u32): void {
  store<u32>(m, allow, H_OUT_ALLOW);
  store<u32>(m, disallow, H_OUT_DISALLOW);
}

@inline function isRobotsTxt(p: usize, n: i32): bool {
  // "/robots.txt" as little-endian u64 + u16 + u8
  return n == 11 && load<u64>(p) == 0x2e73746f626f722f && load<u16>(p, 8) == 0x7874 && load<u8>(p, 10) == 0x74;
}

/** The verdict on the path extractPath found in the URL at u (see check); flags
 * are the header's, read once per batch (their profile bits never change).
 * With normal set, the URL is `rfc`-normalised already (see batch.ts). */
export function decide(m: usize, u: usize, flags: u32, normal: bool): i32 {
  let p = u + <usize>pathStart;
  let len = pathEnd - pathStart;
  const rfc = (flags & FLAG_RFC) != 0;
  // Most paths are already normal: then they are walked where they are. A
  // normal one is never normalised again (with the '/' it may need).
  let inScratch = true;
  if (rfc && !normal && (pathSlash || !isNormal(p, len))) {
    const dst = scratchFor(<usize>len * 3 + 17); // normalizeInto's room, after the '/'
    store<u8>(dst, 0x2f);
    const off: i32 = pathSlash ? 1 : 0;
    len = normalizeInto(p, len, dst + off) + off;
    p = dst;
  } else if (pathSlash) {
    const dst = scratchFor(<usize>len + 1);
    store<u8>(dst, 0x2f);
    memory.copy(dst + 1, p, len);
    p = dst;
    len++;
  } else {
    inScratch = false;
  }
  if (rfc) {
    // The path a fetch requests: dot segments removed (from the normal form,
    // where "%2E" is a '.'). The URL itself is never written to.
    const dot = firstDotSegment(p, len);
    if (dot >= 0) {
      const dst = inScratch ? p : scratchFor(<usize>len + 16);
      len = removeDotSegments(p, len, dot, dst);
      p = dst;
    }
    if (isRobotsTxt(p, len)) {
      storeOut(m, NO_RULE, NO_RULE);
      return 1;
    }
  }
  // A matcher's first octets are walked cold (no DFA state built for URLs it may never see again).
  if (load<u32>(m, H_COLD) != 0 && walkCold(m, p, len)) return verdict(m);
  store<u32>(m, load<u32>(m, H_HOT_URLS) + 1, H_HOT_URLS); // (what the DFA's cost per URL is measured by)
  // (Flags read again: the walk of a URL before may have changed the matcher's mode since.)
  for (;;) {
    const mode = load<u32>(m, H_FLAGS);
    if (mode & FLAG_RULES) {
      walkRuleMode(m, p, len);
      break;
    }
    if ((mode & FLAG_WIDE) != 0 ? walk<u32>(m, p, len) : walk<u16>(m, p, len)) break;
  }
  return verdict(m);
}

/** Allowed unless the best disallow outranks both the best allow and the empty pattern. */
function verdict(m: usize): i32 {
  const a = load<u32>(m, H_OUT_ALLOW);
  const d = load<u32>(m, H_OUT_DISALLOW);
  // Ids are ranks: d < a is a longer disallow than any allow (an allow wins a
  // tie, and NO_RULE is above every id), and below H_POSITIVE one that is not empty.
  return d < a && d < load<u32>(m, H_POSITIVE) ? 0 : 1;
}


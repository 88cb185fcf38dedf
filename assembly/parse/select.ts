// The rules that apply to a crawler, read from a robots.txt body in one pass:
// the lexer's lines (lexer.ts's splitLine: Google's RobotsTxtParser octet for
// octet), grouped as src/engine/parse/records.ts groups them, the groups that
// apply chosen by group-choice.ts (line by line, then selectWanted), with no
// record per line. A line can name a crawler or hold a rule only when its
// first octet past the blanks is u, a or d (the keys' first letters), or c for
// a Content-Usage line where it is a rule (the rfc profile: it ends the group's
// user-agent lines, as records.ts reads it) and the group has had none: any
// other line (most comments, blank lines, sitemaps, HTML) is passed over with
// one scan for its end. Rules of groups that name neither the crawler nor `*`
// are not written; where no group counts (before the first user-agent line, or
// in a group naming other crawlers), lines are passed over in bulk to the next
// that may be a user-agent line (userLineAt). Resumable: selectRun stops when
// its output is full.
import { countLineEnds, findFirstOf, findFirstOf4LongIn, LINE_SPLATS } from "../base/scan";
import { bomOctets, canonicalKey, isSpace, keyLength, splitLine, lineKey, valueStartAt, lineEndAt } from "./lexer";
import { agentFlags, wantedOf } from "./group-choice";
import {
  KEY_ALLOW, KEY_CONTENT_USAGE, KEY_DISALLOW, KEY_KIND, KEY_USER_AGENT, LEX_MAX_LINE_OCTETS, LEX_TYPE_RECORD,
  SELECT_FIELDS, SELECT_DISALLOW, SELECT_LINE, SELECT_START, SELECT_END, SELECT_FLAGS,
} from "../../src/engine/wasm/layout";

let body: usize = 0;
let size: i32 = 0;
let pos: i32 = 0;
let lineStart: i32 = 0;
let lineNum: i32 = 0;
let lastWasCR = false;
let finished = false;
/** The crawler's names (layout.ts: a count, then each as its length and its octets, in lower case). */
let names: usize = 0;
/** The current group's flags (SELECT_*), whether it has rules yet, and all groups' flags or'ed. */
let groupFlags: i32 = 0;
let inGroup = false;
let groupHasRules = false;
let allFlags: i32 = 0;
/** A Content-Usage line is a rule (the profile's contentUsageIsRule, profile.ts). */
let usageIsRule = false;

/** Starts selecting from the body at b (n octets; a UTF-8 BOM or any prefix
 * of one skipped, as lexBegin does) for the crawler whose names are at nm;
 * usageRule: a Content-Usage line is a rule (ends its group's user-agent lines). */
export function selectBegin(b: usize, n: i32, nm: usize, usageRule: bool): void {
  body = b;
  usageIsRule = usageRule;
  size = n;
  names = nm;
  const p = bomOctets(b, n);
  pos = p;
  lineStart = p;
  lineNum = 0;
  lastWasCR = false;
  finished = false;
  groupFlags = 0;
  inGroup = false;
  groupHasRules = false;
  allFlags = 0;
}

export function selectDone(): bool {
  return finished;
}

/** The flag that the rules kept have (once selectDone): group-choice.ts's choice. */
export function selectWanted(): i32 {
  return wantedOf(allFlags);
}

/** Keeps, of the count rules at o (selectRun's, once selectDone), those of
 * the groups that apply (selectWanted), in order; returns how many. */
export function selectKeep(o: usize, count: i32): i32 {
  const wanted = selectWanted();
  const size = <usize>(SELECT_FIELDS << 2);
  let to = o;
  for (let r = o, end = o + <usize>count * size; r < end; r += size) {
    if ((load<i32>(r, SELECT_FLAGS << 2) & wanted) == 0) continue;
    if (to != r) {
      store<i64>(to, load<i64>(r));
      store<i64>(to, load<i64>(r, 8), 8);
      store<i32>(to, load<i32>(r, 16), 16);
    }
    to += size;
  }
  return <i32>((to - o) / size);
}

/** Can the line whose first octet past the blanks is c be a user-agent line or
 * a rule, or (c) a Content-Usage line that ends the user-agent lines of a
 * group that counts? (In a group that does not count one changes nothing: the
 * next user-agent line's group has that line's flags alone either way.) */
@inline function mayMatter(c: u32): bool {
  const l = c | 0x20;
  return l == 0x75 || l == 0x61 || l == 0x64 || (l == 0x63 && usageIsRule && !groupHasRules); // u, a, d; c
}

/** Selects on; writes at most cap rules (SELECT_FIELDS i32s each) at o, each
 * with its group's flags. Returns the number written. */
export function selectRun(o: usize, cap: i32): i32 {
  const n = size;
  const b = body;
  let count = 0;
  let p = pos;
  // (lineStart and lastWasCR as locals while the loop runs)
  let start = lineStart;
  let afterCR = lastWasCR;
  // The octets the line scans look for, loaded once (see findFirstOf4LongIn).
  const lf = v128.load(LINE_SPLATS);
  const cr = v128.load(LINE_SPLATS, 16);
  const hash = v128.load(LINE_SPLATS, 32);
  const nul = v128.load(LINE_SPLATS, 48);
  while (p < n) {
    if (count >= cap) break;
    // (p is the line's start.)
    if (groupFlags == 0) {
      // No group that counts (before the first user-agent line, or in a group
      // naming other crawlers): only a user-agent line changes that, and rules
      // are not written. Lines that cannot be one are passed over in bulk.
      const l = userLineAt(b, p, n);
      if (l >= n) {
        p = n;
        start = n; // (the last line, below, is then empty)
        break;
      }
      if (l > p) {
        lineNum += countLineEnds(b, p, l);
        p = l;
        start = l;
        afterCR = false; // (b[l] is not an LF)
      }
    }
    let q = p;
    let c = <u32>load<u8>(b + q);
    while (q < n && (c == 0x20 || c == 0x09 || c == 0x0b || c == 0x0c)) c = <u32>load<u8>(b + ++q);
    let cut = -1;
    let e: i32;
    const matters = q < n && mayMatter(c);
    if (matters) {
      // One scan finds the line's end and its first '#' or NUL (lexer.ts's lexRun).
      e = findFirstOf4LongIn(b, q, n, lf, cr, hash, nul);
      while (e < n) {
        const d = load<u8>(b + e);
        if (d == 0x0a || d == 0x0d) break;
        if (cut < 0) cut = e;
        e = findFirstOf4LongIn(b, e + 1, n, lf, cr, cr, cr);
      }
    } else {
      e = findFirstOf4LongIn(b, q, n, lf, cr, cr, cr);
    }
    if (e >= n) {
      p = n; // (the last line, without a line end: below)
      break;
    }
    const d = <u32>load<u8>(b + e);
    // The LF of a CRLF does not make an empty line of its own.
    if (!(e == start && afterCR && d == 0x0a)) {
      ++lineNum;
      if (matters) {
        const r = o + <usize>count * (SELECT_FIELDS << 2);
        const key = e - start <= LEX_MAX_LINE_OCTETS ? canonicalKey(b, q, e) : 0;
        if (key != 0 ? use(r, key, q + keyLength(key), cut >= 0 ? cut : e) : take(r, start, e, cut)) count++;
      }
    }
    p = e + 1;
    afterCR = d == 0x0d;
    // A CRLF's LF, when it is here, is passed over at once (not as a line of its own, above).
    if (afterCR && p < n && load<u8>(b + p) == 0x0a) {
      p++;
      afterCR = false;
    }
    start = p;
  }
  lineStart = start;
  lastWasCR = afterCR;
  pos = p;
  if (p >= n && !finished && count < cap) {
    ++lineNum;
    const cut = findFirstOf(b, lineStart, n, 0x23, 0, 0);
    if (take(o + <usize>count * (SELECT_FIELDS << 2), lineStart, n, cut < n ? cut : -1)) count++;
    finished = true;
  }
  return count;
}

/** "u", "s" and the case bit, 16 of each: userLineAt's. */
const USER_SPLATS = memory.data<u8>([
  0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75, 0x75,
  0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73, 0x73,
  0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
], 16);

/** "er" in either case, as a u16 read little-endian (with the case bits set). */
const ER: u32 = 0x7265;

/** The start of the first line at or after `from` (a line's start) whose first
 * octets past its blanks are "user" in any case (every user-agent key of
 * lexer.ts's classify starts so), or n. In HTML pages served as robots.txt and
 * groups naming other crawlers, most of the corpus's octets, a hit is rare and
 * the lines between are not split: "us" is looked for 32 octets a step (two
 * compares an octet, where all four octets' were twice the work on the pages'
 * bulk), and "er" after it, then the line's start, only where it is found. */
function userLineAt(b: usize, from: i32, n: i32): i32 {
  // (The octets compared with, loaded once from memory: as constants, the runtime's
  // compiler made each again at every step of the loop.)
  const u = v128.load(USER_SPLATS);
  const s = v128.load(USER_SPLATS, 16);
  const lower = v128.load(USER_SPLATS, 32);
  let i = from;
  // (Loads reach octet i + 32, n at most here: the 16 past n are readable.)
  for (; i + 32 <= n; i += 32) {
    const at = b + <usize>i;
    const low = i8x16.bitmask(v128.and(i8x16.eq(v128.or(v128.load(at), lower), u), i8x16.eq(v128.or(v128.load(at, 1), lower), s)));
    const high = i8x16.bitmask(v128.and(i8x16.eq(v128.or(v128.load(at, 16), lower), u), i8x16.eq(v128.or(v128.load(at, 17), lower), s)));
    let mask = <u32>low | (<u32>high << 16);
    while (mask != 0) {
      const k = userLineStart(b, from, i + <i32>ctz(mask), n);
      if (k >= 0) return k;
      mask &= mask - 1;
    }
  }
  // (The rest 16 at a time: loads reach octet i + 16, fewer than 16 past n.)
  for (; i + 4 <= n; i += 16) {
    const at = b + <usize>i;
    let mask = <u32>i8x16.bitmask(v128.and(i8x16.eq(v128.or(v128.load(at), lower), u), i8x16.eq(v128.or(v128.load(at, 1), lower), s)));
    while (mask != 0) {
      const j = i + <i32>ctz(mask);
      if (j + 4 > n) return n;
      const k = userLineStart(b, from, j, n);
      if (k >= 0) return k;
      mask &= mask - 1;
    }
  }
  return n;
}

/** Where the line starts whose first octets past its blanks are the "user" at j, if
 * j holds "us" followed by "er" (any case) and only blanks come between j and a line
 * start (`from`, or an octet after an LF or CR); else -1. */
@inline function userLineStart(b: usize, from: i32, j: i32, n: i32): i32 {
  if (j + 4 > n || (<u32>load<u16>(b + <usize>j, 2) | 0x2020) != ER) return -1;
  let k = j;
  while (k > from) {
    const c = load<u8>(b + <usize>k - 1);
    if (c != 0x20 && c != 0x09 && c != 0x0b && c != 0x0c) break;
    k--;
  }
  if (k == from) return k;
  const c = load<u8>(b + <usize>k - 1);
  return c == 0x0a || c == 0x0d ? k : -1;
}

/** take() for a line whose key canonicalKey found, its colon at sep, its
 * content ending at end (its line end, or its first '#' or NUL). */
function use(r: usize, kind: i32, sep: i32, end: i32): bool {
  const b = body;
  let valueStart = sep + 1;
  while (end > valueStart && isSpace(load<u8>(b + end - 1))) end--;
  while (valueStart < end && isSpace(load<u8>(b + valueStart))) valueStart++;
  return group(r, kind, valueStart, end);
}

/** The line body[start, end) (first '#' or NUL at cut, -1: none), read: a
 * user-agent line joins or starts a group, a rule of a group that names the
 * crawler or `*` is written at r. Returns whether one was. */
function take(r: usize, start: i32, end: i32, cut: i32): bool {
  if (splitLine(body, start, end, cut) != LEX_TYPE_RECORD) return false;
  return group(r, lineKey & KEY_KIND, valueStartAt, lineEndAt);
}

/** A line of that kind and value body[start, end) read into the groups; a rule written at r when its group counts.
 * (Inlined: a call per line was a share of the selector's time worth saving on small files.) */
@inline function group(r: usize, kind: i32, start: i32, end: i32): bool {
  if (kind == KEY_USER_AGENT) {
    // A user-agent line after a rule starts a new group.
    if (!inGroup || groupHasRules) {
      inGroup = true;
      groupFlags = 0;
      groupHasRules = false;
    }
    const flags = agentFlags(body, start, end, names);
    groupFlags |= flags;
    allFlags |= flags;
    return false;
  }
  if (kind != KEY_ALLOW && kind != KEY_DISALLOW) {
    if (kind == KEY_CONTENT_USAGE && usageIsRule && inGroup) groupHasRules = true; // (a rule, with nothing to write)
    return false;
  }
  if (!inGroup) return false; // (a rule before any user-agent line: ignored)
  groupHasRules = true;
  if (groupFlags == 0) return false;
  store<i32>(r, kind == KEY_DISALLOW ? 1 : 0, SELECT_DISALLOW << 2);
  store<i32>(r, lineNum, SELECT_LINE << 2);
  store<i32>(r, start, SELECT_START << 2);
  store<i32>(r, end, SELECT_END << 2);
  store<i32>(r, groupFlags, SELECT_FLAGS << 2);
  return true;
}

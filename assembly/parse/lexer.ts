// The robots.txt lexer in WASM: Google's RobotsTxtParser line handling (robots.cc)
// octet for octet, as src/engine/parse/lexer.ts documents it. It writes one record per line
// with content to an output buffer; the host reads them and builds the groups.
// Resumable: lexRun stops when the buffer is full and goes on at the next call.
import { findFirstNotOf4, findFirstOf, findFirstOf4LongIn, LINE_SPLATS } from "../base/scan";
import {
  KEY_ALLOW, KEY_CONTENT_SIGNAL, KEY_CONTENT_USAGE, KEY_CRAWL_DELAY, KEY_DISALLOW, KEY_KIND, KEY_LICENSE, KEY_LLM_POLICY, KEY_SITEMAP,
  KEY_TYPO, KEY_UNKNOWN, KEY_USER_AGENT,
  LEX_FACTS, LEX_FIELDS, LEX_KEY, LEX_KEY_END, LEX_KEY_START, LEX_LINE, LEX_MAX_LINE_OCTETS, LEX_TYPE,
  LEX_TYPE_INVALID, LEX_TYPE_RECORD, LEX_TYPE_TRUNCATED, LEX_VALUE_END, LEX_VALUE_START, LINE_MISSING_COLON, LINE_TOO_LONG,
} from "../../src/engine/wasm/layout";

// The record layout (LEX_* fields, key kinds, line facts) is src/engine/wasm/layout.ts's.

// Key aliases in Google's order, grouped by first letter: each one's octets (lower case) in 16, then
// (length, kind, canonical, 0) each.
const ALIAS_OCTETS = memory.data<u8>([
  117, 115, 101, 114, 45, 97, 103, 101, 110, 116, 0, 0, 0, 0, 0, 0, // user-agent
  117, 115, 101, 114, 97, 103, 101, 110, 116, 0, 0, 0, 0, 0, 0, 0, // useragent
  117, 115, 101, 114, 32, 97, 103, 101, 110, 116, 0, 0, 0, 0, 0, 0, // user agent
  97, 108, 108, 111, 119, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // allow
  100, 105, 115, 97, 108, 108, 111, 119, 0, 0, 0, 0, 0, 0, 0, 0, // disallow
  100, 105, 115, 115, 97, 108, 108, 111, 119, 0, 0, 0, 0, 0, 0, 0, // dissallow
  100, 105, 115, 115, 97, 108, 111, 119, 0, 0, 0, 0, 0, 0, 0, 0, // dissalow
  100, 105, 115, 97, 108, 111, 119, 0, 0, 0, 0, 0, 0, 0, 0, 0, // disalow
  100, 105, 97, 115, 108, 108, 111, 119, 0, 0, 0, 0, 0, 0, 0, 0, // diasllow
  100, 105, 115, 97, 108, 108, 97, 119, 0, 0, 0, 0, 0, 0, 0, 0, // disallaw
  115, 105, 116, 101, 109, 97, 112, 0, 0, 0, 0, 0, 0, 0, 0, 0, // sitemap
  115, 105, 116, 101, 45, 109, 97, 112, 0, 0, 0, 0, 0, 0, 0, 0, // site-map
  99, 114, 97, 119, 108, 45, 100, 101, 108, 97, 121, 0, 0, 0, 0, 0, // crawl-delay
  99, 114, 97, 119, 108, 32, 100, 101, 108, 97, 121, 0, 0, 0, 0, 0, // crawl delay
  99, 114, 97, 119, 108, 100, 101, 108, 97, 121, 0, 0, 0, 0, 0, 0, // crawldelay
  99, 111, 110, 116, 101, 110, 116, 45, 117, 115, 97, 103, 101, 0, 0, 0, // content-usage
  99, 111, 110, 116, 101, 110, 116, 45, 115, 105, 103, 110, 97, 108, 0, 0, // content-signal (Cloudflare's Content Signals Policy)
  108, 105, 99, 101, 110, 115, 101, 0, 0, 0, 0, 0, 0, 0, 0, 0, // license (RSL)
  108, 108, 109, 45, 112, 111, 108, 105, 99, 121, 0, 0, 0, 0, 0, 0, // llm-policy
], 16);
const ALIAS_TABLE = memory.data<u8>([
  10, <u8>KEY_USER_AGENT, 1, 0, // user-agent
  9, <u8>KEY_USER_AGENT, 0, 0, // useragent
  10, <u8>KEY_USER_AGENT, 0, 0, // user agent
  5, <u8>KEY_ALLOW, 1, 0, // allow
  8, <u8>KEY_DISALLOW, 1, 0, // disallow
  9, <u8>KEY_DISALLOW, 0, 0, // dissallow
  8, <u8>KEY_DISALLOW, 0, 0, // dissalow
  7, <u8>KEY_DISALLOW, 0, 0, // disalow
  8, <u8>KEY_DISALLOW, 0, 0, // diasllow
  8, <u8>KEY_DISALLOW, 0, 0, // disallaw
  7, <u8>KEY_SITEMAP, 1, 0, // sitemap
  8, <u8>KEY_SITEMAP, 0, 0, // site-map
  11, <u8>KEY_CRAWL_DELAY, 1, 0, // crawl-delay
  11, <u8>KEY_CRAWL_DELAY, 0, 0, // crawl delay
  10, <u8>KEY_CRAWL_DELAY, 0, 0, // crawldelay
  13, <u8>KEY_CONTENT_USAGE, 1, 0, // content-usage
  14, <u8>KEY_CONTENT_SIGNAL, 1, 0, // content-signal
  7, <u8>KEY_LICENSE, 1, 0, // license
  10, <u8>KEY_LLM_POLICY, 1, 0, // llm-policy
]);
const ALIASES = 19;

let body: usize = 0;
let size: i32 = 0;
let pos: i32 = 0;
let lineStart: i32 = 0;
let lineNum: i32 = 0;
let lastWasCR = false;
let finished = false;
/** The last line's first '#' or NUL (-1: none), once a scan reached the body's end. */
let lastLineCut: i32 = -1;
let out: usize = 0;
let count: i32 = 0;

@inline export function isSpace(c: u32): bool {
  return c == 0x20 || c - 0x09 < 5;
}

/** The octets of a UTF-8 BOM, or of any prefix of one, at the start of the body at b (n octets): skipped, as Google's parser does. */
@inline export function bomOctets(b: usize, n: i32): i32 {
  if (n == 0 || load<u8>(b) != 0xef) return 0;
  if (n == 1 || load<u8>(b + 1) != 0xbb) return 1;
  return n > 2 && load<u8>(b + 2) == 0xbf ? 3 : 2;
}

/** Starts lexing the body at b (n octets): skips a UTF-8 BOM or any prefix of one. */
export function lexBegin(b: usize, n: i32): void {
  body = b;
  size = n;
  pos = bomOctets(b, n);
  lineStart = pos;
  lineNum = 0;
  lastWasCR = false;
  finished = false;
  lastLineCut = -1;
}

/** The first octet after the spaces at the start of the line at p (before n; CR and LF end it) when it may start
 * a key a reader of groups reads (u, a, d, c or l, in either case: user-agent, allow, disallow, content-usage,
 * content-signal, license, llm-policy and their aliases; crawl-delay's c too); else -1. */
@inline function groupKeyAt(b: usize, p: i32, n: i32): i32 {
  let c = <u32>load<u8>(b + p);
  if (c == 0x20 || c == 0x09 || c == 0x0b || c == 0x0c) {
    // (16 octets a step: HTML served as robots.txt indents most of its lines, by 11 octets on average in the corpus.)
    p = findFirstNotOf4(b, p + 1, n, 0x20, 0x09, 0x0b, 0x0c);
    if (p >= n) return -1;
    c = <u32>load<u8>(b + p);
  }
  c |= 0x20;
  return c == 0x75 || c == 0x61 || c == 0x64 || c == 0x63 || c == 0x6c ? p : -1;
}

/** Lines emitted so far (the final count once lexDone). */
export function lexLines(): i32 {
  return lineNum;
}

export function lexDone(): bool {
  return finished;
}

/** Lexes on; writes at most cap records at o. Returns the number written. */
export function lexRun(o: usize, cap: i32): i32 {
  return run(o, cap, false);
}

/** lexRun for a reader of groups (the audit's, src/bulk/audit/audit-records.ts): records only of the lines of
 * the kinds user-agent, allow, disallow, content-usage, content-signal, license and llm-policy, with four fields
 * (LEX_LINE, LEX_KEY: the kind alone, LEX_VALUE_START, LEX_VALUE_END; the others not written), in the same
 * boundaries. A line whose first octet after spaces starts none of those keys (sitemaps, comments, blank lines,
 * HTML) is counted, its end found without a search for '#' or NUL; a line that starts with "disallow:",
 * "allow:" or "user-agent:" is split in a compare (groupKeyLine), the others by splitLine. */
export function lexRunGroupKeys(o: usize, cap: i32): i32 {
  return run(o, cap, true);
}

/** lexRun (groupKeys false) or lexRunGroupKeys (true): one loop, made twice by the compiler. */
@inline function run(o: usize, cap: i32, groupKeys: bool): i32 {
  out = o;
  count = 0;
  const n = size;
  const b = body;
  let p = pos;
  // The octets the line scans look for, loaded once: as constants, V8 makes each again at every step of a scan
  // (scan.ts's findFirstOf4LongIn).
  const lf = v128.load(LINE_SPLATS);
  const cr = v128.load(LINE_SPLATS, 16);
  const hash = v128.load(LINE_SPLATS, 32);
  const nul = v128.load(LINE_SPLATS, 48);
  // (lineStart and lastWasCR as locals while the loop runs)
  let start = lineStart;
  let afterCR = lastWasCR;
  while (p < n) {
    if (count + 2 > cap) break;
    // One scan finds the line's end and its first '#' or NUL (where Google's C
    // string reading ends it), not one scan for each; a line not lexed, its end alone.
    let cut = -1;
    const key = groupKeys ? groupKeyAt(b, p, n) : 0;
    const lexed = !groupKeys || key >= 0;
    p = findFirstOf4LongIn(b, p, n, lf, cr, lexed ? hash : cr, lexed ? nul : cr);
    while (p < n) {
      const c = load<u8>(b + p);
      if (c == 0x0a || c == 0x0d) break;
      if (cut < 0) cut = p;
      p = findFirstOf4LongIn(b, p + 1, n, lf, cr, cr, cr);
    }
    if (p >= n) {
      lastLineCut = cut; // (the last line has no line end: it is lexed below, maybe at the next call)
      break;
    }
    const c = <u32>load<u8>(b + p);
    // The LF of a CRLF does not make an empty line of its own.
    const crlfContinuation = p == start && afterCR && c == 0x0a;
    if (!crlfContinuation) {
      ++lineNum;
      if (!groupKeys) line(start, p, cut, lineNum);
      else if (key >= 0) groupKeyLine(b, start, key, p, cut);
    }
    p++;
    start = p;
    afterCR = c == 0x0d;
  }
  lineStart = start;
  lastWasCR = afterCR;
  pos = p;
  if (p >= n && !finished && count + 2 <= cap) {
    ++lineNum;
    if (!groupKeys) line(lineStart, n, lastLineCut, lineNum);
    else {
      const key = groupKeyAt(b, lineStart, n);
      if (key >= 0) groupKeyLine(b, lineStart, key, n, lastLineCut);
    }
    finished = true;
  }
  return count;
}

function emit(type: i32, kind: i32, facts: i32, a: i32, b: i32, c: i32, d: i32): void {
  const r = out + <usize>count * (LEX_FIELDS << 2);
  store<i32>(r, lineNum, LEX_LINE << 2);
  store<i32>(r, type, LEX_TYPE << 2);
  store<i32>(r, kind, LEX_KEY << 2);
  store<i32>(r, facts, LEX_FACTS << 2);
  store<i32>(r, a, LEX_KEY_START << 2);
  store<i32>(r, b, LEX_KEY_END << 2);
  store<i32>(r, c, LEX_VALUE_START << 2);
  store<i32>(r, d, LEX_VALUE_END << 2);
  count++;
}

/** The line body[start, end), whose first '#' or NUL is at cut (-1: none). */
@inline function line(start: i32, end: i32, cut: i32, num: i32): void {
  if (end - start > LEX_MAX_LINE_OCTETS) emit(LEX_TYPE_TRUNCATED, 0, LINE_TOO_LONG, start, start + LEX_MAX_LINE_OCTETS, 0, 0);
  const type = splitLine(body, start, end, cut);
  if (type == LINE_EMPTY) return;
  if (type == LEX_TYPE_INVALID) emit(LEX_TYPE_INVALID, 0, lineFacts, lineStartAt, lineEndAt, 0, 0);
  else emit(LEX_TYPE_RECORD, lineKey, lineFacts, lineStartAt, keyEndAt, valueStartAt, lineEndAt);
}

/** Bit k set: a line of key kind k is a reader of groups' (lexRunGroupKeys: the others get no record). */
const GROUP_KEY_KINDS: i32 =
  (1 << KEY_USER_AGENT) | (1 << KEY_ALLOW) | (1 << KEY_DISALLOW) | (1 << KEY_CONTENT_USAGE) | (1 << KEY_CONTENT_SIGNAL) | (1 << KEY_LICENSE) | (1 << KEY_LLM_POLICY);

// The keys as most lines write them, in any case, right before their colon:
// such a line is split in a few loads, as splitLine would split it (the
// colon is the line's first, the key is classify's canonical one, and nothing
// before it is a blank, a '#' or a NUL): the selector's lines (select.ts) and the
// audit's (groupKeyLine, below).
const KEY_DISALLOW_OCTETS: u64 = 0x776f6c6c61736964; // "disallow", little-endian
const KEY_USER_AGE_OCTETS: u64 = 0x6567612d72657375; // "user-age"
const KEY_USER_AGE_CASE: u64 = 0x2020200020202020; // (the '-' is not case-folded)
const KEY_ALLO_OCTETS: u32 = 0x6f6c6c61; // "allo"

/** The key kind when the line at q starts with "disallow:", "allow:" or
 * "user-agent:" (any case) before its end e; else 0. */
@inline export function canonicalKey(b: usize, q: i32, e: i32): i32 {
  const c = load<u8>(b + q) | 0x20;
  if (c == 0x64) {
    if (q + 8 < e && (load<u64>(b + q) | 0x2020202020202020) == KEY_DISALLOW_OCTETS && load<u8>(b + q, 8) == 0x3a) return KEY_DISALLOW;
  } else if (c == 0x61) {
    if (q + 5 < e && (load<u32>(b + q) | 0x20202020) == KEY_ALLO_OCTETS && (load<u8>(b + q, 4) | 0x20) == 0x77 && load<u8>(b + q, 5) == 0x3a) return KEY_ALLOW;
  } else if (c == 0x75) {
    if (q + 10 < e && (load<u64>(b + q) | KEY_USER_AGE_CASE) == KEY_USER_AGE_OCTETS && (load<u16>(b + q, 8) | 0x2020) == 0x746e && load<u8>(b + q, 10) == 0x3a) return KEY_USER_AGENT;
  }
  return 0;
}

/** The octets of a key canonicalKey found, up to its colon. */
@inline export function keyLength(kind: i32): i32 {
  return kind == KEY_DISALLOW ? 8 : kind == KEY_ALLOW ? 5 : 10;
}

/** lexRunGroupKeys' record of the line b[start, end) (its first '#' or NUL at cut, -1: none; its key's first
 * octet at key), when it is of a kind a reader of groups reads. A line that starts with "disallow:", "allow:" or
 * "user-agent:" (any case) within its content has its colon first and its key canonical: its value is found
 * here as splitLine would find it; the others are splitLine's. */
@inline function groupKeyLine(b: usize, start: i32, key: i32, end: i32, cut: i32): void {
  let to = end;
  if (to - start > LEX_MAX_LINE_OCTETS) to = start + LEX_MAX_LINE_OCTETS;
  if (cut >= 0 && cut < to) to = cut;
  const canonical = canonicalKey(b, key, to);
  if (canonical != 0) {
    // (splitLine's value: the content's trailing spaces dropped, down to the colon at most, then its leading.)
    let valueStart = key + keyLength(canonical) + 1;
    while (to > valueStart && isSpace(load<u8>(b + to - 1))) to--;
    while (valueStart < to && isSpace(load<u8>(b + valueStart))) valueStart++;
    groupKeyRecord(canonical, valueStart, to);
    return;
  }
  if (splitLine(b, start, end, cut) != LEX_TYPE_RECORD) return;
  const kind = lineKey & KEY_KIND;
  if (((GROUP_KEY_KINDS >>> kind) & 1) != 0) groupKeyRecord(kind, valueStartAt, lineEndAt);
}

/** lexRunGroupKeys' record: four of the fields. */
@inline function groupKeyRecord(kind: i32, valueStart: i32, valueEnd: i32): void {
  const r = out + <usize>count * (LEX_FIELDS << 2);
  store<i32>(r, lineNum, LEX_LINE << 2);
  store<i32>(r, kind, LEX_KEY << 2);
  store<i32>(r, valueStart, LEX_VALUE_START << 2);
  store<i32>(r, valueEnd, LEX_VALUE_END << 2);
  count++;
}

/** splitLine's verdict on a line with no content (blank, or a comment). */
export const LINE_EMPTY: i32 = -1;
// What splitLine found: the line's content [lineStartAt, lineEndAt), its key
// [lineStartAt, keyEndAt) and kind (classify's), its value [valueStartAt, lineEndAt), its facts.
export let lineStartAt: i32 = 0;
export let lineEndAt: i32 = 0;
export let keyEndAt: i32 = 0;
export let valueStartAt: i32 = 0;
export let lineKey: i32 = 0;
export let lineFacts: i32 = 0;

/** Splits the line b[start, end), whose first '#' or NUL is at cut (-1: none),
 * as Google's parser does: LEX_TYPE_RECORD (key and value), LEX_TYPE_INVALID
 * (content without that form) or LINE_EMPTY; the parts in the globals above.
 * (The selector, select.ts, reads lines with it too.) */
@inline export function splitLine(b: usize, start: i32, end: i32, cut: i32): i32 {
  let facts = 0;
  if (end - start > LEX_MAX_LINE_OCTETS) {
    end = start + LEX_MAX_LINE_OCTETS;
    facts |= LINE_TOO_LONG;
  }
  // Google reads the line as a C string: it ends at the first NUL, and at '#'.
  if (cut >= 0 && cut < end) end = cut;
  while (start < end && isSpace(load<u8>(b + start))) start++;
  while (end > start && isSpace(load<u8>(b + end - 1))) end--;
  if (start == end) return LINE_EMPTY;
  lineStartAt = start;
  lineEndAt = end;
  lineFacts = facts;

  let sep = findFirstOf(b, start, end, 0x3a, 0x3a, 0x3a);
  if (sep == end) sep = -1;
  let valueStart: i32;
  if (sep >= 0) {
    valueStart = sep + 1;
  } else {
    // Google accepts whitespace instead of the colon when the line has exactly two words.
    sep = findFirstOf(b, start, end, 0x20, 0x09, 0x09);
    if (sep == end) return LEX_TYPE_INVALID;
    valueStart = sep;
    while (load<u8>(b + valueStart) == 0x20 || load<u8>(b + valueStart) == 0x09) valueStart++;
    if (findFirstOf(b, valueStart, end, 0x20, 0x09, 0x09) < end) return LEX_TYPE_INVALID;
    lineFacts = facts | LINE_MISSING_COLON;
  }
  let keyEnd = sep;
  while (keyEnd > start && isSpace(load<u8>(b + keyEnd - 1))) keyEnd--;
  if (keyEnd == start) return LEX_TYPE_INVALID;
  while (valueStart < end && isSpace(load<u8>(b + valueStart))) valueStart++;
  keyEndAt = keyEnd;
  valueStartAt = valueStart;
  lineKey = classify(b, start, keyEnd);
  return LEX_TYPE_RECORD;
}

/** Google's Key::Parse: the first alias the key starts with, case-insensitively
 * (the keys Google's parser does not know, content-usage and those after it, are
 * recognised the same way: a longer key is accepted as a typo). Only the aliases
 * with the key's first letter can match (they are in Google's order, grouped by
 * first letter): at most six to try, not nineteen. Each is compared in one step:
 * the key's first 16 octets with the case bit (0x20) set against the alias's
 * (readable: CORE_READ_SLACK). For the octets an alias has (letters, '-', ' ')
 * that is the compare of letters lower-cased: only CR and NUL also map to '-'
 * and ' ', and neither is in a key (a line ends at CR and is cut at NUL). */
function classify(b: usize, start: i32, end: i32): i32 {
  const len = end - start;
  let first = <u32>load<u8>(b + start);
  if (first - 0x41 < 26) first |= 0x20;
  let from = 0;
  let to = 0;
  if (first == 0x75) to = 3; // u: user-agent, useragent, user agent
  else if (first == 0x61) { from = 3; to = 4; } // a: allow
  else if (first == 0x64) { from = 4; to = 10; } // d: disallow and its typos
  else if (first == 0x73) { from = 10; to = 12; } // s: sitemap, site-map
  else if (first == 0x63) { from = 12; to = 17; } // c: crawl-delay (3 ways), content-usage, content-signal
  else if (first == 0x6c) { from = 17; to = ALIASES; } // l: license, llm-policy
  if (from == to) return KEY_UNKNOWN;
  const key = v128.or(v128.load(b + start), i8x16.splat(0x20));
  for (let a = from; a < to; a++) {
    const t = ALIAS_TABLE + (<usize>a << 2);
    const alen = <i32>load<u8>(t);
    if (len < alen) continue;
    const all = (<u32>1 << <u32>alen) - 1;
    if ((i8x16.bitmask(i8x16.eq(key, v128.load(ALIAS_OCTETS + (<usize>a << 4)))) & all) != all) continue;
    const kind = <i32>load<u8>(t, 1);
    const canonical = load<u8>(t, 2) != 0;
    return kind | (!canonical || len != alen ? KEY_TYPO : 0);
  }
  return KEY_UNKNOWN;
}

// The robots.txt lexer in WASM: Google's RobotsTxtParser line handling (robots.cc)
// octet for octet, as src/engine/parse/lexer.ts documents it. It writes one record per line
// with content to an output buffer; the host reads them and builds the groups.
// Resumable: lexRun stops when the buffer is full and goes on at the next call.
import { findFirstOf, findFirstOfLong, findFirstOf4Long } from "../base/scan";
import {
  KEY_ALLOW, KEY_CONTENT_SIGNAL, KEY_CONTENT_USAGE, KEY_CRAWL_DELAY, KEY_DISALLOW, KEY_LICENSE, KEY_LLM_POLICY, KEY_SITEMAP,
  KEY_TYPO, KEY_UNKNOWN, KEY_USER_AGENT,
  LEX_FACTS, LEX_FIELDS, LEX_KEY, LEX_KEY_END, LEX_KEY_START, LEX_LINE, LEX_MAX_LINE_OCTETS, LEX_TYPE,
  LEX_TYPE_INVALID, LEX_TYPE_RECORD, LEX_TYPE_TRUNCATED, LEX_VALUE_END, LEX_VALUE_START, LINE_MISSING_COLON, LINE_TOO_LONG,
} from "../../src/engine/wasm/layout";

// The record layout (LEX_* fields, key kinds, line facts) is src/engine/wasm/layout.ts's.

// Key aliases in Google's order: text octets, then (offset, length, kind, canonical) each.
const ALIAS_TEXT = memory.data<u8>([117, 115, 101, 114, 45, 97, 103, 101, 110, 116, 117, 115, 101, 114, 97, 103, 101, 110, 116, 117, 115, 101, 114, 32, 97, 103, 101, 110, 116, 97, 108, 108, 111, 119, 100, 105, 115, 97, 108, 108, 111, 119, 100, 105, 115, 115, 97, 108, 108, 111, 119, 100, 105, 115, 115, 97, 108, 111, 119, 100, 105, 115, 97, 108, 111, 119, 100, 105, 97, 115, 108, 108, 111, 119, 100, 105, 115, 97, 108, 108, 97, 119, 115, 105, 116, 101, 109, 97, 112, 115, 105, 116, 101, 45, 109, 97, 112, 99, 114, 97, 119, 108, 45, 100, 101, 108, 97, 121, 99, 114, 97, 119, 108, 32, 100, 101, 108, 97, 121, 99, 114, 97, 119, 108, 100, 101, 108, 97, 121, 99, 111, 110, 116, 101, 110, 116, 45, 117, 115, 97, 103, 101, 99, 111, 110, 116, 101, 110, 116, 45, 115, 105, 103, 110, 97, 108, 108, 105, 99, 101, 110, 115, 101, 108, 108, 109, 45, 112, 111, 108, 105, 99, 121]);
const ALIAS_TABLE = memory.data<u8>([
  0, 10, <u8>KEY_USER_AGENT, 1, // user-agent
  10, 9, <u8>KEY_USER_AGENT, 0, // useragent
  19, 10, <u8>KEY_USER_AGENT, 0, // user agent
  29, 5, <u8>KEY_ALLOW, 1, // allow
  34, 8, <u8>KEY_DISALLOW, 1, // disallow
  42, 9, <u8>KEY_DISALLOW, 0, // dissallow
  51, 8, <u8>KEY_DISALLOW, 0, // dissalow
  59, 7, <u8>KEY_DISALLOW, 0, // disalow
  66, 8, <u8>KEY_DISALLOW, 0, // diasllow
  74, 8, <u8>KEY_DISALLOW, 0, // disallaw
  82, 7, <u8>KEY_SITEMAP, 1, // sitemap
  89, 8, <u8>KEY_SITEMAP, 0, // site-map
  97, 11, <u8>KEY_CRAWL_DELAY, 1, // crawl-delay
  108, 11, <u8>KEY_CRAWL_DELAY, 0, // crawl delay
  119, 10, <u8>KEY_CRAWL_DELAY, 0, // crawldelay
  129, 13, <u8>KEY_CONTENT_USAGE, 1, // content-usage
  142, 14, <u8>KEY_CONTENT_SIGNAL, 1, // content-signal (Cloudflare's Content Signals Policy)
  156, 7, <u8>KEY_LICENSE, 1, // license (RSL)
  163, 10, <u8>KEY_LLM_POLICY, 1, // llm-policy
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

/** Lines emitted so far (the final count once lexDone). */
export function lexLines(): i32 {
  return lineNum;
}

export function lexDone(): bool {
  return finished;
}

/** Lexes on; writes at most cap records at o. Returns the number written. */
export function lexRun(o: usize, cap: i32): i32 {
  out = o;
  count = 0;
  const n = size;
  const b = body;
  let p = pos;
  while (p < n) {
    if (count + 2 > cap) break;
    // One scan finds the line's end and its first '#' or NUL (where Google's C
    // string reading ends it), not one scan for each.
    let cut = -1;
    p = findFirstOf4Long(b, p, n, 0x0a, 0x0d, 0x23, 0);
    while (p < n) {
      const c = load<u8>(b + p);
      if (c == 0x0a || c == 0x0d) break;
      if (cut < 0) cut = p;
      p = findFirstOfLong(b, p + 1, n, 0x0a, 0x0d, 0x0d);
    }
    if (p >= n) {
      lastLineCut = cut; // (the last line has no line end: it is lexed below, maybe at the next call)
      break;
    }
    const c = <u32>load<u8>(b + p);
    // The LF of a CRLF does not make an empty line of its own.
    const crlfContinuation = p == lineStart && lastWasCR && c == 0x0a;
    if (!crlfContinuation) line(lineStart, p, cut, ++lineNum);
    p++;
    lineStart = p;
    lastWasCR = c == 0x0d;
  }
  pos = p;
  if (p >= n && !finished && count + 2 <= cap) {
    line(lineStart, n, lastLineCut, ++lineNum);
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
function line(start: i32, end: i32, cut: i32, num: i32): void {
  if (end - start > LEX_MAX_LINE_OCTETS) emit(LEX_TYPE_TRUNCATED, 0, LINE_TOO_LONG, start, start + LEX_MAX_LINE_OCTETS, 0, 0);
  const type = splitLine(body, start, end, cut);
  if (type == LINE_EMPTY) return;
  if (type == LEX_TYPE_INVALID) emit(LEX_TYPE_INVALID, 0, lineFacts, lineStartAt, lineEndAt, 0, 0);
  else emit(LEX_TYPE_RECORD, lineKey, lineFacts, lineStartAt, keyEndAt, valueStartAt, lineEndAt);
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
    for (let i = start; i < end; i++) {
      const c = load<u8>(b + i);
      if (c == 0x20 || c == 0x09) {
        sep = i;
        break;
      }
    }
    if (sep < 0) return LEX_TYPE_INVALID;
    valueStart = sep;
    while (load<u8>(b + valueStart) == 0x20 || load<u8>(b + valueStart) == 0x09) valueStart++;
    for (let i = valueStart; i < end; i++) {
      const c = load<u8>(b + i);
      if (c == 0x20 || c == 0x09) return LEX_TYPE_INVALID;
    }
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
 * first letter): at most six to try, not nineteen. */
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
  for (let a = from; a < to; a++) {
    const t = ALIAS_TABLE + (<usize>a << 2);
    const off = <usize>load<u8>(t);
    const alen = <i32>load<u8>(t, 1);
    if (len < alen) continue;
    let k = 0;
    while (k < alen) {
      let c = <u32>load<u8>(b + start + k);
      if (c - 0x41 < 26) c |= 0x20;
      if (c != <u32>load<u8>(ALIAS_TEXT + off + k)) break;
      k++;
    }
    if (k < alen) continue;
    const kind = <i32>load<u8>(t, 2);
    const canonical = load<u8>(t, 3) != 0;
    return kind | (!canonical || len != alen ? KEY_TYPO : 0);
  }
  return KEY_UNKNOWN;
}

// Bulk classification for the `robots classify` command: a block of input lines
// in, output lines out, with no JavaScript per URL. splitLines finds the URLs
// (and, for --robots-dir, their hosts); classifyLines decides a run of them
// against one matcher and writes `allowed|disallowed<TAB>line<TAB>url` or a
// JSON line for each.
import { CLASSIFY_MAX_CRAWLERS, SLOT_OPERATOR, SLOT_PURPOSES, USAGE_JSON_OCTETS, USAGE_TSV_OCTETS, FLAG_GOOGLE, H_FLAGS, H_LINES, H_OUT_ALLOW, H_OUT_DISALLOW, H_TEXTS, H_TEXTS_MAX, LINE_HOST_LENGTH, LINE_HOST_START, LINE_LENGTH, LINE_RECORD, LINE_START, NO_RULE, RUN_FIRST_LINE, RUN_HOST_HASH1, RUN_HOST_HASH2, RUN_ORIGIN_HASH, RUN_RECORD, UNREACHABLE_MATCHER } from "../../src/engine/wasm/layout";
import { findFirstBelow, findFirstOf, findFirstOf4 } from "../base/scan";
import { decide } from "../match/decide";
import { beginRun, extractPathInRun } from "../parse/path";
import { hexLower, hexUpper } from "../base/hex";
import { writeAscii } from "../base/ascii";
import { ALWAYS, NEVER, PATTERN_MATCHERS, beginPatterns, buildTails, countPurposes, endPatterns, operatorSays, patternBit, slotKind, writeOperatorColumn, writeOperatorJson, writePatternRow, writeTsvColumns, writeUsageTail } from "./crawler-columns";

/** Where the last splitLines stopped (offset of the first line not taken). */
let splitEnd: i32 = 0;
/** Runs of one host found by the last splitLines. */
let runCount: i32 = 0;
/** Where the last classifyLines stopped writing, and how many it allowed. */
let outEnd: usize = 0;
let allowedCount: i32 = 0;
/** The last splitLines met a C0 control other than a line's LF (or a CRLF's CR):
 * its URLs are echoed with their controls percent-encoded (%09), a TSV's
 * columns and every output's lines kept whole. Rare: the common block copies. */
let splitControls: bool = false;

export function lastSplitEnd(): i32 {
  return splitEnd;
}

export function lastRunCount(): i32 {
  return runCount;
}

export function lastOutEnd(): usize {
  return outEnd;
}

export function lastAllowedCount(): i32 {
  return allowedCount;
}

@inline function isBlank(c: u32): bool {
  return c == 0x20 || (c >= 0x09 && c <= 0x0d); // space, \t \n \v \f \r
}

/**
 * Records the non-blank lines of buf[0, n) (ended by LF; the last one may be
 * unterminated), trimmed of ASCII whitespace, at most maxRecords of them, with
 * the span of each URL's host; and the runs of consecutive lines whose hosts
 * are equal (case-insensitively), so the host is looked at once per run.
 * Returns the line count; lastSplitEnd() tells where it stopped and
 * lastRunCount() how many runs it wrote. The caller keeps 16 readable octets
 * past n (SIMD scans).
 */
export function splitLines(buf: usize, n: i32, recs: usize, runs: usize, maxRecords: i32): i32 {
  let count: i32 = 0;
  let nruns: i32 = 0;
  let h1: u32 = 0;
  let h2: u32 = 0;
  let o1: u32 = 0;
  let prevOrigin: usize = 0;
  let prevLen: i32 = -1;
  let i: i32 = 0;
  let controls = false;
  while (i < n && count < maxRecords) {
    // The line's end, and any other control octet on the way (one SIMD compare either way).
    let eol = findFirstBelow(buf, i, n, 0x20);
    while (eol < n) {
      const c = load<u8>(buf + eol);
      if (c == 0x0a) break;
      if (c == 0x0d && eol + 1 < n && load<u8>(buf + eol + 1) == 0x0a) {
        eol++; // a CRLF: the CR is trimmed with the line's blanks
        break;
      }
      controls = true;
      eol = findFirstBelow(buf, eol + 1, n, 0x20);
    }
    let a = i;
    let b = eol;
    i = eol + 1;
    while (a < b && isBlank(load<u8>(buf + a))) a++;
    while (b > a && isBlank(load<u8>(buf + b - 1))) b--;
    if (a == b) continue;
    hostSpan(buf + a, b - a);
    const r = recs + <usize>count * LINE_RECORD;
    store<i32>(r, a, LINE_START);
    store<i32>(r, b - a, LINE_LENGTH);
    store<i32>(r, a + hostStart, LINE_HOST_START);
    store<i32>(r, hostEnd - hostStart, LINE_HOST_LENGTH);
    // Consecutive URLs mostly share an origin: hash it only when the octets up
    // to the end of the authority change. A run is one origin (scheme, host and
    // port: each has its own robots.txt); its hashes are its host's (the hosts counted).
    // A host not written as its origin names it (see canonicalHost) is flagged
    // for JavaScript to canonicalise (an even hash1); a lone line (see hostSpan)
    // is a run of its own.
    const origin = buf + a;
    if (count == 0 || lone || authorityEnd != prevLen || !sameOctets(origin, prevOrigin, authorityEnd)) {
      prevOrigin = origin;
      prevLen = lone ? -1 : authorityEnd;
      hashHost(origin + hostStart, hostEnd - hostStart);
      hashSchemeAndPort(origin + schemeStart, schemeEnd - schemeStart, origin + hostEnd, authorityEnd - hostEnd);
      if (lone || (hostEnd > hostStart && !hostCanonical)) hash1 = (hash1 & ~1) == 0 ? 2 : hash1 & ~1;
    }
    if (count == 0 || lone || hash1 != h1 || hash2 != h2 || originHash != o1) {
      h1 = hash1;
      h2 = hash2;
      o1 = originHash;
      const q = runs + <usize>nruns * RUN_RECORD;
      store<i32>(q, count, RUN_FIRST_LINE);
      store<u32>(q, h1, RUN_HOST_HASH1);
      store<u32>(q, h2, RUN_HOST_HASH2);
      store<u32>(q, o1, RUN_ORIGIN_HASH);
      nruns++;
    }
    count++;
  }
  splitEnd = i < n ? i : n;
  runCount = nruns;
  splitControls = controls;
  return count;
}

/** a[0, n) == b[0, n), 8 octets at a time. */
@inline function sameOctets(a: usize, b: usize, n: i32): bool {
  let i: i32 = 0;
  for (; i + 8 <= n; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  for (; i < n; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

let hash1: u32 = 0;
let hash2: u32 = 0;

/** Octets a host written as its origin names it holds (letters, digits, '-', '.'): 0 in this table. */
const HOST_OCTETS = memory.data<u8>([
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
  1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
  1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
]);

/** Two independent hashes (FNV-1a, two bases) of the lower-cased host; 0, 0 for none. Also
 * whether it is written as its origin names it (see canonicalHost). */
function hashHost(h: usize, n: i32): void {
  let x: u32 = 0x811c9dc5;
  let y: u32 = 0x050c5d1f;
  let other: u32 = 0;
  let label: i32 = 0; // where the last label starts
  for (let i: i32 = 0; i < n; i++) {
    let c = <u32>load<u8>(h + i);
    other |= <u32>load<u8>(HOST_OCTETS + c);
    if (c == 0x2e) label = i + 1;
    if (c - 0x41 < 26) c |= 0x20;
    x = (x ^ c) * 0x01000193;
    y = (y ^ c) * 0x01000193 + 0x9e3779b9;
  }
  hash1 = n == 0 ? 0 : x | 1;
  hash2 = n == 0 ? 0 : y;
  hostCanonical = n > 0 && other == 0 && canonicalHost(h + label, n - label);
}

/** The last hashed host is written as its origin names it. */
let hostCanonical: bool = false;

let originHash: u32 = 0;

/** A hash of the lower-cased scheme s[0, n) and the port span p[0, m) (":8080"). */
function hashSchemeAndPort(s: usize, n: i32, p: usize, m: i32): void {
  let x: u32 = 0x811c9dc5;
  for (let i: i32 = 0; i < n; i++) {
    let c = <u32>load<u8>(s + i);
    if (c - 0x41 < 26) c |= 0x20;
    x = (x ^ c) * 0x01000193;
  }
  for (let i: i32 = 0; i < m; i++) x = (x ^ <u32>load<u8>(p + i)) * 0x01000193;
  originHash = x;
}

let hostStart: i32 = 0;
let hostEnd: i32 = 0;
/** Where the scheme starts and ends (both 0 for `//host` or no host), and where the authority ends (0 for no host). */
let schemeStart: i32 = 0;
let schemeEnd: i32 = 0;
let authorityEnd: i32 = 0;
/** The last hostSpan's URL has a special scheme (WHATWG's: http, https, ws, wss, ftp; or `//`). */
let special: bool = false;
/** Its authority may not be where WHATWG finds it: a tab or CR (which WHATWG drops) in another
 * scheme or before its `//`. Such a line is a run of its own, which JavaScript parses. */
let lone: bool = false;

/**
 * The host of the URL u[0, n), where WHATWG URL finds it: after leading
 * controls and spaces, `scheme:` and for a special scheme any '/' and '\'
 * (else `//`), or after a leading `//`; up to the first '/', '\' (special
 * schemes), '?' or '#'; after the last '@', before a port's ':'. Empty
 * (hostStart == hostEnd) when the URL names none. Also where the scheme and
 * the authority (the port with it) end.
 */
function hostSpan(u: usize, n: i32): void {
  hostStart = hostEnd = schemeStart = schemeEnd = authorityEnd = 0;
  special = lone = false;
  let s: i32 = 0;
  while (s < n && load<u8>(u + s) <= 0x20) s++;
  let a: i32 = -1;
  // Most URLs start "http://" or "https://" (any case): one 8-octet load tells.
  const head = load<u64>(u + s) | 0x20202020; // (16 readable octets past the line: splitLines' caller keeps them)
  if (s + 8 <= n && (head | 0x2000000000) == HTTPS && load<u8>(u + s + 8) != 0x2f && load<u8>(u + s + 8) != 0x5c) {
    schemeStart = s;
    schemeEnd = s + 5;
    special = true;
    a = s + 8;
  } else if (s + 7 <= n && (head & 0xffffffffffffff) == HTTP && load<u8>(u + s + 7) != 0x2f && load<u8>(u + s + 7) != 0x5c) {
    schemeStart = s;
    schemeEnd = s + 4;
    special = true;
    a = s + 7;
  } else if (s + 1 < n && load<u8>(u + s) == 0x2f && load<u8>(u + s + 1) == 0x2f) {
    a = s + 2;
    special = true;
  } else {
    const colon = findFirstOf4(u, s, n, 0x3a, 0x2f, 0x3f, 0x23);
    if (colon <= s || colon >= n || load<u8>(u + colon) != 0x3a) return;
    schemeStart = s;
    schemeEnd = colon;
    special = isSpecialScheme(u + s, colon - s);
    a = colon + 1;
    if (special) {
      // WHATWG skips any run of '/' and '\' (tabs and CRs it drops) before the host.
      while (a < n) {
        const c = load<u8>(u + a);
        if (c != 0x2f && c != 0x5c && c != 0x09 && c != 0x0d) break;
        a++;
      }
    } else {
      if (a + 1 >= n || load<u8>(u + a) != 0x2f || load<u8>(u + a + 1) != 0x2f) {
        lone = findFirstOf(u, s, a + 2 < n ? a + 2 : n, 0x09, 0x0d, 0x0d) < (a + 2 < n ? a + 2 : n);
        schemeStart = schemeEnd = 0; // (no host)
        return;
      }
      a += 2;
    }
  }
  let b = special ? findFirstOf4(u, a, n, 0x2f, 0x5c, 0x3f, 0x23) : findFirstOf(u, a, n, 0x2f, 0x3f, 0x23);
  authorityEnd = b;
  // (A special scheme's tabs are skipped with its slashes; the authority's own are
  // in the host's octets, which canonicalHost refuses.)
  if (!special) lone = findFirstOf(u, s, a, 0x09, 0x0d, 0x0d) < a;
  // Most hosts have no user info, port or brackets: one scan tells.
  if (findFirstOf(u, a, b, 0x40, 0x3a, 0x5b) < b) {
    for (let i = b - 1; i >= a; i--) {
      if (load<u8>(u + i) == 0x40) { a = i + 1; break; } // user info ends at the last '@'
    }
    if (a < b && load<u8>(u + a) == 0x5b) {
      // [IPv6]: the port, if any, follows the ']'
      for (let i = a; i < b; i++) {
        if (load<u8>(u + i) == 0x5d) { b = i + 1; break; }
      }
    } else {
      for (let i = a; i < b; i++) {
        if (load<u8>(u + i) == 0x3a) { b = i; break; }
      }
    }
  }
  hostStart = a;
  hostEnd = b;
}

/** "https://" and "http://" as little-endian octets. */
const HTTPS: u64 = 0x2f2f3a7370747468;
const HTTP: u64 = 0x2f2f3a70747468;

/** Is s[0, n) a special scheme (WHATWG; file aside, whose hosts are its own), in any case? */
@inline function isSpecialScheme(s: usize, n: i32): bool {
  if (n < 2 || n > 5) return false;
  const c0 = <u32>load<u8>(s) | 0x20;
  const c1 = <u32>load<u8>(s + 1) | 0x20;
  if (n == 2) return c0 == 0x77 && c1 == 0x73; // ws
  const c2 = <u32>load<u8>(s + 2) | 0x20;
  if (n == 3) return (c0 == 0x66 && c1 == 0x74 && c2 == 0x70) || (c0 == 0x77 && c1 == 0x73 && c2 == 0x73); // ftp, wss
  const c3 = <u32>load<u8>(s + 3) | 0x20;
  if (c0 != 0x68 || c1 != 0x74 || c2 != 0x74 || c3 != 0x70) return false;
  return n == 4 || (<u32>load<u8>(s + 4) | 0x20) == 0x73; // http, https
}

/**
 * Given a host of letters, digits, '-' and '.' only: is it as WHATWG URL names
 * it (up to ASCII case), its last label l[0, n) neither empty (a trailing dot)
 * nor a number (WHATWG reads "127.1", "0x7f.1" or "2130706433" as an IPv4
 * address), and no port after it (a default one is dropped, "080" is 80)?
 * Else JavaScript canonicalises it (origin-runs.ts): percent-escapes, IDN, IPv4
 * and IPv6 forms, a trailing dot, the port.
 */
@inline function canonicalHost(l: usize, n: i32): bool {
  if (hostEnd != authorityEnd || n == 0) return false;
  // WHATWG's "ends in a number": the last label all digits, or 0x and hex digits.
  let digits = true;
  for (let i: i32 = 0; i < n; i++) if (<u32>load<u8>(l + i) - 0x30 >= 10) { digits = false; break; }
  if (digits) return false;
  if (n >= 2 && load<u8>(l) == 0x30 && (<u32>load<u8>(l + 1) | 0x20) == 0x78) {
    for (let i: i32 = 2; i < n; i++) {
      const c = <u32>load<u8>(l + i);
      if (c - 0x30 >= 10 && (c | 0x20) - 0x61 >= 6) return true;
    }
    return false;
  }
  return true;
}

/** Output octets a record of len octets may take, at most (textMax: the longest rule text; escape: see splitControls). */
@inline function outputBound(len: i32, json: bool, textMax: u32, escape: bool): usize {
  return json ? (<usize>len + <usize>textMax) * 6 + 96 : <usize>len * (escape ? 3 : 1) + 32;
}

/**
 * Decides records [from, to) of buf against matcher m (0: no robots.txt, all
 * allowed; UNREACHABLE_MATCHER: all disallowed) and writes one output line each
 * (a JSON line says what the robots.txt was: label[0, labelLen) when given,
 * the rest of the line after the URL's string up to the verdict, e.g.
 * `","robots":"unavailable","http":404`; else from m)
 * from out, while they fit before outLimit. Returns the index of the first record not written; lastOutEnd()
 * tells where the output ends.
 */
export function classifyLines(m: usize, buf: usize, recs: usize, from: i32, to: i32, out: usize, outLimit: usize, json: bool, label: usize, labelLen: i32): i32 {
  return splitControls
    ? classifyLinesAs<Escaped>(m, buf, recs, from, to, out, outLimit, json, label, labelLen)
    : classifyLinesAs<AsWritten>(m, buf, recs, from, to, out, outLimit, json, label, labelLen);
}

/** How the writers echo URLs, as a type: each gets its own copy of the loop with
 * the choice folded away when compiled, so the common copy is the loop as it
 * was (with a run-time flag, the writers it took were no longer inlined). */
type AsWritten = u8;
/** C0 controls as %XX (see splitControls). */
type Escaped = u16;

function classifyLinesAs<E>(m: usize, buf: usize, recs: usize, from: i32, to: i32, out: usize, outLimit: usize, json: bool, label: usize, labelLen: i32): i32 {
  const escape = sizeof<E>() == 2;
  let o = out;
  let i = from;
  let allowedHere: i32 = 0;
  const real = m > <usize>UNREACHABLE_MATCHER;
  const flags: u32 = real ? load<u32>(m, H_FLAGS) : 0;
  const textMax: u32 = real ? load<u32>(m, H_TEXTS_MAX) : 0;
  const robots = real ? '","robots":"ok"' : m == 0 ? '","robots":"missing"' : '","robots":"unreachable"';
  const google = (flags & FLAG_GOOGLE) != 0;
  beginRun();
  for (; i < to; i++) {
    const r = recs + <usize>i * LINE_RECORD;
    const u = buf + <usize>load<i32>(r, LINE_START);
    const n = load<i32>(r, LINE_LENGTH);
    if (o + outputBound(n, json, textMax, escape) + <usize>labelLen > outLimit) break;
    let allowed = m != <usize>UNREACHABLE_MATCHER;
    let id: u32 = NO_RULE;
    if (real) {
      extractPathInRun(u, n, google);
      allowed = decide(m, u, flags, false) == 1;
      id = decidingRule(m);
    }
    const line: u32 = id == NO_RULE ? 0 : load<u32>(load<usize>(m, H_LINES) + (<usize>id << 2));
    allowedHere += <i32>allowed;
    o = json ? writeJson<E>(o, u, n, allowed, line, robots, label, labelLen, m, id) : writeTsv(o, u, n, allowed, line, escape);
  }
  outEnd = o;
  allowedCount = allowedHere;
  return i;
}

/** The rule behind Google's matching line of the last check: the
 * higher-priority rule, the allow on a tie (ids are ranks: the lower id). */
@inline function decidingRule(m: usize): u32 {
  const a = load<u32>(m, H_OUT_ALLOW);
  const d = load<u32>(m, H_OUT_DISALLOW);
  return d < a ? d : a;
}

@inline function writeTsv(o: usize, u: usize, n: i32, allowed: bool, line: u32, escape: bool): usize {
  if (allowed) {
    store<u64>(o, 0x096465776f6c6c61); // "allowed\t"
    o += 8;
  } else {
    store<u64>(o, 0x776f6c6c61736964); // "disallow"
    store<u16>(o, 0x6465, 8); // "ed"
    store<u8>(o, 0x09, 10);
    o += 11;
  }
  o = writeDecimal(o, line);
  store<u8>(o, 0x09);
  o = writeUrl(o + 1, u, n, escape);
  store<u8>(o, 0x0a);
  return o + 1;
}

/** The URL u[0, n) as it is; with escape, its C0 controls as %XX (see writeEscaped). */
@inline function writeUrl(o: usize, u: usize, n: i32, escape: bool): usize {
  if (escape) return writeEscaped(o, u, n);
  memory.copy(o, u, n);
  return o + <usize>n;
}

/** u[0, n) with its C0 controls as %XX (upper-case hex, as WHATWG percent-encodes); out of line: it is rare. */
function writeEscaped(o: usize, u: usize, n: i32): usize {
  for (let i: i32 = 0; i < n; i++) {
    const c = <u32>load<u8>(u + i);
    if (c < 0x20) {
      o = writePercent(o, c);
    } else {
      store<u8>(o, c);
      o++;
    }
  }
  return o;
}

/** "%XX" for a control octet c (< 0x20, so its high digit is 0 or 1), upper
 * case as WHATWG and src/cli/url-echo.ts write it (hex.ts). */
@inline function writePercent(o: usize, c: u32): usize {
  store<u8>(o, 0x25);
  store<u8>(o, c < 0x10 ? 0x30 : 0x31, 1);
  store<u8>(o, hexUpper(c & 15), 2);
  return o + 3;
}

/** A JSON line: the URL, what the robots.txt was, the verdict and line, and
 * the deciding rule's text (null when none, or when the matcher keeps no texts). */
@inline function writeJson<E>(o: usize, u: usize, n: i32, allowed: bool, line: u32, robots: string, label: usize, labelLen: i32, m: usize, id: u32): usize {
  o = writeAscii(o, '{"url":"');
  o = writeJsonChars<E>(o, u, n);
  if (labelLen > 0) {
    memory.copy(o, label, labelLen);
    o += <usize>labelLen;
  } else {
    o = writeAscii(o, robots);
  }
  o = writeAscii(o, allowed ? ',"allowed":true,"line":' : ',"allowed":false,"line":');
  o = writeDecimal(o, line);
  const texts: usize = m > <usize>UNREACHABLE_MATCHER ? load<usize>(m, H_TEXTS) : 0;
  {
    if (texts == 0 || id == NO_RULE) {
      o = writeAscii(o, ',"rule":null');
    } else {
      o = writeAscii(o, ',"rule":"');
      const at = texts + (<usize>id << 3);
      o = writeJsonChars<AsWritten>(o, texts + <usize>load<u32>(at), <i32>load<u32>(at, 4));
      store<u8>(o, 0x22);
      o++;
    }
  }
  store<u16>(o, 0x0a7d); // "}\n"
  return o + 2;
}

/** The octets u[0, n) as the inside of a JSON string (UTF-8 kept as it is); with
 * Escaped, a URL's controls as %XX, as TSV writes them (see splitControls), else
 * as \u00XX (a rule's text; a URL of a block without controls has none). */
function writeJsonChars<E>(o: usize, u: usize, n: i32): usize {
  const url = sizeof<E>() == 2;
  for (let i: i32 = 0; i < n; i++) {
    const c = <u32>load<u8>(u + i);
    if (c == 0x22 || c == 0x5c) {
      store<u8>(o, 0x5c);
      store<u8>(o, c, 1);
      o += 2;
    } else if (c < 0x20 && url) {
      o = writePercent(o, c);
    } else if (c < 0x20) {
      o = writeAscii(o, "\\u00");
      store<u8>(o, hexLower(c >> 4)); // (lower case, as JSON.stringify writes: hex.ts)
      store<u8>(o, hexLower(c & 15), 1);
      o += 2;
    } else {
      store<u8>(o, c);
      o++;
    }
  }
  return o;
}


function writeDecimal(o: usize, v: u32): usize {
  let digits: usize = 1;
  for (let x = v; x >= 10; x /= 10) digits++;
  let p = o + digits;
  do {
    p--;
    store<u8>(p, 0x30 + v % 10);
    v /= 10;
  } while (v != 0);
  return o + digits;
}

/** Most crawlers one classifyLinesMulti call answers for: layout.ts's CLASSIFY_MAX_CRAWLERS. */
const verdictOf = new StaticArray<u32>(CLASSIFY_MAX_CRAWLERS); // per crawler of a record: line << 1 | allowed
const sameAs = new StaticArray<i32>(CLASSIFY_MAX_CRAWLERS); // per crawler: the first with its matcher, or -1
/** The call's distinct matchers (0 and UNREACHABLE_MATCHER included), the first crawler of each; and the ones that walk. */
const distinct = new StaticArray<usize>(CLASSIFY_MAX_CRAWLERS);
const distinctFirst = new StaticArray<i32>(CLASSIFY_MAX_CRAWLERS);
const walking = new StaticArray<usize>(CLASSIFY_MAX_CRAWLERS);

/**
 * classifyLines for k crawlers at once: ms holds k matcher addresses (u32
 * each, 0 or UNREACHABLE_MATCHER as in classifyLines); crawlers with the same
 * address share one walk. TSV: `url<TAB>verdict…`; JSON: `{"url":…` then
 * label[0, labelLen) (what the robots.txt was), then for each crawler its name
 * fragment (names: k pairs of u32 offset and length, each fragment
 * `,"A":{"allowed":`, the first `,"crawlers":{"A":{"allowed":`),
 * `true,"line":N}`. The allowed verdicts are added to counts (k u32s).
 * With usage (not 0: k u32 purpose codes, layout.ts's USAGE_BITS, then k * 6
 * u32 counts), each crawler's purposes follow its verdict: what its code says
 * where it may fetch the URL, all unknown where not (robots.txt implies no
 * preference for what may not be fetched); JSON `,"usage":{"search":"allowed",
 * "train-ai":…,"ai-use":…}`, TSV three more columns. Crawler j's counts add
 * up, per purpose p, the URLs it is allowed (6j + 2p) and disallowed (6j + 2p + 1).
 * After those counts, k u32 kinds (layout.ts's SLOT_*): a crawler's columns with
 * or without its purposes, or an operator's word for one purpose (operator-slots.ts:
 * yes/no from the slot's verdict and code, or unknown), whose count is its yes.
 * JSON: slot 0's fragment opens "crawlers" (or "operators"), the first operator's
 * closes "crawlers" and opens "operators".
 */
export function classifyLinesMulti(ms: usize, k: i32, names: usize, counts: usize, buf: usize, recs: usize, from: i32, to: i32, out: usize, outLimit: usize, json: bool, label: usize, labelLen: i32, usage: usize): i32 {
  // The first crawler with each matcher, once for the call (not per URL), against the distinct ones so far.
  let nd = 0;
  let nw = 0;
  for (let j = 0; j < k; j++) {
    const m = <usize>load<u32>(ms + (<usize>j << 2));
    let same = -1;
    let t = 0;
    for (; t < nd; t++) {
      if (unchecked(distinct[t]) == m) {
        same = unchecked(distinctFirst[t]);
        break;
      }
    }
    if (same < 0) {
      unchecked((distinct[nd] = m));
      unchecked((distinctFirst[nd++] = j));
      if (m > <usize>UNREACHABLE_MATCHER) unchecked((walking[nw++] = m));
    }
    unchecked((sameAs[j] = same));
  }
  if (usage != 0) buildTails();
  if (!json && nw <= PATTERN_MATCHERS) {
    // Each crawler's bit: its matcher's place among those that walk.
    for (let j = 0; j < k; j++) {
      const m = <usize>load<u32>(ms + (<usize>j << 2));
      let bit = m == 0 ? ALWAYS : NEVER;
      if (m > <usize>UNREACHABLE_MATCHER) {
        bit = 0;
        while (unchecked(walking[bit]) != m) bit++;
      }
      unchecked((patternBit[j] = bit));
    }
    return splitControls
      ? classifyRowsByPattern<Escaped>(nw, k, counts, buf, recs, from, to, out, outLimit, usage)
      : classifyRowsByPattern<AsWritten>(nw, k, counts, buf, recs, from, to, out, outLimit, usage);
  }
  return splitControls
    ? classifyLinesMultiAs<Escaped>(nw, ms, k, names, counts, buf, recs, from, to, out, outLimit, json, label, labelLen, usage)
    : classifyLinesMultiAs<AsWritten>(nw, ms, k, names, counts, buf, recs, from, to, out, outLimit, json, label, labelLen, usage);
}

/** The profile of a call's matchers, when one walks (their flags say it); false when none does. */
@inline function googleProfile(nw: i32): bool {
  return nw > 0 && (load<u32>(unchecked(walking[0]), H_FLAGS) & FLAG_GOOGLE) != 0;
}

/** TSV lines for k crawlers whose nw (at most PATTERN_MATCHERS) distinct matchers that walk are walking[0, nw): a URL's verdicts are a key of nw bits, the line after its URL that key's row (crawler-columns.ts). */
function classifyRowsByPattern<E>(nw: i32, k: i32, counts: usize, buf: usize, recs: usize, from: i32, to: i32, out: usize, outLimit: usize, usage: usize): i32 {
  const escape = sizeof<E>() == 2;
  let o = out;
  let i = from;
  const google = googleProfile(nw);
  const perCrawler: usize = 11 + (usage == 0 ? 0 : USAGE_TSV_OCTETS);
  beginPatterns(k, usage);
  beginRun();
  for (; i < to; i++) {
    const r = recs + <usize>i * LINE_RECORD;
    const u = buf + <usize>load<i32>(r, LINE_START);
    const n = load<i32>(r, LINE_LENGTH);
    if (o + <usize>n * (escape ? 3 : 1) + 2 + <usize>k * perCrawler > outLimit) break;
    let key: u32 = 0;
    if (nw > 0) {
      extractPathInRun(u, n, google);
      for (let t = 0; t < nw; t++) {
        const m = unchecked(walking[t]);
        key |= <u32>(decide(m, u, load<u32>(m, H_FLAGS), false) == 1) << <u32>t;
      }
    }
    o = writeUrl(o, u, n, escape);
    o = writePatternRow(o, key);
  }
  endPatterns(counts);
  outEnd = o;
  return i;
}

/** Any call the patterns do not take (JSON lines, or more distinct matchers): crawler by crawler; nw as for classifyRowsByPattern. */
function classifyLinesMultiAs<E>(nw: i32, ms: usize, k: i32, names: usize, counts: usize, buf: usize, recs: usize, from: i32, to: i32, out: usize, outLimit: usize, json: bool, label: usize, labelLen: i32, usage: usize): i32 {
  const escape = sizeof<E>() == 2;
  let o = out;
  let i = from;
  let namesLen: usize = 0;
  if (json) for (let j = 0; j < k; j++) namesLen += <usize>load<u32>(names + (<usize>j << 3), 4);
  const google = googleProfile(nw);
  beginRun();
  for (; i < to; i++) {
    const r = recs + <usize>i * LINE_RECORD;
    const u = buf + <usize>load<i32>(r, LINE_START);
    const n = load<i32>(r, LINE_LENGTH);
    const perCrawler: usize = (json ? 24 : 11) + (usage == 0 ? 0 : json ? USAGE_JSON_OCTETS : USAGE_TSV_OCTETS);
    const bound: usize = (json ? <usize>n * 6 + 64 + <usize>labelLen + namesLen : <usize>n * (escape ? 3 : 1) + 2) + <usize>k * perCrawler;
    if (o + bound > outLimit) break;
    if (nw > 0) extractPathInRun(u, n, google);
    for (let j = 0; j < k; j++) {
      const m = <usize>load<u32>(ms + (<usize>j << 2));
      let v: u32 = m == <usize>UNREACHABLE_MATCHER ? 0 : 1;
      const same = unchecked(sameAs[j]);
      if (same >= 0) {
        v = unchecked(verdictOf[same]);
      } else if (m > <usize>UNREACHABLE_MATCHER) {
        const allowed = decide(m, u, load<u32>(m, H_FLAGS), false) == 1;
        const id = decidingRule(m);
        const line: u32 = id == NO_RULE ? 0 : load<u32>(load<usize>(m, H_LINES) + (<usize>id << 2));
        v = (line << 1) | <u32>allowed;
      }
      unchecked((verdictOf[j] = v));
      const c = counts + (<usize>j << 2);
      const kind = slotKind(usage, k, j);
      if (kind >= SLOT_OPERATOR) {
        // (An operator's count: its yes.)
        store<u32>(c, load<u32>(c) + <u32>(operatorSays(kind, (v & 1) != 0, load<u32>(usage + (<usize>j << 2))) == 1));
        continue;
      }
      store<u32>(c, load<u32>(c) + (v & 1));
      if (kind == SLOT_PURPOSES && (v & 1) != 0) countPurposes(usage + (<usize>k << 2) + <usize>j * 24, load<u32>(usage + (<usize>j << 2)));
    }
    if (json) {
      o = writeAscii(o, '{"url":"');
      o = writeJsonChars<E>(o, u, n);
      memory.copy(o, label, labelLen);
      o += <usize>labelLen;
      // (Slot 0's fragment opens "crawlers", or "operators"; the first operator's closes "crawlers" when there are crawlers.)
      for (let j = 0; j < k; j++) {
        const at = names + (<usize>j << 3);
        const len = <usize>load<u32>(at, 4);
        memory.copy(o, names + <usize>load<u32>(at), len);
        o += len;
        const v = unchecked(verdictOf[j]);
        const kind = slotKind(usage, k, j);
        if (kind >= SLOT_OPERATOR) {
          o = writeOperatorJson(o, kind, operatorSays(kind, (v & 1) != 0, load<u32>(usage + (<usize>j << 2))));
          continue;
        }
        o = writeAscii(o, (v & 1) != 0 ? 'true,"line":' : 'false,"line":');
        o = writeDecimal(o, v >> 1);
        if (kind == SLOT_PURPOSES) {
          // (A URL it may not fetch: every purpose unknown, code 0.)
          o = writeUsageTail(o, (v & 1) != 0 ? load<u32>(usage + (<usize>j << 2)) : 0);
        } else {
          store<u8>(o, 0x7d); // }
          o++;
        }
      }
      store<u16>(o, 0x7d7d); // }}
      store<u8>(o, 0x0a, 2);
      o += 3;
    } else {
      o = writeUrl(o, u, n, escape);
      for (let j = 0; j < k; j++) {
        const code = usage != 0 ? load<u32>(usage + (<usize>j << 2)) : 0;
        const kind = slotKind(usage, k, j);
        const allowed = (unchecked(verdictOf[j]) & 1) != 0;
        o = kind >= SLOT_OPERATOR ? writeOperatorColumn(o, operatorSays(kind, allowed, code)) : writeTsvColumns(o, allowed, kind == SLOT_PURPOSES, code);
      }
      store<u8>(o, 0x0a);
      o++;
    }
  }
  outEnd = o;
  return i;
}

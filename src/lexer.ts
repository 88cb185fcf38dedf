// The robots.txt lexer: bytes in, one callback per line out. It reproduces
// Google's RobotsTxtParser (robots.cc) octet for octet: BOM skipping, CR/LF/CRLF
// line ends, the line length cap, comments, the key/value split, the missing-colon
// rule and key recognition by prefix. What the lines mean is the handler's business
// (src/records.ts), as in Google's parser/handler split.
import { isUtf8 } from 'node:buffer';

export const KEY_USER_AGENT = 1;
export const KEY_ALLOW = 2;
export const KEY_DISALLOW = 3;
export const KEY_SITEMAP = 4;
export const KEY_CRAWL_DELAY = 5;
export const KEY_CONTENT_USAGE = 6;
export const KEY_UNKNOWN = 7;
export type KeyKind = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Google keeps at most 2083 * 8 - 1 octets of a line (its buffer's last slot holds the NUL). */
export const MAX_LINE_OCTETS = 2083 * 8 - 1;

/** Facts about a line, as bits. */
export const LINE_TYPO = 1; // the key was accepted by an alias or a typo (`useragent`, `dissallow`, `site-map`, ...)
export const LINE_MISSING_COLON = 2; // key and value were separated by whitespace, not a colon
export const LINE_TOO_LONG = 4; // octets past MAX_LINE_OCTETS were dropped
export const LINE_INVALID_UTF8 = 8; // the line's octets are not valid UTF-8

/** Receives the lines of a body. Key and value are given as offsets into the body. */
export interface LineHandler {
  /** A line with a key and a value. */
  record(line: number, kind: KeyKind, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, facts: number): void;
  /** A line with content (beyond comments and whitespace) that has no key/value form. */
  invalid(line: number, start: number, end: number, facts: number): void;
  /** A line cut at the line-length cap, reported even when nothing of it parsed. */
  truncated(line: number): void;
}

interface KeyAlias {
  text: Uint8Array;
  kind: KeyKind;
  canonical: boolean;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

// In Google's order: user-agent, allow, disallow, sitemap; then the other records we know.
const KEY_ALIASES: readonly KeyAlias[] = [
  { text: ascii('user-agent'), kind: KEY_USER_AGENT, canonical: true },
  { text: ascii('useragent'), kind: KEY_USER_AGENT, canonical: false },
  { text: ascii('user agent'), kind: KEY_USER_AGENT, canonical: false },
  { text: ascii('allow'), kind: KEY_ALLOW, canonical: true },
  { text: ascii('disallow'), kind: KEY_DISALLOW, canonical: true },
  { text: ascii('dissallow'), kind: KEY_DISALLOW, canonical: false },
  { text: ascii('dissalow'), kind: KEY_DISALLOW, canonical: false },
  { text: ascii('disalow'), kind: KEY_DISALLOW, canonical: false },
  { text: ascii('diasllow'), kind: KEY_DISALLOW, canonical: false },
  { text: ascii('disallaw'), kind: KEY_DISALLOW, canonical: false },
  { text: ascii('sitemap'), kind: KEY_SITEMAP, canonical: true },
  { text: ascii('site-map'), kind: KEY_SITEMAP, canonical: false },
  { text: ascii('crawl-delay'), kind: KEY_CRAWL_DELAY, canonical: true },
  { text: ascii('crawl delay'), kind: KEY_CRAWL_DELAY, canonical: false },
  { text: ascii('crawldelay'), kind: KEY_CRAWL_DELAY, canonical: false },
  { text: ascii('content-usage'), kind: KEY_CONTENT_USAGE, canonical: true },
];

/** absl::ascii_isspace: space, \t, \n, \v, \f, \r. */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function startsWithIgnoreCase(b: Uint8Array, start: number, end: number, prefix: Uint8Array): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    let c = b[start + i];
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c !== prefix[i]) return false;
  }
  return true;
}

/** The aliases to try, by the key's first letter (lower case). */
const ALIASES_BY_LETTER: KeyAlias[][] = Array.from({ length: 128 }, (_, c) =>
  KEY_ALIASES.filter((a) => a.text[0] === c),
);

/**
 * Classifies the key b[start, end) the way Google's Key::Parse does: by
 * case-insensitive prefix. Returns the kind, plus 8 when it is a typo or alias.
 */
export function classifyKey(b: Uint8Array, start: number, end: number): number {
  const first = b[start] | 0x20;
  if (first < 128) {
    for (const alias of ALIASES_BY_LETTER[first]) {
      if (startsWithIgnoreCase(b, start, end, alias.text)) {
        return alias.kind | (!alias.canonical || end - start !== alias.text.length ? KEY_TYPO : 0);
      }
    }
  }
  return KEY_UNKNOWN;
}

/** Set in classifyKey's result when the key was accepted by an alias, a typo or a longer word. */
export const KEY_TYPO = 8;

/** True when b[start, end) is valid UTF-8. */
export function isValidUtf8(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) (n = 1), (min = 0x80);
    else if (c >= 0xe0 && c <= 0xef) (n = 2), (min = 0x800);
    else if (c >= 0xf0 && c <= 0xf4) (n = 3), (min = 0x10000);
    else return false;
    if (i + n >= end) return false;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const cc = b[i + k];
      if ((cc & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

const BOM = [0xef, 0xbb, 0xbf];

// Per-body scan state of lex(): the next '#' and NUL (found with the native
// indexOf, never before the current line), and whether the body is all valid UTF-8.
let nextHash = 0;
let nextNul = 0;
let bodyIsUtf8 = true;

function next(b: Uint8Array, octet: number, from: number): number {
  const i = b.indexOf(octet, from);
  return i < 0 ? b.length : i;
}

/** Splits body into lines exactly as Google does and hands each to the handler. */
export function lex(body: Uint8Array, handler: LineHandler): number {
  let pos = 0;
  // A UTF-8 byte-order mark, or any prefix of one, is skipped.
  while (pos < BOM.length && pos < body.length && body[pos] === BOM[pos]) pos++;

  let lineNum = 0;
  let lineStart = pos;
  let lastWasCR = false;
  const n = body.length;
  nextHash = next(body, 0x23, pos);
  nextNul = next(body, 0, pos);
  bodyIsUtf8 = isUtf8(body.subarray(pos));
  // The next LF and CR at or after lineStart, found with the native indexOf.
  let lf = body.indexOf(0x0a, pos);
  let cr = body.indexOf(0x0d, pos);
  if (lf < 0) lf = n;
  if (cr < 0) cr = n;
  while (lineStart <= n) {
    const i = lf < cr ? lf : cr;
    if (i >= n) break;
    const c = body[i];
    // The LF of a CRLF does not make an empty line of its own.
    const crlfContinuation = i === lineStart && lastWasCR && c === 0x0a;
    if (!crlfContinuation) parseLine(body, lineStart, i, ++lineNum, handler);
    lineStart = i + 1;
    lastWasCR = c === 0x0d;
    if (c === 0x0a) {
      lf = body.indexOf(0x0a, lineStart);
      if (lf < 0) lf = n;
    } else {
      cr = body.indexOf(0x0d, lineStart);
      if (cr < 0) cr = n;
    }
  }
  parseLine(body, lineStart, n, ++lineNum, handler);
  return lineNum;
}

function parseLine(b: Uint8Array, start: number, end: number, lineNum: number, handler: LineHandler): void {
  let facts = 0;
  if (end - start > MAX_LINE_OCTETS) {
    end = start + MAX_LINE_OCTETS;
    facts |= LINE_TOO_LONG;
    handler.truncated(lineNum);
  }
  // Google reads the line as a C string: it ends at the first NUL, and at '#'.
  if (nextHash < start) nextHash = next(b, 0x23, start);
  if (nextNul < start) nextNul = next(b, 0, start);
  if (nextHash < end) end = nextHash;
  if (nextNul < end) end = nextNul;
  while (start < end && isSpace(b[start])) start++;
  while (end > start && isSpace(b[end - 1])) end--;
  if (start === end) return;
  if ((!bodyIsUtf8 || facts & LINE_TOO_LONG) && !isValidUtf8(b, start, end)) facts |= LINE_INVALID_UTF8;

  let sep = -1;
  for (let i = start; i < end; i++) {
    if (b[i] === 0x3a) {
      sep = i;
      break;
    }
  }
  let valueStart: number;
  if (sep >= 0) {
    valueStart = sep + 1;
  } else {
    // Google accepts whitespace instead of the colon when the line has exactly two words.
    for (let i = start; i < end; i++) {
      if (b[i] === 0x20 || b[i] === 0x09) {
        sep = i;
        break;
      }
    }
    if (sep < 0) return handler.invalid(lineNum, start, end, facts);
    valueStart = sep;
    while (b[valueStart] === 0x20 || b[valueStart] === 0x09) valueStart++;
    for (let i = valueStart; i < end; i++) {
      if (b[i] === 0x20 || b[i] === 0x09) return handler.invalid(lineNum, start, end, facts);
    }
    facts |= LINE_MISSING_COLON;
  }
  let keyEnd = sep;
  while (keyEnd > start && isSpace(b[keyEnd - 1])) keyEnd--;
  if (keyEnd === start) return handler.invalid(lineNum, start, end, facts);
  while (valueStart < end && isSpace(b[valueStart])) valueStart++;

  const key = classifyKey(b, start, keyEnd);
  if (key & KEY_TYPO) facts |= LINE_TYPO;
  handler.record(lineNum, (key & 7) as KeyKind, start, keyEnd, valueStart, end, facts);
}

// The robots.txt lexer: bytes in, one callback per line out. It reproduces
// Google's RobotsTxtParser (robots.cc) octet for octet: BOM skipping, CR/LF/CRLF
// line ends, the line length cap, comments, the key/value split, the missing-colon
// rule and key recognition by prefix. The scanning runs in the WASM core
// (assembly/lexer.ts), which writes one record per line; this module hands the
// records to a handler. What the lines mean is the handler's business
// (src/engine/parse/records.ts), as in Google's parser/handler split.
import { core } from '../wasm/core.js';

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

/** absl::ascii_isspace: space, \t, \n, \v, \f, \r. */
export function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Record layout written by the core (assembly/lexer.ts): REC_FIELDS i32s. */
export const REC_FIELDS = 8;
export const REC_LINE = 0;
export const REC_TYPE = 1;
export const REC_KEY = 2; // the KeyKind, | KEY_TYPO
const REC_FACTS = 3;
const REC_KEY_START = 4; // (the line's start for an invalid line)
const REC_KEY_END = 5; // (the line's end for an invalid line)
export const REC_VALUE_START = 6;
export const REC_VALUE_END = 7;
export const TYPE_RECORD = 0;
const TYPE_INVALID = 1;
const TYPE_TRUNCATED = 2;
const KEY_TYPO = 8;
/** Records per call into the core. */
const BATCH = 4096;

/**
 * Lexes body in the core and hands its line records to visit, a batch at a
 * time: records [from, to) of r (i32 indices, REC_FIELDS apart), read in place
 * (a copy is an allocation outside V8's heap). visit must not call the core
 * (its memory could grow, and the lexer's buffers be reused) but for isUtf8,
 * which allocates nothing. bodyPtr: where the body is in the core. Returns the line count.
 */
export function lexBatches(body: Uint8Array, visit: (r: Int32Array, from: number, to: number, bodyPtr: number) => void): number {
  const c = core();
  const { bodyPtr, recordsPtr } = c.lexerBuffers(body.length, BATCH * REC_FIELDS * 4);
  c.putBody(body, bodyPtr);
  const x = c.exports;
  x.lexBegin(bodyPtr, body.length);
  do {
    const count = x.lexRun(recordsPtr, BATCH);
    visit(c.i32, recordsPtr >>> 2, (recordsPtr >>> 2) + count * REC_FIELDS, bodyPtr);
  } while (!x.lexDone());
  return x.lexLines();
}

/** Splits body into lines exactly as Google does and hands each to the handler; returns the line count. */
export function lex(body: Uint8Array, handler: LineHandler): number {
  const x = core().exports;
  let bodyIsUtf8: boolean | undefined;
  return lexBatches(body, (r, from, to, bodyPtr) => {
    // (Validated by the core: no Node module in the engine.)
    bodyIsUtf8 ??= x.isUtf8(bodyPtr, body.length) !== 0;
    for (let i = from; i < to; i += REC_FIELDS) {
      const line = r[i + REC_LINE];
      const type = r[i + REC_TYPE];
      let facts = r[i + REC_FACTS];
      const start = r[i + REC_KEY_START];
      const end = type === TYPE_INVALID ? r[i + REC_KEY_END] : r[i + REC_VALUE_END];
      if (type === TYPE_TRUNCATED) {
        handler.truncated(line);
        continue;
      }
      // A line cut at the cap can split a character even in a valid body.
      if ((!bodyIsUtf8 || facts & LINE_TOO_LONG) && x.isUtf8(bodyPtr + start, end - start) === 0) facts |= LINE_INVALID_UTF8;
      if (type === TYPE_INVALID) {
        handler.invalid(line, start, end, facts);
      } else {
        const key = r[i + REC_KEY];
        if (key & KEY_TYPO) facts |= LINE_TYPO;
        handler.record(line, (key & 7) as KeyKind, start, r[i + REC_KEY_END], r[i + REC_VALUE_START], end, facts);
      }
    }
  });
}

// The robots.txt lexer: bytes in, one callback per line out. It reproduces
// Google's RobotsTxtParser (robots.cc) octet for octet: BOM skipping, CR/LF/CRLF
// line ends, the line length cap, comments, the key/value split, the missing-colon
// rule and key recognition by prefix. The scanning runs in the WASM core
// (assembly/parse/lexer.ts), which writes one record per line; this module hands the
// records to a handler. What the lines mean is the handler's business
// (src/engine/parse/records.ts), as in Google's parser/handler split.
import { core } from '../wasm/core.js';
import {
  KEY_KIND, KEY_TYPO, LEX_FACTS, LEX_FIELDS, LEX_KEY, LEX_KEY_END, LEX_KEY_START, LEX_LINE, LEX_MAX_LINE_OCTETS, LEX_TYPE,
  LEX_TYPE_INVALID, LEX_TYPE_RECORD, LEX_TYPE_TRUNCATED, LEX_VALUE_END, LEX_VALUE_START, LINE_INVALID_UTF8, LINE_TOO_LONG, LINE_TYPO,
} from '../wasm/layout.js';

// The records' layout, the key kinds and the line facts cross the WASM boundary:
// src/engine/wasm/layout.ts defines them once; the names below are this module's for its importers.
export {
  KEY_USER_AGENT, KEY_ALLOW, KEY_DISALLOW, KEY_SITEMAP, KEY_CRAWL_DELAY, KEY_CONTENT_USAGE, KEY_UNKNOWN,
  KEY_CONTENT_SIGNAL, KEY_LICENSE, KEY_LLM_POLICY, LINE_TYPO, LINE_MISSING_COLON, LINE_TOO_LONG, LINE_INVALID_UTF8,
} from '../wasm/layout.js';
export type KeyKind = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;

/** Google keeps at most 2083 * 8 - 1 octets of a line (its buffer's last slot holds the NUL). */
export const MAX_LINE_OCTETS = LEX_MAX_LINE_OCTETS;

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

/** Records per call into the core. */
const BATCH = 4096;

/**
 * Lexes body in the core and hands its line records to visit, a batch at a
 * time: records [from, to) of r (i32 indices, LEX_FIELDS apart), read in place
 * (a copy is an allocation outside V8's heap). visit must not call the core
 * (its memory could grow, and the lexer's buffers be reused) but for isUtf8,
 * which allocates nothing. bodyPtr: where the body is in the core. Returns the line count.
 * groupKeys: for a reader of groups (the audit's), records only of the lines of the kinds user-agent, allow,
 * disallow, content-usage, content-signal, license and llm-policy (their aliases and typos too), with four fields
 * each: LEX_LINE, LEX_KEY (the kind alone, no KEY_TYPO), LEX_VALUE_START, LEX_VALUE_END (the others not
 * written); the other lines are counted (their line numbers as ever), those whose first octet starts none of
 * those keys not even split (assembly/parse/lexer.ts lexRunGroupKeys).
 */
export function lexBatches(body: Uint8Array, visit: (r: Int32Array, from: number, to: number, bodyPtr: number) => void, groupKeys = false): number {
  const c = core();
  const { bodyPtr, recordsPtr } = c.lexerBuffers(body.length, BATCH * LEX_FIELDS * 4);
  c.putBody(body, bodyPtr);
  const x = c.exports;
  x.lexBegin(bodyPtr, body.length);
  do {
    const count = groupKeys ? x.lexRunGroupKeys(recordsPtr, BATCH) : x.lexRun(recordsPtr, BATCH);
    visit(c.i32, recordsPtr >>> 2, (recordsPtr >>> 2) + count * LEX_FIELDS, bodyPtr);
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
    for (let i = from; i < to; i += LEX_FIELDS) {
      const line = r[i + LEX_LINE];
      const type = r[i + LEX_TYPE];
      let facts = r[i + LEX_FACTS];
      const start = r[i + LEX_KEY_START];
      const end = type === LEX_TYPE_INVALID ? r[i + LEX_KEY_END] : r[i + LEX_VALUE_END];
      if (type === LEX_TYPE_TRUNCATED) {
        handler.truncated(line);
        continue;
      }
      // A line cut at the cap can split a character even in a valid body.
      if ((!bodyIsUtf8 || facts & LINE_TOO_LONG) && x.isUtf8(bodyPtr + start, end - start) === 0) facts |= LINE_INVALID_UTF8;
      if (type === LEX_TYPE_INVALID) {
        handler.invalid(line, start, end, facts);
      } else {
        const key = r[i + LEX_KEY];
        if (key & KEY_TYPO) facts |= LINE_TYPO;
        handler.record(line, (key & KEY_KIND) as KeyKind, start, r[i + LEX_KEY_END], r[i + LEX_VALUE_START], end, facts);
      }
    }
  });
}

// A set's rule values tokenized by the core (assembly/parse/tokenize.ts
// tokenizeRules, the compiler's: 16 octets at a time where they stand for
// themselves), over the body the lexer left in the core's memory, the tokens
// copied out into the audit's array, all of a set's values at once: the audit
// reads every rule of every site, and a loop in JavaScript over their octets was
// its largest. A test holds them equal to a reference in JavaScript
// (test/helpers/rule-tokens-reference.ts; test/bulk/audit-core-tokens.test.ts).
import { core } from '../../engine/wasm/core.js';
import { RANGE_RECORD, TOKENIZE_RESULT } from '../../engine/wasm/layout.js';

const RANGE_I32 = RANGE_RECORD >>> 2;
const RESULT_I32 = TOKENIZE_RESULT >>> 2;
/** Rules and tokens per call (the core's areas stay small: its memory never shrinks). */
const CHUNK_RULES = 2048;
const CHUNK_TOKENS = 16384;

/** The values' spans and, per value, where its tokens start and its priority: grown to the largest set. */
export const coreTokens = {
  /** body[spans[2i], spans[2i + 1]) is value i. */
  spans: new Int32Array(512),
  /** Value i's tokens are out[firsts[i], firsts[i + 1] - 1), then its terminal (TOKEN_ACCEPT, or TOKEN_ANCHOR after a `$`). */
  firsts: new Int32Array(257),
  priorities: new Int32Array(256),
};

/** Room in coreTokens for n values. */
export function roomForValues(n: number): void {
  if (coreTokens.priorities.length >= n) return;
  const m = Math.max(n, 2 * coreTokens.priorities.length);
  coreTokens.spans = new Int32Array(2 * m);
  coreTokens.firsts = new Int32Array(m + 1);
  coreTokens.priorities = new Int32Array(m);
}

/**
 * The tokens of the n values coreTokens.spans names (octets of body), written into out from `at` on (room for
 * 3 an octet and a terminal each), each value's start and priority into coreTokens. Returns the index past the
 * last token.
 */
export function tokenizeValues(body: Uint8Array, n: number, rfc: boolean, out: Uint16Array, at: number): number {
  const { spans, firsts, priorities } = coreTokens;
  let k = at;
  if (n > 0) {
    const c = core();
    // (The lexer left this body there: putBody copies it only when another took its place.)
    c.putBody(body, c.compilerBuffers(body.length, 0, 0).body);
    for (let first = 0; first < n; ) {
      const rules = Math.min(CHUNK_RULES, n - first);
      const room = Math.max(CHUNK_TOKENS, 3 * (spans[2 * first + 1] - spans[2 * first]) + 1); // (the first value fits)
      const a = c.compilerBuffers(body.length, rules, room);
      c.i32.set(spans.subarray(RANGE_I32 * first, RANGE_I32 * (first + rules)), a.ranges >>> 2);
      const done = c.exports.tokenizeRules(a.body, a.ranges, rules, rfc, a.tokens, room, a.out);
      const i32 = c.i32;
      const results = a.out >>> 2;
      const written = i32[results + RESULT_I32 * done];
      out.set(c.u16.subarray(a.tokens >>> 1, (a.tokens >>> 1) + written), k);
      for (let i = 0; i < done; i++) {
        firsts[first + i] = k + i32[results + RESULT_I32 * i];
        priorities[first + i] = i32[results + RESULT_I32 * i + 1];
      }
      k += written;
      first += done;
    }
  }
  firsts[n] = k;
  return k;
}

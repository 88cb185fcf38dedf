// A rule's value as the profile compares it, in one pass in JavaScript: what
// googlePattern(escapePattern(v)) and rfcPattern(escapePattern(v)) give
// (src/engine/parse/pattern.ts, stated plainly there), written where the caller
// says. The audit's rules are tokenized by the core
// (src/bulk/audit/core-rule-tokens.ts); this is the reference its tokens are
// held to (test/bulk/audit-core-tokens.test.ts), itself held to the patterns
// (test/bulk/audit-rule-tokens.test.ts).
import { STAR, type Pattern } from '../../src/engine/parse/pattern.js';
import { ESCAPES_RAW, HEX_DIGITS, hexValue, isUnreserved } from '../../src/engine/parse/octets.js';

/** Octets that stand for themselves in a pattern, by profile: neither an escape's '%', a star, nor one written as
 * %XX (rfc: escapesRaw; google: >= 0x80). Most octets of a rule are: one table look-up each. */
const PLAIN_RFC = Uint8Array.from({ length: 256 }, (_, c) => (c !== 0x25 && c !== 0x2a && ESCAPES_RAW[c] === 0 ? 1 : 0));
const PLAIN_GOOGLE = Uint8Array.from({ length: 256 }, (_, c) => (c !== 0x25 && c !== 0x2a && c < 0x80 ? 1 : 0));

/** Room for the longest value's tokens, grown when needed (a value of n octets gives at most 3n). */
let scratch = new Uint16Array(1024);

/** The pattern of a rule's value as written (octets of the file), under rfc (normalised) or google. */
export function ruleTokens(value: Uint8Array, rfc: boolean): Pattern {
  return ruleTokensAt(value, 0, value.length, rfc);
}

/** ruleTokens of the value at octets [from, to) of the file (no view made of it). */
export function ruleTokensAt(body: Uint8Array, from: number, to: number, rfc: boolean): Pattern {
  const n = to - from;
  if (scratch.length < 3 * n) scratch = new Uint16Array(3 * n);
  tokensInto(body, from, to, rfc, scratch, 0);
  return { tokens: scratch.slice(0, written.length), anchored: written.anchored, priority: written.priority };
}

/** What tokensInto wrote last: its tokens' count, whether the pattern is anchored, its priority. */
export const written = { length: 0, anchored: false, priority: 0 };

/**
 * The tokens of the value at octets [from, to) of the file written to out[at...] (room for 3 per octet, at
 * most), the rest in `written`: the value read in place, its tokens after others' in a shared array.
 */
export function tokensInto(body: Uint8Array, from: number, to: number, rfc: boolean, out: Uint16Array, at: number): void {
  const n = to - from;
  const anchored = n > 0 && body[to - 1] === 0x24;
  const end = anchored ? to - 1 : to;
  let k = at;
  // Google's priority: the escaped value's length ($ counted); rfc's: the normalised one's.
  let priority = anchored ? 1 : 0;
  const plain = rfc ? PLAIN_RFC : PLAIN_GOOGLE;
  for (let i = from; i < end; i++) {
    const c = body[i];
    if (plain[c] === 1) {
      out[k++] = c;
      priority += 1;
      continue;
    }
    // An escape: a '%' and two hex digits (the anchoring '$' is no hex digit).
    const v = c === 0x25 && i + 2 < to ? escapeValue(body[i + 1], body[i + 2]) : -1;
    if (v >= 0) i += 2;
    const star = v < 0 && c === 0x2a;
    if (v >= 0 ? !rfc || !isUnreserved(v) : !star && (rfc ? ESCAPES_RAW[c] === 1 : c >= 0x80)) {
      const x = v >= 0 ? v : c;
      out[k++] = 0x25;
      out[k++] = HEX_DIGITS[x >> 4];
      out[k++] = HEX_DIGITS[x & 15];
      priority += 3;
    } else {
      priority += 1;
      // (A star, but no run of them: one stands for the run.)
      if (star) {
        if (k === at || out[k - 1] !== STAR) out[k++] = STAR;
      } else out[k++] = v >= 0 ? v : c;
    }
  }
  // A trailing `*` matches anything, also the end: `/a*` and `/a*$` are `/a`.
  let trailingStar = false;
  if (k > at && out[k - 1] === STAR) {
    k--;
    trailingStar = true;
  }
  written.length = k - at;
  written.anchored = anchored && !trailingStar;
  written.priority = priority;
}

function escapeValue(a: number, b: number): number {
  const h = hexValue(a);
  const l = hexValue(b);
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}

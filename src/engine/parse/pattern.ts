// Rule patterns, stated plainly: Google's escaping of a value as written, and
// its tokens and priority under each profile. The reference matcher works from
// these; the compiler (src/engine/compile/compile.ts, with assembly/parse/tokenize.ts) does the same
// in one pass without allocating, and the property tests hold the two together.
import { TOKEN_STAR } from '../wasm/layout.js';
import { escapesRaw, HEX_DIGITS, hexValue, isUnreserved } from './octets.js';
import { traitsOf, type Profile } from './profile.js';

/** (Its home is profile.ts; named here too for the importers of pattern.ts.) */
export type { Profile };

/** A token: a literal octet 0..255, or STAR (`*`, any run of octets). */
export const STAR = TOKEN_STAR;

export interface Pattern {
  /** Literal octets and STARs, simplified: no STAR runs, no trailing STAR. */
  tokens: Uint16Array;
  /** Ends with `$`: matches only at the end of the path. */
  anchored: boolean;
  /** Octets of the (escaped or normalised) pattern, counting `*` and `$`: the match priority. */
  priority: number;
}


/** Google's MaybeEscapePattern: octets >= 0x80 become %XX; hex of existing escapes is upper-cased. */
export function escapePattern(src: Uint8Array): Uint8Array {
  let extra = 0;
  let fix = false;
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x25 && hexValue(src[i + 1]) >= 0 && hexValue(src[i + 2]) >= 0) {
      if (src[i + 1] >= 0x61 || src[i + 2] >= 0x61) fix = true;
      i += 2;
    } else if (src[i] >= 0x80) {
      extra += 2;
    }
  }
  if (extra === 0 && !fix) return src;
  const out = new Uint8Array(src.length + extra);
  let j = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 0x25 && hexValue(src[i + 1]) >= 0 && hexValue(src[i + 2]) >= 0) {
      out[j++] = c;
      out[j++] = HEX_DIGITS[hexValue(src[++i])];
      out[j++] = HEX_DIGITS[hexValue(src[++i])];
    } else if (c >= 0x80) {
      out[j++] = 0x25;
      out[j++] = HEX_DIGITS[c >> 4];
      out[j++] = HEX_DIGITS[c & 15];
    } else {
      out[j++] = c;
    }
  }
  return out;
}

function simplify(raw: ArrayLike<number>, length: number, anchored: boolean, priority: number): Pattern {
  const tokens = new Uint16Array(length);
  let n = 0;
  for (let i = 0; i < length; i++) {
    const t = raw[i];
    if (t === STAR && n > 0 && tokens[n - 1] === STAR) continue;
    tokens[n++] = t;
  }
  // A trailing `*` matches anything, also the end: `/a*` and `/a*$` are `/a`.
  if (n > 0 && tokens[n - 1] === STAR) {
    n--;
    anchored = false;
  }
  return { tokens: tokens.subarray(0, n), anchored, priority };
}

/** Google: `*` is a wildcard, `$` anchors only as the last octet; everything else is literal. */
export function googlePattern(escaped: Uint8Array): Pattern {
  const n = escaped.length;
  const anchored = n > 0 && escaped[n - 1] === 0x24;
  const length = anchored ? n - 1 : n;
  const raw = new Uint16Array(length);
  for (let i = 0; i < length; i++) raw[i] = escaped[i] === 0x2a ? STAR : escaped[i];
  return simplify(raw, length, anchored, n);
}

/**
 * RFC 9309 with RFC 3986 normalisation, as the path is normalised
 * (reference.ts normalizePath): %XX of an unreserved character is that
 * character; other escapes stay escaped (hex upper-cased), so %2A and %24 are
 * the escaped `*` and `$` that a path's raw or escaped `*` and `$` become;
 * the octets a URI may not hold raw, a `$` that is not the last octet and a
 * `%` that starts no escape are escaped. The priority is the length of that
 * normalised form, `*` and the final `$` counted.
 */
export function rfcPattern(escaped: Uint8Array): Pattern {
  const n = escaped.length;
  const anchored = n > 0 && escaped[n - 1] === 0x24;
  const raw: number[] = [];
  let priority = anchored ? 1 : 0;
  const putEscape = (v: number) => {
    raw.push(0x25, HEX_DIGITS[v >> 4], HEX_DIGITS[v & 15]);
    priority += 3;
  };
  for (let i = 0; i < (anchored ? n - 1 : n); i++) {
    const c = escaped[i];
    if (c === 0x25 && hexValue(escaped[i + 1]) >= 0 && hexValue(escaped[i + 2]) >= 0) {
      const v = (hexValue(escaped[i + 1]) << 4) | hexValue(escaped[i + 2]);
      i += 2;
      if (isUnreserved(v)) {
        raw.push(v);
        priority += 1;
      } else {
        putEscape(v);
      }
    } else if (c === 0x2a) {
      raw.push(STAR);
      priority += 1;
    } else if (escapesRaw(c)) {
      putEscape(c);
    } else {
      raw.push(c);
      priority += 1;
    }
  }
  return simplify(raw, raw.length, anchored, priority);
}

/** Google's `index.htm` rule: an allow whose last path segment starts with
 * `/index.htm` also allows its directory exactly (`/dir/$`). */
export function indexHtmDirectory(escaped: Uint8Array): Uint8Array | null {
  const slash = escaped.lastIndexOf(0x2f);
  if (slash < 0) return null;
  const tail = '/index.htm';
  if (escaped.length - slash < tail.length) return null;
  for (let i = 0; i < tail.length; i++) if (escaped[slash + i] !== tail.charCodeAt(i)) return null;
  const dir = new Uint8Array(slash + 2);
  dir.set(escaped.subarray(0, slash + 1));
  dir[slash + 1] = 0x24;
  return dir;
}

/** A rule's pattern as the profile compares it (the index.htm rule aside). */
export function patternOf(value: Uint8Array, profile: Profile): Pattern {
  const escaped = escapePattern(value);
  return traitsOf(profile).normalises ? rfcPattern(escaped) : googlePattern(escaped);
}

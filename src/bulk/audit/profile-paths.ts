// Which octet strings are paths under a profile (what reference.ts comparedPath
// can return), as automata stepped octet by octet: the category walk
// (rule-category.ts) runs them alongside the rules, and a witness path is
// checked by them before it counts.
// google: '/' then any octets but NUL (the path ends there) and '#' (the
// fragment); rfc: normalised (RFC 3986: %XX upper-case and only for an octet
// that is not unreserved, raw only what needs no escape) with no "." or ".."
// segment before the query (dot segments are removed).
import { ESCAPES_RAW, hexValue, isUnreserved } from '../../engine/parse/octets.js';

/** No path goes on with the octet. */
export const REJECT = -1;

/** google: any octet but NUL (where the compared path ends) and '#' (the fragment). */
export function googleStep(c: number): number {
  return c === 0 || c === 0x23 ? REJECT : 0;
}

// The rfc path automaton: in the path (a segment's start, ".", "..", any
// other), in the query, or within an escape (after '%', after its first hex
// digit h: 16 states each, in the path or the query).
export const RFC_SEGMENT_START = 0;
const RFC_DOT = 1;
const RFC_DOT_DOT = 2;
const RFC_SEGMENT = 3;
const RFC_QUERY = 4;
const RFC_PERCENT_PATH = 5;
const RFC_PERCENT_QUERY = 6;
const RFC_HEX_PATH = 7; // + h
const RFC_HEX_QUERY = 23; // + h

export function pathMayEnd(state: number, rfc: boolean): boolean {
  return !rfc || state === RFC_SEGMENT_START || state === RFC_SEGMENT || state === RFC_QUERY;
}

/** Upper-case hex digit value, or -1 (a normalised escape is upper-case). */
function upperHex(c: number): number {
  return c >= 0x61 ? -1 : hexValue(c);
}

export function rfcStep(state: number, c: number): number {
  if (state === RFC_PERCENT_PATH || state === RFC_PERCENT_QUERY) {
    const h = upperHex(c);
    return h < 0 ? REJECT : (state === RFC_PERCENT_PATH ? RFC_HEX_PATH : RFC_HEX_QUERY) + h;
  }
  if (state >= RFC_HEX_PATH) {
    const inPath = state < RFC_HEX_QUERY;
    const h = upperHex(c);
    // An escape of an unreserved octet is that octet, raw.
    if (h < 0 || isUnreserved(((state - (inPath ? RFC_HEX_PATH : RFC_HEX_QUERY)) << 4) | h)) return REJECT;
    return inPath ? RFC_SEGMENT : RFC_QUERY;
  }
  // A '%' stands only as an escape's; '#' ends the URL's path; other octets that need escaping are escaped.
  const raw = c !== 0x25 && c !== 0x23 && ESCAPES_RAW[c] === 0;
  if (state === RFC_QUERY) {
    if (c === 0x25) return RFC_PERCENT_QUERY;
    return raw ? RFC_QUERY : REJECT;
  }
  const dots = state === RFC_DOT || state === RFC_DOT_DOT;
  if (c === 0x2f) return dots ? REJECT : RFC_SEGMENT_START; // "/./", "/../" are removed
  if (c === 0x3f) return dots ? REJECT : RFC_QUERY;
  if (c === 0x2e) return state === RFC_SEGMENT_START ? RFC_DOT : state === RFC_DOT ? RFC_DOT_DOT : RFC_SEGMENT;
  if (c === 0x25) return RFC_PERCENT_PATH;
  return raw ? RFC_SEGMENT : REJECT;
}

/** Whether the octets are a path under the profile (rfc: normalised, as comparedPath returns them). */
export function isProfilePath(path: Uint8Array, rfc: boolean): boolean {
  if (path.length === 0 || path[0] !== 0x2f) return false;
  let state = RFC_SEGMENT_START;
  for (let i = 0; i < path.length; i++) {
    state = rfc ? rfcStep(state, path[i]) : googleStep(path[i]);
    if (state === REJECT) return false;
  }
  return pathMayEnd(state, rfc);
}

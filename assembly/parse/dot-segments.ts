// RFC 3986 remove_dot_segments (5.2.4, normalisation 6.2.2.3) for the `rfc`
// profile: the path a fetch of the URL requests (WHATWG URL removes them too).
// It runs on the normalised path, where a '.' is never escaped ("%2E" was
// decoded), into the scratch or in place: the result is never longer. Only the
// path: a query (from the first '?') is not split into segments and stays as it is.

import { findFirstOf } from "../base/scan";

const SLASH: u8 = 0x2f;
const DOT: u8 = 0x2e;
const QUERY: u8 = 0x3f;

/** Does a segment end at i (a '/', the query's '?', or the path's end n)? */
@inline function endsSegment(p: usize, i: i32, n: i32): bool {
  if (i >= n) return true;
  const c = load<u8>(p + <usize>i);
  return c == SLASH || c == QUERY;
}

/**
 * The index of the '/' that starts the first dot segment ("." or "..") of the
 * path p[0, n) before any '?', or -1. Most paths have none: they cost one pass
 * for "/." 16 octets at a time (p has 16 readable octets past n); the '?' is
 * looked for only when a "/." is there.
 */
export function firstDotSegment(p: usize, n: i32): i32 {
  const slash = i8x16.splat(SLASH);
  const dot = i8x16.splat(DOT);
  let query: i32 = -1; // the first '?' (or n), once a "/." needs it
  for (let i: i32 = 0; i < n; i += 16) {
    // Bit k: a '/' at i + k followed by a '.' (the next octet: a load one further).
    let pairs = i8x16.bitmask(v128.and(i8x16.eq(v128.load(p + <usize>i), slash), i8x16.eq(v128.load(p + <usize>i, 1), dot)));
    if (pairs == 0) continue;
    if (n - i < 16) pairs &= (1 << (n - i - 1)) - 1; // (a '.' past the end does not count)
    while (pairs != 0) {
      const at = i + <i32>ctz(pairs);
      if (query < 0) query = findFirstOf(p, 0, n, QUERY, QUERY, QUERY);
      if (at >= query) return -1;
      if (endsSegment(p, at + 2, n)) return at; // "/."
      if (load<u8>(p + <usize>at, 2) == DOT && endsSegment(p, at + 3, n)) return at; // "/.."
      pairs &= pairs - 1;
    }
  }
  return -1;
}

/**
 * Writes the path src[0, n) to dst without its dot segments, from `from` on
 * (the '/' of the first dot segment: what comes before it is copied as it is),
 * as RFC 3986 5.2.4 does for a path that starts with '/': "." goes, ".." takes
 * the segment before it (none above the root), and either one last leaves the
 * path ending in '/'. dst may be src (the output never passes the input).
 * Returns the new length (the query moved up behind the path).
 */
export function removeDotSegments(src: usize, n: i32, from: i32, dst: usize): i32 {
  if (dst != src) copyOctets(dst, src, from);
  const end = findFirstOf(src, from, n, QUERY, QUERY, QUERY); // the path's end
  let o = from; // the output's end: complete "/segment"s only
  let i = from; // at a '/' or the path's end
  while (i < end) {
    let e = i + 1;
    while (e < end && load<u8>(src + <usize>e) != SLASH) e++;
    const length = e - i - 1;
    const first = length > 0 ? load<u8>(src + <usize>i, 1) : 0;
    if (length == 1 && first == DOT) {
      if (e == end) {
        store<u8>(dst + <usize>o, SLASH);
        o++;
      }
    } else if (length == 2 && first == DOT && load<u8>(src + <usize>i, 2) == DOT) {
      while (o > 0 && load<u8>(dst + <usize>(o - 1)) != SLASH) o--; // the last segment, then its '/'
      if (o > 0) o--;
      if (e == end) {
        store<u8>(dst + <usize>o, SLASH);
        o++;
      }
    } else {
      copyOctets(dst + <usize>o, src + <usize>i, e - i);
      o += e - i;
    }
    i = e;
  }
  copyOctets(dst + <usize>o, src + <usize>end, n - end);
  return o + n - end;
}

/** Copies n octets from src to dst, first to last (so dst may overlap src from
 * below). Segments are short: a memory.copy call costs more than their octets. */
@inline function copyOctets(dst: usize, src: usize, n: i32): void {
  for (let k: usize = 0; k < <usize>n; k++) store<u8>(dst + k, load<u8>(src + k));
}

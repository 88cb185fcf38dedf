// Path extraction on octets: Google's GetPathParamsQuery, exactly.
// The path is url[pathStart, pathEnd), preceded by a '/' when pathSlash is set
// (a path that would start with '?' or ';'). Scans go 16 octets at a time; the
// caller guarantees 16 readable octets past the URL.
import { findFirstOf, findFirstOf4 } from "../base/scan";

export let pathStart: i32 = 0;
export let pathEnd: i32 = 0;
export let pathSlash: bool = false;
/** The last extractPath found a "://" before the path (see extractPathAfter). */
export let pathAfterProtocol: bool = false;

/** Index of the first '/', '?', ';' or '#' in u[from, n), or n. */
@inline function findPathOrHash(u: usize, from: i32, n: i32): i32 {
  return findFirstOf4(u, from, n, 0x2f, 0x3f, 0x3b, 0x23);
}

/** Sets pathStart/pathEnd/pathSlash for the URL at u (n octets). With
 * stopAtNul, the path also ends at the first NUL (Google reads it as a C string).
 * A '#' anywhere from searchStart ends the path, and one before the path leaves
 * "/": the scans for the path's start stop at a '#' too, so the one that finds
 * it first says so, and the path's end is looked for from its start only. */
@inline export function extractPath(u: usize, n: i32, stopAtNul: bool, mayEndEarly: bool = true): void {
  let searchStart: i32 = 0;
  if (n >= 2 && load<u8>(u) == 0x2f && load<u8>(u + 1) == 0x2f) searchStart = 2;

  // A "://" counts only before any path, param or query: then its '/' is the
  // first of them, so it can only sit right at earlyPath.
  const earlyPath = findPathOrHash(u, searchStart, n);
  let start = earlyPath;
  pathAfterProtocol = false;
  if (earlyPath > searchStart && earlyPath + 1 < n && load<u8>(u + earlyPath - 1) == 0x3a &&
      load<u8>(u + earlyPath) == 0x2f && load<u8>(u + earlyPath + 1) == 0x2f) {
    start = findPathOrHash(u, earlyPath + 2, n);
    pathAfterProtocol = true;
  }
  if (start >= n || load<u8>(u + start) == 0x23) {
    setRoot();
    return;
  }
  setPath(u, start, n, stopAtNul, mayEndEarly);
}

/** The path from start, to the URL's end unless mayEndEarly (the URL may hold a '#' or NUL). */
@inline function setPath(u: usize, start: i32, n: i32, stopAtNul: bool, mayEndEarly: bool): void {
  pathStart = start;
  pathEnd = !mayEndEarly ? n
    : stopAtNul ? findFirstOf(u, start, n, 0x23, 0, 0) : findFirstOf(u, start, n, 0x23, 0x23, 0x23);
  pathSlash = load<u8>(u + start) != 0x2f;
}

/**
 * extractPath for a URL that starts as another did (`prev`, whose path started
 * at prevStart after a "://"): the same scheme and authority, octet for octet,
 * and then '/', '?' or ';' is the same path start, since every scan before it
 * went over the same octets and the "://" lies inside them. Batches of one
 * host's URLs skip most of the scanning so. Falls back to extractPath.
 */
@inline function extractPathAfter(prev: usize, prevStart: i32, u: usize, n: i32, stopAtNul: bool, mayEndEarly: bool): void {
  if (prevStart > 0 && prevStart < n && samePrefix(prev, u, prevStart)) {
    const c = load<u8>(u + prevStart);
    if (c == 0x2f || c == 0x3f || c == 0x3b) {
      pathAfterProtocol = true;
      setPath(u, prevStart, n, stopAtNul, mayEndEarly);
      return;
    }
  }
  extractPath(u, n, stopAtNul, mayEndEarly);
}

// A run of URLs (a batch, a host's lines): the last one whose path followed a "://".
let runPrev: usize = 0;
let runStart: i32 = 0;

/** Starts a run of URLs (see extractPathInRun). */
export function beginRun(): void {
  runPrev = 0;
  runStart = 0;
}

/** extractPath for the next URL of a run, reusing the path start of the run's
 * last URL that had a "://" when this one starts alike (extractPathAfter). The
 * URLs of a run stay where they are until it ends. */
@inline export function extractPathInRun(u: usize, n: i32, stopAtNul: bool, mayEndEarly: bool = true): void {
  extractPathAfter(runPrev, runStart, u, n, stopAtNul, mayEndEarly);
  if (pathAfterProtocol) {
    runPrev = u;
    runStart = pathStart;
  }
}

/** Are a[0, n) and b[0, n) equal? (16 readable octets past both.) */
@inline function samePrefix(a: usize, b: usize, n: i32): bool {
  let i: i32 = 0;
  for (; i + 16 <= n; i += 16) {
    if (i8x16.bitmask(i8x16.eq(v128.load(a + <usize>i), v128.load(b + <usize>i))) != 0xffff) return false;
  }
  if (i == n) return true;
  const eq = <u32>i8x16.bitmask(i8x16.eq(v128.load(a + <usize>i), v128.load(b + <usize>i)));
  const want: u32 = (1 << <u32>(n - i)) - 1;
  return (eq & want) == want;
}

@inline function setRoot(): void {
  pathStart = 0;
  pathEnd = 0;
  pathSlash = true;
}

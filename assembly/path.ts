// Path extraction on octets: Google's GetPathParamsQuery, exactly.
// The path is url[pathStart, pathEnd), preceded by a '/' when pathSlash is set
// (a path that would start with '?' or ';'). Scans go 16 octets at a time; the
// caller guarantees 16 readable octets past the URL.
import { findFirstOf, findFirstOf4 } from "./scan";

export let pathStart: i32 = 0;
export let pathEnd: i32 = 0;
export let pathSlash: bool = false;

/** Index of the first '/', '?', ';' or '#' in u[from, n), or n. */
@inline function findPathOrHash(u: usize, from: i32, n: i32): i32 {
  return findFirstOf4(u, from, n, 0x2f, 0x3f, 0x3b, 0x23);
}

/** Sets pathStart/pathEnd/pathSlash for the URL at u (n octets). With
 * stopAtNul, the path also ends at the first NUL (Google reads it as a C string).
 * A '#' anywhere from searchStart ends the path, and one before the path leaves
 * "/": the scans for the path's start stop at a '#' too, so the one that finds
 * it first says so, and the path's end is looked for from its start only. */
@inline export function extractPath(u: usize, n: i32, stopAtNul: bool): void {
  let searchStart: i32 = 0;
  if (n >= 2 && load<u8>(u) == 0x2f && load<u8>(u + 1) == 0x2f) searchStart = 2;

  // A "://" counts only before any path, param or query: then its '/' is the
  // first of them, so it can only sit right at earlyPath.
  const earlyPath = findPathOrHash(u, searchStart, n);
  let start = earlyPath;
  if (earlyPath > searchStart && earlyPath + 1 < n && load<u8>(u + earlyPath - 1) == 0x3a &&
      load<u8>(u + earlyPath) == 0x2f && load<u8>(u + earlyPath + 1) == 0x2f) {
    start = findPathOrHash(u, earlyPath + 2, n);
  }
  if (start >= n || load<u8>(u + start) == 0x23) {
    setRoot();
    return;
  }
  pathStart = start;
  pathEnd = stopAtNul ? findFirstOf(u, start, n, 0x23, 0, 0) : findFirstOf(u, start, n, 0x23, 0x23, 0x23);
  pathSlash = load<u8>(u + start) != 0x2f;
}

@inline function setRoot(): void {
  pathStart = 0;
  pathEnd = 0;
  pathSlash = true;
}

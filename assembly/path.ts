// Path extraction on octets: Google's GetPathParamsQuery, exactly.
// The path is url[pathStart, pathEnd), preceded by a '/' when pathSlash is set
// (a path that would start with '?' or ';'). Scans go 16 octets at a time; the
// caller guarantees 16 readable octets past the URL.
import { findFirstOf } from "./scan";

export let pathStart: i32 = 0;
export let pathEnd: i32 = 0;
export let pathSlash: bool = false;

/** Index of the first '/', '?' or ';' in u[from, n), or n. */
@inline function findPathStart(u: usize, from: i32, n: i32): i32 {
  return findFirstOf(u, from, n, 0x2f, 0x3f, 0x3b);
}

/** Sets pathStart/pathEnd/pathSlash for the URL at u (n octets). With
 * stopAtNul, the path also ends at the first NUL (Google reads it as a C string). */
export function extractPath(u: usize, n: i32, stopAtNul: bool): void {
  let searchStart: i32 = 0;
  if (n >= 2 && load<u8>(u) == 0x2f && load<u8>(u + 1) == 0x2f) searchStart = 2;

  // A "://" counts only before any path, param or query: then its '/' is the
  // first of them, so it can only sit right at earlyPath.
  const earlyPath = findPathStart(u, searchStart, n);
  let protocolEnd = searchStart;
  if (earlyPath > searchStart && earlyPath + 1 < n && load<u8>(u + earlyPath - 1) == 0x3a &&
      load<u8>(u + earlyPath) == 0x2f && load<u8>(u + earlyPath + 1) == 0x2f) {
    protocolEnd = earlyPath + 2;
  }
  const start = protocolEnd == searchStart ? earlyPath : findPathStart(u, protocolEnd, n);
  if (start >= n) { setRoot(); return; }

  // A '#' anywhere from searchStart ends the path; one before the path leaves "/".
  const hash = findFirstOf(u, searchStart, n, 0x23, 0x23, 0x23);
  if (hash < start) { setRoot(); return; }
  pathStart = start;
  pathEnd = stopAtNul ? findFirstOf(u, start, hash, 0, 0, 0) : hash;
  pathSlash = load<u8>(u + start) != 0x2f;
}

function setRoot(): void {
  pathStart = 0;
  pathEnd = 0;
  pathSlash = true;
}

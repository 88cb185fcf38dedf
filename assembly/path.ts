// Path extraction on octets: Google's GetPathParamsQuery, exactly.
// The path is url[pathStart, pathEnd), preceded by a '/' when pathSlash is set
// (a path that would start with '?' or ';'). Scans go 16 octets at a time; the
// caller guarantees 16 readable octets past the URL.

export let pathStart: i32 = 0;
export let pathEnd: i32 = 0;
export let pathSlash: bool = false;

const SLASH = i8x16.splat(0x2f);
const QUERY = i8x16.splat(0x3f);
const SEMI = i8x16.splat(0x3b);
const HASH = i8x16.splat(0x23);
const NUL = i8x16.splat(0);

/** Index of the first '/', '?' or ';' in u[from, n), or n. */
function findPathStart(u: usize, from: i32, n: i32): i32 {
  for (let i = from; i < n; i += 16) {
    const v = v128.load(u + <usize>i);
    const hit = v128.or(v128.or(i8x16.eq(v, SLASH), i8x16.eq(v, QUERY)), i8x16.eq(v, SEMI));
    const mask = i8x16.bitmask(hit);
    if (mask != 0) {
      const at = i + <i32>ctz(mask);
      return at < n ? at : n;
    }
  }
  return n;
}

/** Index of the first '#' (or, with nul, NUL) in u[from, n), or n. */
function findEnd(u: usize, from: i32, n: i32, nul: bool): i32 {
  const stop = nul ? NUL : HASH;
  for (let i = from; i < n; i += 16) {
    const v = v128.load(u + <usize>i);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(v, HASH), i8x16.eq(v, stop)));
    if (mask != 0) {
      const at = i + <i32>ctz(mask);
      return at < n ? at : n;
    }
  }
  return n;
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
  if (earlyPath > searchStart && earlyPath + 1 < n && load<u8>(u + earlyPath - 1) == 0x3a && load<u8>(u + earlyPath + 1) == 0x2f) {
    protocolEnd = earlyPath + 2;
  }
  const start = protocolEnd == searchStart ? earlyPath : findPathStart(u, protocolEnd, n);
  if (start >= n) { setRoot(); return; }

  // A '#' anywhere from searchStart ends the path; one before the path leaves "/".
  const hash = findEnd(u, searchStart, n, false);
  if (hash < start) { setRoot(); return; }
  pathStart = start;
  pathEnd = stopAtNul ? findEnd(u, start, hash, true) : hash;
  pathSlash = load<u8>(u + start) != 0x2f;
}

function setRoot(): void {
  pathStart = 0;
  pathEnd = 0;
  pathSlash = true;
}

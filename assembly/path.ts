// Path extraction on octets: Google's GetPathParamsQuery, exactly.
// The path is url[pathStart, pathEnd), preceded by a '/' when pathSlash is set
// (a path that would start with '?' or ';').

export let pathStart: i32 = 0;
export let pathEnd: i32 = 0;
export let pathSlash: bool = false;

@inline function isPathStart(c: u32): bool {
  return c == 0x2f || c == 0x3f || c == 0x3b; // '/', '?', ';'
}

/** Sets pathStart/pathEnd/pathSlash for the URL at u (n octets). With
 * stopAtNul, the path also ends at the first NUL (Google reads it as a C string). */
export function extractPath(u: usize, n: i32, stopAtNul: bool): void {
  let searchStart: i32 = 0;
  if (n >= 2 && load<u8>(u) == 0x2f && load<u8>(u + 1) == 0x2f) searchStart = 2;

  let earlyPath = searchStart;
  while (earlyPath < n && !isPathStart(load<u8>(u + earlyPath))) earlyPath++;

  // The first "://" at or after searchStart, unless a path/param/query starts before it.
  let protocolEnd = searchStart;
  for (let i = searchStart; i + 2 < n && i < earlyPath; i++) {
    if (load<u8>(u + i) == 0x3a && load<u8>(u + i + 1) == 0x2f && load<u8>(u + i + 2) == 0x2f) {
      protocolEnd = i + 3;
      break;
    }
  }

  let start = protocolEnd;
  while (start < n && !isPathStart(load<u8>(u + start))) start++;
  if (start >= n) { setRoot(); return; }

  // A '#' anywhere from searchStart ends the path; one before the path leaves "/".
  for (let i = searchStart; i < start; i++) {
    if (load<u8>(u + i) == 0x23) { setRoot(); return; }
  }
  let end = start;
  if (stopAtNul) {
    while (end < n) {
      const c = load<u8>(u + end);
      if (c == 0x23 || c == 0) break;
      end++;
    }
  } else {
    while (end < n && load<u8>(u + end) != 0x23) end++;
  }
  pathStart = start;
  pathEnd = end;
  pathSlash = load<u8>(u + start) != 0x2f;
}

function setRoot(): void {
  pathStart = 0;
  pathEnd = 0;
  pathSlash = true;
}

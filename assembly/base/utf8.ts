// UTF-8 validation (Unicode 15, Table 3-7: no overlongs, no surrogates,
// nothing past U+10FFFF), 16 ASCII octets a step: robots.txt files are mostly
// ASCII. In the core so that the engine needs no Node module for it.

@inline function isCont(p: usize): bool {
  return (load<u8>(p) & 0xc0) == 0x80;
}

@inline function inRange(p: usize, lo: u32, hi: u32): bool {
  const c = <u32>load<u8>(p);
  return c >= lo && c <= hi;
}

/** Are the octets p[0, n) valid UTF-8? */
export function isUtf8(p: usize, n: i32): bool {
  let i: i32 = 0;
  while (i < n) {
    if (i + 16 <= n && i8x16.bitmask(v128.load(p + <usize>i)) == 0) {
      i += 16;
      continue;
    }
    const q = p + <usize>i;
    const c = <u32>load<u8>(q);
    if (c < 0x80) {
      i++;
    } else if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 >= n || !isCont(q + 1)) return false;
      i += 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      if (i + 2 >= n) return false;
      const lo: u32 = c == 0xe0 ? 0xa0 : 0x80;
      const hi: u32 = c == 0xed ? 0x9f : 0xbf;
      if (!inRange(q + 1, lo, hi) || !isCont(q + 2)) return false;
      i += 3;
    } else if (c >= 0xf0 && c <= 0xf4) {
      if (i + 3 >= n) return false;
      const lo: u32 = c == 0xf0 ? 0x90 : 0x80;
      const hi: u32 = c == 0xf4 ? 0x8f : 0xbf;
      if (!inRange(q + 1, lo, hi) || !isCont(q + 2) || !isCont(q + 3)) return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

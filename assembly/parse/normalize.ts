// RFC 3986 normalisation of a path for the `rfc` profile: %XX of an unreserved
// character is decoded, hex digits are upper-cased, and every octet a URI may
// not hold raw is percent-encoded: controls, space, DEL, octets >= 0x80, the
// excluded " < > \ ^ ` { | } (which every client sends escaped), and a '%' that
// starts no escape ("%25": that also makes the normalisation idempotent; were
// it kept, "%e%41" would give "%eA", which normalises again to "%EA"). An
// escaped reserved character stays escaped (it is not the character), and the
// two that patterns give a meaning, '*' and '$', are escaped too: so a path's
// "$" and "%24" both meet a pattern's "%24" (RFC 9309 2.2.3), and its "*" and
// "%2A" a pattern's "%2A", while the pattern's own '*' and final '$' stay
// wildcard and anchor.

import { hexUpper } from "../base/hex";

@inline export function hexValue(c: u32): i32 {
  if (c - 0x30 < 10) return <i32>(c - 0x30);
  const l = c | 0x20;
  if (l - 0x61 < 6) return <i32>(l - 0x61 + 10);
  return -1;
}

@inline export function isUnreserved(c: u32): bool {
  return (c - 0x41 < 26) || (c - 0x61 < 26) || (c - 0x30 < 10) || c == 0x2d || c == 0x2e || c == 0x5f || c == 0x7e;
}

/** Writes octet c as %XX (upper-case hex). */
@inline export function putEscape(d: usize, c: u32): void {
  store<u8>(d, 0x25);
  store<u8>(d, hexUpper(c >> 4), 1);
  store<u8>(d, hexUpper(c & 15), 2);
}

/** Writes the normal form of the escape of hex digit values h, l: the octet
 * itself when it is unreserved, else the escape upper-cased; returns the
 * octets written. */
@inline export function putNormalEscape(d: usize, h: i32, l: i32): usize {
  const e = <u32>((h << 4) | l);
  if (isUnreserved(e)) {
    store<u8>(d, <u8>e);
    return 1;
  }
  putEscape(d, e);
  return 3;
}

// The printable octets normalisation changes: " $ % * < > \ ^ ` { | }. A
// printable octet is one of them when the bit its high nibble picks (2: 1,
// 3: 2, 5: 4, 6: 8, 7: 16) is set in the entry of its low nibble.
const BY_LOW = i8x16(8, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 16, 22, 16, 6, 0);
const BY_HIGH = i8x16(0, 0, 1, 2, 0, 4, 8, 16, 0, 0, 0, 0, 0, 0, 0, 0);
/** The same set as bits: octets 0-63, then 64-127. */
const RAW_LOW: u64 = (1 << 0x22) | (1 << 0x24) | (1 << 0x25) | (1 << 0x2a) | (1 << 0x3c) | (1 << 0x3e);
const RAW_HIGH: u64 = (1 << (0x5c - 64)) | (1 << (0x5e - 64)) | (1 << (0x60 - 64)) | (1 << (0x7b - 64)) | (1 << (0x7c - 64)) | (1 << (0x7d - 64));

/** The octets of v that normalisation may change (see escapesRaw, and '%'). */
@inline export function specialOctets(v: v128): i32 {
  const nibble = i8x16.splat(0x0f);
  // (The high nibble by a 16-bit shift and a mask: i8x16.shr_u has no x64 instruction.)
  const high = v128.and(i16x8.shr_u(v, 4), nibble);
  const printable = v128.and(i8x16.swizzle(BY_LOW, v128.and(v, nibble)), i8x16.swizzle(BY_HIGH, high));
  // Outside 0x21-0x7e in one signed compare: v + 0x5f wraps 0x21-0x7e onto -128..-35
  // and every other octet above it. A saturating add puts any bit of `printable`
  // in the lane's top bit (cheaper than ne).
  const outside = i8x16.gt_s(i8x16.add(v, i8x16.splat(0x5f)), i8x16.splat(-35));
  return i8x16.bitmask(v128.or(outside, i8x16.add_sat_u(printable, i8x16.splat(0x7f))));
}

/** Is octet c written as %XX when it stands raw (not as an escape's '%')? */
@inline export function escapesRaw(c: u32): bool {
  if (c <= 0x20 || c >= 0x7f) return true;
  return ((c < 64 ? RAW_LOW >> <u64>c : RAW_HIGH >> <u64>(c - 64)) & 1) != 0;
}

/** Is src[0, n) its own normal form (no octet normalisation changes)? src has
 * 16 readable octets past n. */
export function isNormal(src: usize, n: i32): bool {
  for (let i: i32 = 0; i < n; i += 16) {
    let special = specialOctets(v128.load(src + <usize>i));
    if (n - i < 16) special &= (1 << (n - i)) - 1; // octets past the end do not count
    if (special != 0) return false;
  }
  return true;
}

/** Writes the normalised form of src[0, n) to dst; returns its length. Plain
 * octets go 16 at a time: src has 16 readable octets past n, dst room for 3n + 16. */
export function normalizeInto(src: usize, n: i32, dst: usize): i32 {
  let j: i32 = 0;
  let i: i32 = 0;
  while (i < n) {
    const v = v128.load(src + <usize>i);
    let special = specialOctets(v);
    if (n - i < 16) special |= 0xffff << (n - i); // octets past the end stop the run
    v128.store(dst + <usize>j, v); // the plain run is copied; what follows it is overwritten below
    const plain = <i32>ctz(special | 0x10000);
    i += plain;
    j += plain;
    if (plain == 16 || i >= n) continue;
    // One octet that needs work: an escape, or one to encode.
    const c = <u32>load<u8>(src + i);
    if (c == 0x25 && i + 2 < n) {
      const h = hexValue(load<u8>(src + i + 1));
      const l = hexValue(load<u8>(src + i + 2));
      if (h >= 0 && l >= 0) {
        j += <i32>putNormalEscape(dst + j, h, l);
        i += 3;
        continue;
      }
    }
    putEscape(dst + j, c); // an octet escapesRaw names (a '%' that starts no escape is one)
    j += 3;
    i++;
  }
  return j;
}

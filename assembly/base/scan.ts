// Searching octets 16 at a time (wasm simd128). Callers keep 16 readable octets
// past the end of what they search.

/** Index of the first octet of u[from, n) equal to a, b or c (repeat one to look
 * for fewer), or n. */
@inline export function findFirstOf(u: usize, from: i32, n: i32, a: u8, b: u8, c: u8): i32 {
  return findFirstOf4(u, from, n, a, b, c, c);
}

/** Index of the first octet of u[from, n) equal to a, b, c or d, or n. */
@inline export function findFirstOf4(u: usize, from: i32, n: i32, a: u8, b: u8, c: u8, d: u8): i32 {
  return firstOf4(u, from, n, a, b, c, d, false);
}

/** Index of the first octet of u[from, n) equal to none of a, b, c and d, or n. */
@inline export function findFirstNotOf4(u: usize, from: i32, n: i32, a: u8, b: u8, c: u8, d: u8): i32 {
  return firstOf4(u, from, n, a, b, c, d, true);
}

/** findFirstOf4, or with `not` findFirstNotOf4 (a constant: each caller's loop made by the compiler). */
@inline function firstOf4(u: usize, from: i32, n: i32, a: u8, b: u8, c: u8, d: u8, not: bool): i32 {
  const va = i8x16.splat(a);
  const vb = i8x16.splat(b);
  const vc = i8x16.splat(c);
  const vd = i8x16.splat(d);
  for (let i = from; i < n; i += 16) {
    const v = v128.load(u + <usize>i);
    const hit = v128.or(v128.or(i8x16.eq(v, va), i8x16.eq(v, vb)), v128.or(i8x16.eq(v, vc), i8x16.eq(v, vd)));
    const mask = not ? ~i8x16.bitmask(hit) & 0xffff : i8x16.bitmask(hit);
    if (mask != 0) {
      const at = i + <i32>ctz(mask);
      return at < n ? at : n;
    }
  }
  return n;
}

/** findFirstOf4 for runs that are most often longer than 16 octets (robots.txt
 * lines): 32 octets a step while they are readable (16 past n are), then 16. */
@inline export function findFirstOf4Long(u: usize, from: i32, n: i32, a: u8, b: u8, c: u8, d: u8): i32 {
  return findFirstOf4LongIn(u, from, n, i8x16.splat(a), i8x16.splat(b), i8x16.splat(c), i8x16.splat(d));
}

/** findFirstOf4Long for octets given as 16 copies each (va to vd). A loop over
 * lines that loads them once before it keeps them in registers: as constants,
 * the runtime's compiler makes each again at every step. */
@inline export function findFirstOf4LongIn(u: usize, from: i32, n: i32, va: v128, vb: v128, vc: v128, vd: v128): i32 {
  let i = from;
  for (; i + 16 < n; i += 32) {
    const v = v128.load(u + <usize>i);
    const w = v128.load(u + <usize>i, 16);
    const low = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, va), i8x16.eq(v, vb)), v128.or(i8x16.eq(v, vc), i8x16.eq(v, vd))));
    const high = i8x16.bitmask(v128.or(v128.or(i8x16.eq(w, va), i8x16.eq(w, vb)), v128.or(i8x16.eq(w, vc), i8x16.eq(w, vd))));
    const mask = <u32>low | (<u32>high << 16);
    if (mask != 0) {
      const at = i + <i32>ctz(mask);
      return at < n ? at : n;
    }
  }
  for (; i < n; i += 16) {
    const v = v128.load(u + <usize>i);
    const mask = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, va), i8x16.eq(v, vb)), v128.or(i8x16.eq(v, vc), i8x16.eq(v, vd))));
    if (mask != 0) {
      const at = i + <i32>ctz(mask);
      return at < n ? at : n;
    }
  }
  return n;
}

/** findFirstOf4Long for a, b or c (repeat one to look for fewer). */
@inline export function findFirstOfLong(u: usize, from: i32, n: i32, a: u8, b: u8, c: u8): i32 {
  return findFirstOf4Long(u, from, n, a, b, c, c);
}

/** Index of the first octet of u[from, n) below `limit` (unsigned: `0x20` finds the
 * C0 controls, LF among them), or n. */
@inline export function findFirstBelow(u: usize, from: i32, n: i32, limit: u8): i32 {
  const vl = i8x16.splat(limit - 1);
  for (let i = from; i < n; i += 16) {
    // v < limit as min(v, limit - 1) == v: two x86 instructions, where lt_u takes more.
    const v = v128.load(u + <usize>i);
    const mask = i8x16.bitmask(i8x16.eq(i8x16.min_u(v, vl), v));
    if (mask != 0) {
      const at = i + <i32>ctz(mask);
      return at < n ? at : n;
    }
  }
  return n;
}

/** The line ends in u[from, to) as the lexer counts lines: each LF and each CR,
 * a CR's LF right after it not (CRLF ends one line). u[to - 1], when to > from,
 * ends a line, and u[to] is not an LF that follows a CR there. */
@inline export function countLineEnds(u: usize, from: i32, to: i32): i32 {
  const lf = i8x16.splat(0x0a);
  const cr = i8x16.splat(0x0d);
  let count = 0;
  for (let i = from; i < to; i += 16) {
    const v = v128.load(u + <usize>i);
    const next = v128.load(u + <usize>i, 1); // (the octets after: CRLF pairs)
    const isCR = i8x16.eq(v, cr);
    let ends = <u32>i8x16.bitmask(v128.or(i8x16.eq(v, lf), isCR));
    let pairs = <u32>i8x16.bitmask(v128.and(isCR, i8x16.eq(next, lf)));
    if (to - i < 16) {
      ends &= (<u32>1 << <u32>(to - i)) - 1;
      pairs &= (<u32>1 << <u32>(to - i - 1)) - 1; // (a CR at to - 1 has no LF here)
    }
    count += <i32>popcnt(ends) - <i32>popcnt(pairs);
  }
  return count;
}

/** LF, CR, '#' and NUL, 16 of each: the line scans' octets (lexer.ts's lexRun, select.ts's selectRun), loaded
 * once a call and passed to findFirstOf4LongIn. */
export const LINE_SPLATS = memory.data<u8>([
  0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a, 0x0a,
  0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d, 0x0d,
  0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23, 0x23,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
], 16);

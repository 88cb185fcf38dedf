// Many URLs of one matcher in one call (Matcher.checkMany). The caller encodes
// them as one string with one TextEncoder.encodeInto (its fixed cost per call is
// most of the cost of encoding a URL) and gives each URL's length in UTF-16
// units; the octet lengths are recovered here from the UTF-8.
import { decide } from "./index";
import { extractPathAfter, pathAfterProtocol, pathStart } from "./path";
import { FLAG_GOOGLE, H_FLAGS } from "../src/layout";

/** The first octet >= 0x80 in [p, end), or end. */
@inline function firstNonAscii(p: usize, end: usize): usize {
  for (; p < end; p += 16) {
    const mask = i8x16.bitmask(v128.load(p));
    if (mask != 0) return min(p + <usize>ctz(mask), end);
  }
  return end;
}

/**
 * Rewrites lens[0, count) from UTF-16 units to octets of the UTF-8 at
 * text[0, octets). False when a URL's end falls inside a character: a high
 * surrogate ending one URL and a low one starting the next were encoded
 * together as one pair (each alone is U+FFFD); the caller then encodes those
 * URLs one by one. The caller keeps 16 readable octets past the text.
 */
function octetLengths(text: usize, octets: i32, lens: usize, count: i32): bool {
  const end = text + <usize>octets;
  let p = text;
  // A URL that ends before the next non-ASCII octet is as many octets as units.
  let nonAscii = firstNonAscii(p, end);
  for (let i: i32 = 0; i < count; i++) {
    const units = load<i32>(lens + (<usize>i << 2));
    if (p + <usize>units <= nonAscii) {
      p += <usize>units;
      continue;
    }
    const start = p;
    let u: i32 = 0;
    while (u < units) {
      // The ASCII octets at p, up to 16 of them, each one unit, at once.
      const mask = i8x16.bitmask(v128.load(p));
      const ascii: i32 = mask == 0 ? 16 : <i32>ctz(mask);
      const take = min(ascii, units - u);
      p += <usize>take;
      u += take;
      if (take == ascii && ascii < 16 && u < units) {
        const b = load<u8>(p); // a lead octet
        if (b < 0xe0) { p += 2; u += 1; }
        else if (b < 0xf0) { p += 3; u += 1; }
        else { p += 4; u += 2; } // a surrogate pair: two units
      }
    }
    if (u != units) return false;
    store<i32>(lens + (<usize>i << 2), <i32>(p - start));
    if (p > nonAscii) nonAscii = firstNonAscii(p, end);
  }
  return true;
}

/**
 * Decides count URLs laid end to end at text[0, octets), lens[i] long (UTF-16
 * units: octets too when ascii), one verdict octet each into out (1 allowed).
 * Returns false, having decided nothing, when the octet lengths cannot be
 * recovered (see octetLengths).
 */
export function checkBatch(m: usize, text: usize, octets: i32, lens: usize, count: i32, ascii: bool, out: usize): bool {
  if (!ascii && !octetLengths(text, octets, lens, count)) return false;
  const flags = load<u32>(m, H_FLAGS);
  const google = (flags & FLAG_GOOGLE) != 0;
  // The last URL whose path followed a "://": the next one likely shares its start.
  let prev: usize = 0;
  let prevStart: i32 = 0;
  let p = text;
  for (let i: i32 = 0; i < count; i++) {
    const n = load<i32>(lens + (<usize>i << 2));
    extractPathAfter(prev, prevStart, p, n, google);
    if (pathAfterProtocol) {
      prev = p;
      prevStart = pathStart;
    }
    store<u8>(out + <usize>i, <u8>decide(m, p, flags));
    p += <usize>n;
  }
  return true;
}

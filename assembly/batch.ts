// Many URLs of one matcher in one call (Matcher.checkMany). The caller writes
// them as one string's UTF-16 (one Buffer.write: the fixed cost of a call per
// URL is most of the cost of encoding it) with each URL's length in units; they
// are encoded to UTF-8 here, URL by URL exactly as TextEncoder does, and decided.
import { decide } from "./index";
import { beginRun, extractPathInRun } from "./path";
import { FLAG_GOOGLE, H_FLAGS } from "../src/layout";

/**
 * Encodes count URLs as UTF-8 into dst, from their UTF-16 laid end to end at
 * src (lens[i] units each), and rewrites lens[i] as octets. As TextEncoder does
 * for each URL alone: a surrogate pair is one only within a URL, and a lone
 * surrogate is U+FFFD. The caller keeps 32 readable octets past the UTF-16 and
 * 16 writable past 3 octets per unit.
 */
function utf8Of(src: usize, lens: usize, count: i32, dst: usize): void {
  const above = i16x8.splat(0x7f);
  const high = i16x8.splat(<i16>0xff80);
  let s = src;
  let d = dst;
  for (let i: i32 = 0; i < count; i++) {
    const end = s + (<usize>load<i32>(lens + (<usize>i << 2)) << 1);
    const start = d;
    while (s < end) {
      // Up to 16 ASCII units at once: narrowed to octets, the leading ASCII ones kept.
      const a = v128.load(s);
      const b = v128.load(s, 16);
      v128.store(d, i8x16.narrow_i16x8_u(a, b));
      const left = (end - s) >> 1;
      if (!v128.any_true(v128.and(v128.or(a, b), high))) {
        const take = min(<usize>16, left); // (units past the URL are the next one's)
        s += take << 1;
        d += take;
        continue;
      }
      const wide = i16x8.bitmask(i16x8.gt_u(a, above)) | (i16x8.bitmask(i16x8.gt_u(b, above)) << 8);
      const ascii = min(<usize>ctz(wide | 0x10000), left);
      s += ascii << 1;
      d += ascii;
      if (s >= end || ascii == 16) continue;
      let c = <u32>load<u16>(s);
      s += 2;
      if (c < 0x800) {
        store<u8>(d, 0xc0 | (c >> 6));
        store<u8>(d, 0x80 | (c & 0x3f), 1);
        d += 2;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && s < end) {
        const low = <u32>load<u16>(s);
        if (low >= 0xdc00 && low <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          store<u8>(d, 0xf0 | (cp >> 18));
          store<u8>(d, 0x80 | ((cp >> 12) & 0x3f), 1);
          store<u8>(d, 0x80 | ((cp >> 6) & 0x3f), 2);
          store<u8>(d, 0x80 | (cp & 0x3f), 3);
          d += 4;
          s += 2;
          continue;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
      store<u8>(d, 0xe0 | (c >> 12));
      store<u8>(d, 0x80 | ((c >> 6) & 0x3f), 1);
      store<u8>(d, 0x80 | (c & 0x3f), 2);
      d += 3;
    }
    store<i32>(lens + (<usize>i << 2), <i32>(d - start));
  }
}

/**
 * Decides count URLs given as UTF-16 at src (lens[i] units each; see utf8Of),
 * one verdict octet each into out (1 allowed); text is room for their UTF-8.
 */
export function checkBatch(m: usize, src: usize, lens: usize, count: i32, text: usize, out: usize): void {
  utf8Of(src, lens, count, text);
  const flags = load<u32>(m, H_FLAGS);
  const google = (flags & FLAG_GOOGLE) != 0;
  beginRun();
  let p = text;
  for (let i: i32 = 0; i < count; i++) {
    const n = load<i32>(lens + (<usize>i << 2));
    extractPathInRun(p, n, google);
    store<u8>(out + <usize>i, <u8>decide(m, p, flags));
    p += <usize>n;
  }
}

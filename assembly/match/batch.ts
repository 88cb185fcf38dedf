// Many URLs of one matcher in one call (Matcher.checkMany). The caller writes
// them as one string's UTF-16 (one Buffer.write: the fixed cost of a call per
// URL is most of the cost of encoding it) with each URL's length in units; they
// are encoded to UTF-8 here, each exactly as TextEncoder would encode it alone,
// and decided.
// For `rfc` the encoding is also the path's normalisation (see encodeUrls).
import { decide } from "./decide";
import { beginRun, extractPathInRun } from "../parse/path";
import { hexValue, putEscape, putNormalEscape, specialOctets } from "../parse/normalize";
import { FLAG_GOOGLE, H_FLAGS } from "../../src/engine/wasm/layout";
import { touchTables, TOUCH_PER_URL } from "./touch";

/** Set in an encoded URL's length when it holds a '#' (or, unnormalised, a NUL):
 * only then can its path end before the URL does. */
const MAY_END_EARLY: u32 = 0x80000000;

/** Writes octet o to d, as %XX when escape is set; returns the octets written. */
@inline function putOctet(d: usize, o: u32, escape: bool): usize {
  if (escape) {
    putEscape(d, o);
    return 3;
  }
  store<u8>(d, <u8>o);
  return 1;
}

/** Writes the UTF-8 of code point cp (0x80 and above) to d, each octet as %XX
 * when escape is set; returns the octets written. */
@inline function putUtf8(d: usize, cp: u32, escape: bool): usize {
  let w: usize;
  if (cp < 0x800) {
    w = putOctet(d, 0xc0 | (cp >> 6), escape);
  } else if (cp < 0x10000) {
    w = putOctet(d, 0xe0 | (cp >> 12), escape);
    w += putOctet(d + w, 0x80 | ((cp >> 6) & 0x3f), escape);
  } else {
    w = putOctet(d, 0xf0 | (cp >> 18), escape);
    w += putOctet(d + w, 0x80 | ((cp >> 12) & 0x3f), escape);
    w += putOctet(d + w, 0x80 | ((cp >> 6) & 0x3f), escape);
  }
  return w + putOctet(d + w, 0x80 | (cp & 0x3f), escape);
}

/** A URL's length in lens, without MAY_END_EARLY. */
const LENGTH: u32 = ~MAY_END_EARLY;

/**
 * Encodes count URLs as UTF-8 into dst, from their UTF-16 laid end to end at
 * src (lens[i] units each), and rewrites lens[i] as octets, with MAY_END_EARLY
 * set when the URL holds a '#' or a NUL. As TextEncoder does for each URL alone:
 * a surrogate pair is one only within a URL, and a lone surrogate is U+FFFD.
 *
 * With normal set, each URL is also normalised as a whole as `rfc` normalises a
 * path (normalize.ts), and then only '#' sets MAY_END_EARLY. That is the
 * normalised path once the path is extracted: normalisation neither touches
 * nor makes any octet path extraction looks for (':', '/', '?', ';', '#'), and
 * an escape cannot span one of them.
 *
 * The batch goes as one stream, 16 units at a time: most units become one
 * octet each, whatever URL they belong to. Only a unit that does not (and a
 * '#' or NUL) is looked at alone, and only then is the URL it belongs to
 * found (a cursor that moves forward): its length changes, and a pair or an
 * escape must end within it.
 *
 * The caller keeps 32 readable octets past the UTF-16 and 16 writable past 3
 * octets per unit (9 with normal: an escaped 3-octet character).
 */
@inline function encodeUrls(src: usize, lens: usize, count: i32, dst: usize, normal: bool): void {
  const above = i16x8.splat(0x7f);
  const high = i16x8.splat(<i16>0xff80);
  const hash = i8x16.splat(0x23);
  const nul = i8x16.splat(0);
  let units: usize = 0;
  for (let i: i32 = 0; i < count; i++) units += <usize>load<u32>(lens + (<usize>i << 2));
  const end = src + (units << 1);
  // The cursor: URL `at` (its length's address) ends at urlEnd.
  let at = lens - 4;
  let urlEnd = src;
  let s = src;
  let d = dst;
  while (s < end) {
    const a = v128.load(s);
    const b = v128.load(s, 16);
    const v = i8x16.narrow_i16x8_u(a, b); // a unit above 0xff becomes 0xff
    v128.store(d, v);
    const left = (end - s) >> 1;
    const inside: u32 = left >= 16 ? 0xffff : (1 << <u32>left) - 1; // (units past the batch are not)
    // The units to look at alone: normal, any octet normalisation changes; else
    // any unit that is not ASCII. The rest are copied as they are.
    let stop: u32;
    let marks: u32;
    if (normal) {
      stop = specialOctets(v) & inside;
      marks = i8x16.bitmask(i8x16.eq(v, hash));
    } else {
      stop = v128.any_true(v128.and(v128.or(a, b), high))
        ? (i16x8.bitmask(i16x8.gt_u(a, above)) | (i16x8.bitmask(i16x8.gt_u(b, above)) << 8)) & inside
        : 0;
      marks = i8x16.bitmask(v128.or(i8x16.eq(v, hash), i8x16.eq(v, nul)));
    }
    const plain = <usize>ctz(stop | 0x10000); // 16: none
    marks &= inside & ((1 << <u32>plain) - 1);
    while (marks != 0) {
      const m = s + (<usize>ctz(marks) << 1);
      while (m >= urlEnd) urlEnd += <usize>(load<u32>((at += 4)) & LENGTH) << 1;
      store<u32>(at, load<u32>(at) | MAY_END_EARLY);
      marks &= marks - 1;
    }
    if (stop == 0) {
      const take = min(<usize>16, left);
      s += take << 1;
      d += take;
      continue;
    }
    s += plain << 1;
    d += plain;
    while (s >= urlEnd) urlEnd += <usize>(load<u32>((at += 4)) & LENGTH) << 1;
    const from = s;
    const out = d;
    let c = <u32>load<u16>(s);
    s += 2;
    if (c < 0x80) {
      // (normal only) '%', a control, space or DEL. An escape's two hex digits
      // must be within the URL; a '%' that starts none is escaped (normalize.ts).
      const h = c == 0x25 && urlEnd - s >= 4 ? hexValue(load<u16>(s)) : -1;
      const l = h >= 0 ? hexValue(load<u16>(s, 2)) : -1;
      if (l >= 0) {
        d += putNormalEscape(d, h, l);
        s += 4;
      } else {
        putEscape(d, c);
        d += 3;
      }
    } else {
      if (c >= 0xd800 && c <= 0xdbff && s < urlEnd) {
        const low = <u32>load<u16>(s);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          s += 2;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate
      d += putUtf8(d, c, normal);
    }
    // The URL's length: octets written for the units read.
    store<u32>(at, load<u32>(at) + <u32>(d - out) - <u32>((s - from) >> 1));
  }
}

/**
 * Decides count URLs given as UTF-16 at src (lens[i] units each; see
 * encodeUrls), one verdict octet each into out (1 allowed); text is room for
 * their UTF-8 (9 octets per unit and 16 more).
 */
export function checkBatch(m: usize, src: usize, lens: usize, count: i32, text: usize, out: usize): void {
  const flags = load<u32>(m, H_FLAGS);
  const google = (flags & FLAG_GOOGLE) != 0;
  if (google) encodeUrls(src, lens, count, text, false);
  else encodeUrls(src, lens, count, text, true);
  touchTables(m, <u32>min(count, 1 << 16) * TOUCH_PER_URL);
  beginRun();
  let p = text;
  for (let i: i32 = 0; i < count; i++) {
    const raw = load<u32>(lens + (<usize>i << 2));
    const n = <i32>(raw & LENGTH);
    extractPathInRun(p, n, google, (raw & MAY_END_EARLY) != 0);
    store<u8>(out + <usize>i, <u8>decide(m, p, flags, !google));
    p += <usize>n;
  }
}

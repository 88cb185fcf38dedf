// Rule values to NFA tokens, for the compiler (src/engine/compile/compile.ts): each value's
// octets Google-escaped (for `rfc`, normalised), a run of `*` as one STAR, then
// its terminal (ANCHOR after a `$`, else ACCEPT, which also stands for a
// trailing `*`: `/a*` and `/a*$` are `/a`). Each rule's priority is the octets
// of that escaped value, `*` and `$` counted. src/engine/parse/pattern.ts states the same
// rules plainly; the property tests hold the matchers built from both together.
import { escapesRaw, hexValue, isUnreserved, specialOctets } from "./normalize";
import { hexUpper } from "../base/hex";
import { RANGE_RECORD, RULE_LIST_STAR, TOKEN_ACCEPT, TOKEN_ANCHOR, TOKEN_STAR, TOKENIZE_ANCHORED, TOKENIZE_CHANGED, TOKENIZE_RESULT } from "../../src/engine/wasm/layout";

// Tokens are u16 (T = u16: an octet, or TOKEN_STAR and the terminals) for
// the NFA a DFA is built from, or octets (T = u8) as a cold rule list holds
// them: `*` as RULE_LIST_STAR, no terminal (the rule's result says `$`).
@inline function put<T>(toks: usize, k: usize, t: u32): void {
  store<T>(toks + (k << alignof<T>()), <T>t);
}

@inline function star<T>(): u32 {
  return sizeof<T>() == 1 ? <u32>RULE_LIST_STAR : <u32>TOKEN_STAR;
}

/** Writes %XY (hex digits h, l) at token k; returns the next k. */
@inline function putEscape<T>(toks: usize, k: usize, h: u32, l: u32): usize {
  const x = <u32>hexUpper(h);
  const y = <u32>hexUpper(l);
  put<T>(toks, k, 0x25);
  put<T>(toks, k + 1, x);
  put<T>(toks, k + 2, y);
  return k + 3;
}

/** Under google, the octets of v that are not a token of their own: `*`, `%` and octets >= 0x80
 * (star and percent: 16 of each, PLAIN_SPLATS's). */
@inline function plainEnds(v: v128, star: v128, percent: v128): i32 {
  return i8x16.bitmask(v128.or(v, v128.or(i8x16.eq(v, star), i8x16.eq(v, percent))));
}

/** `*` and `%`, 16 of each: plainEnds's, loaded once a call (as constants, the
 * runtime's compiler made both again at every step of the loop). */
const PLAIN_SPLATS = memory.data<u8>([
  0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a, 0x2a,
  0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25, 0x25,
], 16);


/**
 * Tokenizes rule values, body[start, end) for each (i32 pairs at ranges), into
 * toks (u16, `room` of them), from the first rule for as long as the next one
 * surely fits (a rule of n octets takes at most 3n + 1 tokens), count at most.
 * Per rule done, its first token and its priority go to out (i32 pairs), and
 * the tokens written after them.
 * Returns the rules done.
 */
export function tokenizeRules(body: usize, ranges: usize, count: i32, rfc: bool, toks: usize, room: i32, out: usize): i32 {
  return tokenizeInto<u16>(body, ranges, RANGE_RECORD, count, rfc, toks, room, out);
}

/**
 * tokenizeRules for a cold rule list (cold-list.ts), over ranges `stride`
 * octets apart (the selector's records, read in place; toks has room for all
 * of them): octet tokens, as the list holds them (`*` as RULE_LIST_STAR, no
 * terminals); a rule's result holds TOKENIZE_ANCHORED with its priority when
 * its pattern ends with `$`, and TOKENIZE_CHANGED when its tokens are not its
 * value's first octets. A rule whose tokens are its value's first octets (no
 * `%`, no octet >= 0x80, no `**`; under rfc, no octet normalisation changes) is
 * not written: the list reads its tokens from the value the matcher keeps
 * (cold-list.ts), and its priority is its value's length. Only the others
 * (under google ~1% of the corpus's rules) are tokenized. A `*` does not send a
 * rule to the tokenizer: a quarter of the 1-10 KB files' rules hold one, and the
 * tokenizer's run of plain octets stopped at each, a branch it mostly missed.
 */
export function tokenizeColdRules(body: usize, ranges: usize, stride: usize, count: i32, rfc: bool, toks: usize, out: usize): void {
  const starSplat = v128.load(PLAIN_SPLATS);
  const percentSplat = v128.load(PLAIN_SPLATS, 16);
  let k: i32 = 0;
  for (let r = 0; r < count; r++) {
    const range = ranges + <usize>r * stride;
    const start = load<i32>(range);
    const end = load<i32>(range, 4);
    const anchored = end > start && load<u8>(body + <usize>end - 1) == 0x24;
    const stop = anchored ? end - 1 : end;
    const octets = stop - start;
    const result = out + <usize>r * TOKENIZE_RESULT;
    // Does it stand for itself? A `*` is its own token unless next to another (`**` is
    // one: the tokenizer's) or last (dropped, `/a*` is `/a` and so is `/a*$`: no anchor).
    // (The body has 16 readable octets past its end.)
    let plain: bool;
    let last: i32; // (1: a last `*`)
    if (octets <= 32) {
      // Two loads, no branch on where the octets end.
      const at = body + <usize>start;
      const v = v128.load(at);
      const w = v128.load(at + (octets > 16 ? 16 : 0));
      const live = <u32>((<u64>1 << <u64>octets) - 1); // (octets past the value do not count)
      const stars = (<u32>i8x16.bitmask(i8x16.eq(v, starSplat)) | (<u32>i8x16.bitmask(i8x16.eq(w, starSplat)) << 16)) & live;
      const special = rfc ? (<u32>specialOctets(v) | (<u32>specialOctets(w) << 16)) : (<u32>plainEnds(v, starSplat, percentSplat) | (<u32>plainEnds(w, starSplat, percentSplat) << 16));
      plain = (special & live & ~stars) == 0 && (stars & (stars >> 1)) == 0;
      last = <i32>((<u64>stars << 1) >> <u64>octets) & 1;
    } else {
      // 16 at a time, a `**` across two looks too.
      let others = 0;
      let pairs = 0;
      let carry = 0;
      for (let i = start; i < stop; i += 16) {
        const v = v128.load(body + <usize>i);
        const live = stop - i < 16 ? (1 << (stop - i)) - 1 : 0xffff;
        const stars = i8x16.bitmask(i8x16.eq(v, starSplat)) & live;
        others |= (rfc ? specialOctets(v) : plainEnds(v, starSplat, percentSplat)) & live & ~stars;
        pairs |= (stars & (stars >> 1)) | (stars & carry);
        carry = stars >> 15;
      }
      plain = others == 0 && pairs == 0;
      last = load<u8>(body + <usize>stop - 1) == 0x2a ? 1 : 0;
    }
    if (plain) {
      store<i32>(result, k);
      store<u32>(result, <u32>(end - start) | (anchored && last == 0 ? TOKENIZE_ANCHORED : 0), 4);
      k += octets - last;
      continue;
    }
    // (It writes this rule's result, its first token at 0, and its tokens' count after it.)
    tokenizeInto<u8>(body, range, stride, 1, rfc, toks + <usize>k, 3 * (end - start) + 1, result);
    store<i32>(result, k);
    k += load<i32>(result + TOKENIZE_RESULT);
  }
  store<i32>(out + <usize>count * TOKENIZE_RESULT, k);
}

@inline function tokenizeInto<T>(body: usize, ranges: usize, stride: usize, count: i32, rfc: bool, toks: usize, room: i32, out: usize): i32 {
  const STAR = star<T>();
  const starSplat = v128.load(PLAIN_SPLATS);
  const percentSplat = v128.load(PLAIN_SPLATS, 16);
  let k: usize = 0;
  let r: i32 = 0;
  for (; r < count; r++) {
    const start = <usize>load<i32>(ranges + <usize>r * stride);
    const end = <usize>load<i32>(ranges + <usize>r * stride, 4);
    if (k + 3 * (end - start) + 1 > <usize>room) break;
    const base = k;
    const anchored = end > start && load<u8>(body + end - 1) == 0x24;
    const stop = anchored ? end - 1 : end;
    let priority: i32 = anchored ? 1 : 0;
    let changed = false; // (a token that is not the octet it stands for: packed, TOKENIZE_CHANGED)
    for (let i = start; i < stop; i++) {
      // A run of octets that stand for themselves goes 16 at a time (the body
      // has 16 readable octets past its end, toks 32 writable past room).
      const v = v128.load(body + i);
      let special = rfc ? specialOctets(v) : plainEnds(v, starSplat, percentSplat);
      if (stop - i < 16) special |= 0xffff << <i32>(stop - i); // octets past the value stop the run
      const plain = <usize>ctz(special | 0x10000);
      if (plain > 0) {
        if (sizeof<T>() == 1) {
          v128.store(toks + k, v);
        } else {
          v128.store(toks + (k << 1), i16x8.extend_low_i8x16_u(v));
          v128.store(toks + (k << 1), i16x8.extend_high_i8x16_u(v), 16);
        }
        k += plain;
        priority += <i32>plain;
        i += plain;
        if (i >= stop) break;
      }
      const c = <u32>load<u8>(body + i);
      if (c == 0x2a) {
        if (k == base || <u32>load<T>(toks + ((k - 1) << alignof<T>())) != STAR) put<T>(toks, k++, STAR); // `**` is `*`
        else changed = true;
        priority++;
        continue;
      }
      if (c == 0x25 && i + 2 < end) {
        const h = hexValue(load<u8>(body + i + 1));
        const l = hexValue(load<u8>(body + i + 2));
        if (h >= 0 && l >= 0) {
          i += 2;
          changed = true;
          const v = <u32>((h << 4) | l);
          if (rfc && isUnreserved(v)) {
            put<T>(toks, k++, v); // %41 is A
            priority++;
          } else {
            k = putEscape<T>(toks, k, <u32>h, <u32>l);
            priority += 3;
          }
          continue;
        }
      }
      if (c >= 0x80 || (rfc && escapesRaw(c))) { // (rfc: as the path is normalised; a '$' here is not the last)
        k = putEscape<T>(toks, k, c >> 4, c & 15);
        priority += 3;
        changed = true;
      } else {
        put<T>(toks, k++, c);
        priority++;
      }
    }
    // The terminal: a trailing `*` is dropped (`/a*` and `/a*$` are `/a`).
    let result = <u32>priority;
    if (k > base && <u32>load<T>(toks + ((k - 1) << alignof<T>())) == STAR) {
      if (sizeof<T>() == 1) k--;
      else put<T>(toks, k - 1, TOKEN_ACCEPT);
    } else if (sizeof<T>() == 1) {
      if (anchored) result |= TOKENIZE_ANCHORED;
    } else {
      put<T>(toks, k++, anchored ? TOKEN_ANCHOR : TOKEN_ACCEPT);
    }
    if (sizeof<T>() == 1 && changed) result |= TOKENIZE_CHANGED;
    store<i32>(out + <usize>r * TOKENIZE_RESULT, <i32>base);
    store<u32>(out + <usize>r * TOKENIZE_RESULT, result, 4);
  }
  store<i32>(out + <usize>r * TOKENIZE_RESULT, <i32>k);
  return r;
}

/** Copies count runs of octets, src[from, to) for each (i32 pairs at runs),
 * one after the other to dst (the rules' values a matcher keeps). */
export function gatherRuns(src: usize, runs: usize, count: i32, dst: usize): void {
  for (let r: usize = 0; r < <usize>count; r++) {
    const from = <usize>load<i32>(runs + r * RANGE_RECORD);
    const size = <usize>load<i32>(runs + r * RANGE_RECORD, 4) - from;
    memory.copy(dst, src + from, size);
    dst += size;
  }
}

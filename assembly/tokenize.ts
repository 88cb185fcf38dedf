// Rule values to NFA tokens, for the compiler (src/engine/compile.ts): each value's
// octets Google-escaped (for `rfc`, normalised), a run of `*` as one STAR, then
// its terminal (ANCHOR after a `$`, else ACCEPT, which also stands for a
// trailing `*`: `/a*` and `/a*$` are `/a`). Each rule's priority is the octets
// of that escaped value, `*` and `$` counted. src/engine/pattern.ts states the same
// rules plainly; the property tests hold the matchers built from both together.
import { escapesRaw, hexDigit, hexValue, isUnreserved } from "./normalize";
import { TOKEN_STAR, TOKEN_ACCEPT, TOKEN_ANCHOR, RULE_LIST_STAR } from "../src/engine/layout";

@inline function put(toks: usize, k: usize, t: u32): void {
  store<u16>(toks + (k << 1), <u16>t);
}

/** Writes %XY (hex digits h, l) at token k; returns the next k. */
@inline function putEscape(toks: usize, k: usize, h: u32, l: u32): usize {
  const x = <u32>hexDigit(h);
  const y = <u32>hexDigit(l);
  put(toks, k, 0x25);
  put(toks, k + 1, x);
  put(toks, k + 2, y);
  return k + 3;
}

/**
 * Tokenizes rule values, body[start, end) for each (i32 pairs at ranges), into
 * toks (u16, `room` of them), from the first rule for as long as the next one
 * surely fits (a rule of n octets takes at most 3n + 1 tokens), count at most.
 * Per rule done, its first token and its priority go to out (i32 pairs), and
 * the tokens written after them.
 * Returns the rules done.
 */
export function tokenizeRules(body: usize, ranges: usize, count: i32, rfc: bool, toks: usize, room: i32, out: usize): i32 {
  let k: usize = 0;
  let r: i32 = 0;
  for (; r < count; r++) {
    const start = <usize>load<i32>(ranges + (<usize>r << 3));
    const end = <usize>load<i32>(ranges + (<usize>r << 3), 4);
    if (k + 3 * (end - start) + 1 > <usize>room) break;
    const base = k;
    const anchored = end > start && load<u8>(body + end - 1) == 0x24;
    const stop = anchored ? end - 1 : end;
    let priority: i32 = anchored ? 1 : 0;
    for (let i = start; i < stop; i++) {
      const c = <u32>load<u8>(body + i);
      if (c == 0x2a) {
        if (k == base || load<u16>(toks + ((k - 1) << 1)) != TOKEN_STAR) put(toks, k++, TOKEN_STAR); // `**` is `*`
        priority++;
        continue;
      }
      if (c == 0x25 && i + 2 < end) {
        const h = hexValue(load<u8>(body + i + 1));
        const l = hexValue(load<u8>(body + i + 2));
        if (h >= 0 && l >= 0) {
          i += 2;
          const v = <u32>((h << 4) | l);
          if (rfc && isUnreserved(v)) {
            put(toks, k++, v); // %41 is A
            priority++;
          } else {
            k = putEscape(toks, k, <u32>h, <u32>l);
            priority += 3;
          }
          continue;
        }
      }
      if (c >= 0x80 || (rfc && escapesRaw(c))) { // (rfc: as the path is normalised; a '$' here is not the last)
        k = putEscape(toks, k, c >> 4, c & 15);
        priority += 3;
      } else {
        put(toks, k++, c);
        priority++;
      }
    }
    if (k > base && load<u16>(toks + ((k - 1) << 1)) == TOKEN_STAR) put(toks, k - 1, TOKEN_ACCEPT);
    else put(toks, k++, anchored ? TOKEN_ANCHOR : TOKEN_ACCEPT);
    store<i32>(out + (<usize>r << 3), <i32>base);
    store<i32>(out + (<usize>r << 3), priority, 4);
  }
  store<i32>(out + (<usize>r << 3), <i32>k);
  return r;
}

/**
 * Packs n tokens (u16, as tokenizeRules writes them) into a rule list's octets
 * at dst: `*` as RULE_LIST_STAR, each rule's terminal dropped (its entry says
 * whether it ends with `$`). The compiler's last step for a cold matcher.
 */
export function packRuleTokens(src: usize, n: i32, dst: usize): void {
  for (let end = src + (<usize>n << 1); src < end; src += 2) {
    const t = <i32>load<u16>(src);
    if (t >= TOKEN_ACCEPT) continue;
    store<u8>(dst++, t == TOKEN_STAR ? <u8>RULE_LIST_STAR : <u8>t);
  }
}

/** Copies count runs of octets, src[from, to) for each (i32 pairs at runs),
 * one after the other to dst (the rules' values a matcher keeps). */
export function gatherRuns(src: usize, runs: usize, count: i32, dst: usize): void {
  for (let r: usize = 0; r < <usize>count; r++) {
    const from = <usize>load<i32>(runs + (r << 3));
    const size = <usize>load<i32>(runs + (r << 3), 4) - from;
    memory.copy(dst, src + from, size);
    dst += size;
  }
}

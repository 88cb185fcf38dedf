// A crawler's columns of a classify line with crawlers (assembly/bulk/classify.ts):
// its verdict and, with purposes, their words (TSV) or its "usage" object (JSON
// lines), as texts by purpose code, written once and copied per URL; and a TSV
// line's columns of all crawlers at once, by the pattern of verdicts of the
// distinct matchers they share (crawlers that the same groups apply to share
// one), built once per call and copied whole per URL.
import {
  CLASSIFY_MAX_CRAWLERS, PREFERENCE_ALLOWED, PREFERENCE_DISALLOWED, PREFERENCE_UNKNOWN, SLOT_NO_CRAWLER, SLOT_OPERATOR, SLOT_PURPOSES, SLOT_VERDICT, USAGE_TSV_OCTETS,
} from "../../src/engine/wasm/layout";
import { writeAscii } from "../base/ascii";

/** A purpose's preference (USAGE_BITS: layout.ts's PREFERENCE_*) as its word; writes up to 8 octets past it (bounded by USAGE_*_OCTETS). */
@inline function writePreference(o: usize, p: u32): usize {
  if (p == PREFERENCE_UNKNOWN) {
    store<u64>(o, 0x006e776f6e6b6e75); // "unknown"
    return o + 7;
  }
  if (p == PREFERENCE_ALLOWED) {
    store<u64>(o, 0x006465776f6c6c61); // "allowed"
    return o + 7;
  }
  store<u64>(o, 0x776f6c6c61736964); // "disallow"
  store<u16>(o, 0x6465, 8); // "ed"
  return o + 10;
}

/** `,"usage":{"search":"…","train-ai":"…","ai-use":"…"}` of a purpose code. */
function writeUsageJson(o: usize, code: u32): usize {
  o = writeAscii(o, ',"usage":{"search":"');
  o = writePreference(o, code & 3);
  o = writeAscii(o, '","train-ai":"');
  o = writePreference(o, (code >> 2) & 3);
  o = writeAscii(o, '","ai-use":"');
  o = writePreference(o, (code >> 4) & 3);
  store<u16>(o, 0x7d22); // "}
  return o + 2;
}

/** Adds the purposes of `urls` URLs (its crawler's code, the crawler allowed) to the crawler's 6 counts: per purpose, allowed then disallowed. */
@inline export function countPurposes(c: usize, code: u32, urls: u32 = 1): void {
  if (code == 0) return;
  for (let p: u32 = 0; p < 3; p++) {
    const pref = (code >> (p << 1)) & 3;
    if (pref == PREFERENCE_UNKNOWN) continue;
    const at = c + (<usize>((p << 1) + pref - PREFERENCE_ALLOWED) << 2);
    store<u32>(at, load<u32>(at) + urls);
  }
}

/** Slot j's kind (layout.ts's SLOT_*): with purposes (usage: k codes, 6k counts, then k kinds), from the table; else a crawler's verdict alone. */
@inline export function slotKind(usage: usize, k: i32, j: i32): i32 {
  return usage == 0 ? SLOT_VERDICT : load<i32>(usage + (<usize>(7 * k + j) << 2));
}

/** An operator slot's answer: 1 yes (its crawler may fetch the URL and the code does not disallow the purpose), 0 no, 2 unknown (no crawler for the purpose). */
@inline export function operatorSays(kind: i32, allowed: bool, code: u32): u32 {
  if (kind >= SLOT_NO_CRAWLER) return 2;
  return allowed && ((code >> (<u32>(kind - SLOT_OPERATOR) << 1)) & 3) != PREFERENCE_DISALLOWED ? 1 : 0;
}

/** An operator's TSV column: `\tyes`, `\tno`, `\tunknown` (writes up to 8 octets). */
@inline export function writeOperatorColumn(o: usize, said: u32): usize {
  if (said == 1) {
    store<u32>(o, 0x73657909);
    return o + 4;
  }
  if (said == 0) {
    store<u32>(o, 0x006f6e09);
    return o + 3;
  }
  store<u64>(o, 0x6e776f6e6b6e7509);
  return o + 8;
}

/** An operator's JSON word (`yes`, `no`, `unknown`, unquoted: its fragment opened the quote), the quote closed, and after ai-use its object. */
@inline export function writeOperatorJson(o: usize, kind: i32, said: u32): usize {
  if (said == 1) {
    store<u32>(o, 0x00736579);
    o += 3;
  } else if (said == 0) {
    store<u16>(o, 0x6f6e);
    o += 2;
  } else {
    store<u64>(o, 0x006e776f6e6b6e75);
    o += 7;
  }
  store<u16>(o, 0x7d22); // "}
  return o + ((kind - SLOT_OPERATOR) % 3 == 2 ? 2 : 1);
}

/**
 * A crawler's verdict-and-purposes texts, by purpose code (6 bits: 64 slots, written
 * once): TSV `\tallowed\t<search>\t<train-ai>\t<ai-use>`, slot DISALLOWED_SLOT (a
 * code no preference makes) `\tdisallowed\tunknown\tunknown\tunknown`; JSON
 * `,"usage":{…}}` (the crawler's object closed). Copied per URL and crawler 8
 * octets at a time: with many crawlers, writing the words anew per URL was a
 * large share of a run.
 */
const TSV_SLOT: usize = 48;
const JSON_SLOT: usize = 96;
export const DISALLOWED_SLOT: u32 = 63;
const tsvTails = new StaticArray<u8>(64 * <i32>TSV_SLOT);
const jsonTails = new StaticArray<u8>(64 * <i32>JSON_SLOT);
const tsvTailLength = new StaticArray<u8>(64);
const jsonTailLength = new StaticArray<u8>(64);
let tailsBuilt = false;

/** The texts, once (the first call with purposes). */
export function buildTails(): void {
  if (tailsBuilt) return;
  for (let code: u32 = 0; code < 64; code++) {
    const shown: u32 = code == DISALLOWED_SLOT ? 0 : code;
    const t = changetype<usize>(tsvTails) + <usize>code * TSV_SLOT;
    let o = writeAscii(t, code == DISALLOWED_SLOT ? '\tdisallowed' : '\tallowed');
    for (let p: u32 = 0; p < 3; p++) {
      store<u8>(o, 0x09); // \t
      o = writePreference(o + 1, (shown >> (p << 1)) & 3);
    }
    unchecked((tsvTailLength[code] = <u8>(o - t)));
    const js = changetype<usize>(jsonTails) + <usize>code * JSON_SLOT;
    o = writeUsageJson(js, shown);
    store<u8>(o, 0x7d); // }
    unchecked((jsonTailLength[code] = <u8>(o + 1 - js)));
  }
  tailsBuilt = true;
}

/** Copies a text of `length` octets from its slot, 8 at a time (up to 7 past its end: the bound's slack). */
@inline export function copyTail(o: usize, from: usize, length: usize): usize {
  for (let i: usize = 0; i < length; i += 8) store<u64>(o + i, load<u64>(from + i));
  return o + length;
}

/** A crawler's `,"usage":{…}}` (its object closed) for purpose code `code`: 0 where it may not fetch. */
@inline export function writeUsageTail(o: usize, code: u32): usize {
  return copyTail(o, changetype<usize>(jsonTails) + <usize>code * JSON_SLOT, <usize>unchecked(jsonTailLength[code]));
}

/** A crawler's TSV columns: its verdict, and with purposes (usage) the words of its code, all unknown where it may not fetch. */
@inline export function writeTsvColumns(o: usize, allowed: bool, usage: bool, code: u32): usize {
  if (usage) {
    const slot = allowed ? code : DISALLOWED_SLOT;
    return copyTail(o, changetype<usize>(tsvTails) + <usize>slot * TSV_SLOT, <usize>unchecked(tsvTailLength[slot]));
  }
  if (allowed) {
    store<u64>(o, 0x6465776f6c6c6109); // "\tallowed"
    return o + 8;
  }
  store<u64>(o, 0x6f6c6c6173696409); // "\tdisallo"
  store<u16>(o, 0x6577, 8); // "we"
  store<u8>(o, 0x64, 10); // "d"
  return o + 11;
}

/**
 * Verdict patterns. Of a call's k crawlers, most share a matcher (the same groups
 * apply to most crawlers of a host), and a TSV line after its URL says
 * only each crawler's verdict (and its code's purposes, fixed for the call): so
 * the line's columns depend on the verdicts of the distinct matchers alone, one
 * bit each, the pattern's key. Each pattern's columns are built once per call
 * (up to PATTERN_ROWS of them kept; others are written in place) and copied whole
 * per URL; the counts add up per pattern, and go to the crawlers' counts once, at
 * the call's end (endPatterns). The call's crawlers: patternBit, then beginPatterns.
 */
export const PATTERN_MATCHERS: i32 = 8;
/** patternBit of a crawler whose robots.txt decides alone: no file (all allowed), or unreachable (all disallowed). */
export const ALWAYS: i32 = -1;
export const NEVER: i32 = -2;
/** Per crawler: the bit of its matcher's verdict in a key, or ALWAYS / NEVER. */
export const patternBit = new StaticArray<i32>(CLASSIFY_MAX_CRAWLERS);

const KEYS: i32 = 1 << PATTERN_MATCHERS;
const PATTERN_ROWS: i32 = 16;
/** A row: every crawler's columns (USAGE_TSV_OCTETS each at most, slack included) and the LF. */
const ROW_OCTETS: usize = <usize>CLASSIFY_MAX_CRAWLERS * USAGE_TSV_OCTETS + 16;
const rows = new StaticArray<u8>(PATTERN_ROWS * <i32>ROW_OCTETS);
const rowLength = new StaticArray<u32>(PATTERN_ROWS);
/** Per key: 1 + its row, 0 when not built this call. */
const rowOf = new StaticArray<i32>(KEYS);
/** Per key: URLs of the call with that pattern; and the keys met, in order. */
const urlsOf = new StaticArray<u32>(KEYS);
const keysMet = new StaticArray<u32>(KEYS);
let keyCount: i32 = 0;
let rowCount: i32 = 0;
let crawlers: i32 = 0;
let codes: usize = 0;

/** A call begins: k crawlers (patternBit set), their purpose codes at usage (k u32s, then their counts), or usage 0. */
export function beginPatterns(k: i32, usage: usize): void {
  crawlers = k;
  codes = usage;
  for (let i = 0; i < keyCount; i++) unchecked((urlsOf[keysMet[i]] = 0)); // (a call that did not end: none does)
  keyCount = 0;
  rowCount = 0;
}

/** Crawler j's verdict in the pattern key. */
@inline function allowedIn(j: i32, key: u32): bool {
  const bit = unchecked(patternBit[j]);
  return bit >= 0 ? ((key >> <u32>bit) & 1) != 0 : bit == ALWAYS;
}

/** A URL of pattern `key`: every crawler's columns and the LF, written at o. */
export function writePatternRow(o: usize, key: u32): usize {
  let urls = unchecked(urlsOf[key]);
  if (urls == 0) {
    unchecked((keysMet[keyCount++] = key));
    unchecked((rowOf[key] = 0));
  }
  unchecked((urlsOf[key] = urls + 1));
  const row = unchecked(rowOf[key]);
  if (row != 0) {
    const length = <usize>unchecked(rowLength[row - 1]);
    memory.copy(o, changetype<usize>(rows) + <usize>(row - 1) * ROW_OCTETS, length);
    return o + length;
  }
  if (rowCount == PATTERN_ROWS) return writeColumns(o, key); // (many patterns: the rest in place)
  const at = changetype<usize>(rows) + <usize>rowCount * ROW_OCTETS;
  const length = writeColumns(at, key) - at;
  unchecked((rowLength[rowCount] = <u32>length));
  unchecked((rowOf[key] = ++rowCount));
  memory.copy(o, at, length);
  return o + length;
}

function writeColumns(o: usize, key: u32): usize {
  const usage = codes != 0;
  for (let j = 0; j < crawlers; j++) {
    const kind = slotKind(codes, crawlers, j);
    const code = usage ? load<u32>(codes + (<usize>j << 2)) : 0;
    o = kind >= SLOT_OPERATOR ? writeOperatorColumn(o, operatorSays(kind, allowedIn(j, key), code)) : writeTsvColumns(o, allowedIn(j, key), kind == SLOT_PURPOSES, code);
  }
  store<u8>(o, 0x0a);
  return o + 1;
}

/** The call's end: each pattern's URLs added to the counts of the crawlers it allows (k u32s), and of their purposes; an operator slot's count is its yes. */
export function endPatterns(counts: usize): void {
  const k = crawlers;
  for (let i = 0; i < keyCount; i++) {
    const key = unchecked(keysMet[i]);
    const urls = unchecked(urlsOf[key]);
    unchecked((urlsOf[key] = 0));
    for (let j = 0; j < k; j++) {
      const kind = slotKind(codes, k, j);
      const c = counts + (<usize>j << 2);
      if (kind >= SLOT_OPERATOR) {
        // (An operator's count: its yes.)
        if (operatorSays(kind, allowedIn(j, key), load<u32>(codes + (<usize>j << 2))) == 1) store<u32>(c, load<u32>(c) + urls);
        continue;
      }
      if (!allowedIn(j, key)) continue;
      store<u32>(c, load<u32>(c) + urls);
      if (kind == SLOT_PURPOSES) countPurposes(codes + (<usize>k << 2) + <usize>j * 24, load<u32>(codes + (<usize>j << 2)), urls);
    }
  }
  keyCount = 0;
}

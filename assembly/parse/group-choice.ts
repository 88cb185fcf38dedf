// Which groups apply to a crawler, decided here alone: a user-agent line names
// the crawler when it is not the `*` line and its product token is one of the
// crawler's names; the crawler gets every group that a line names it in,
// failing that every `*` group. The selector asks it line by line over a body
// (select.ts); the host asks groupsApplying over the agent lines of records
// it has read (src/engine/parse/agents.ts), and agentNameIndex over lexed
// lines (src/bulk/classify/crawler-lines.ts).
import { isSpace } from "./lexer";
import { AGENT_FIELDS, AGENT_START, AGENT_END, AGENT_LINE, AGENT_OWNER, AGENT_FLAGS, AGENT_CHOICE_NAMED, AGENT_EACH_CRAWLERS, SELECT_NAMES_CRAWLER, SELECT_GLOBAL } from "../../src/engine/wasm/layout";

@inline function isTokenChar(c: u32): bool {
  const l = c | 0x20;
  return l - 0x61 < 26 || c == 0x2d || c == 0x5f;
}

/** Is the user-agent value b[start, end) the global group's: `*` alone, or followed by whitespace? */
@inline function isGlobalValue(b: usize, start: i32, end: i32): bool {
  return end > start && load<u8>(b + start) == 0x2a && (end - start == 1 || isSpace(load<u8>(b + start + 1)));
}

/** The length of the value b[start, end)'s product token: its leading run of [A-Za-z_-]. */
@inline function tokenLength(b: usize, start: i32, end: i32): i32 {
  let length = 0;
  while (start + length < end && isTokenChar(load<u8>(b + start + length))) length++;
  return length;
}

/** Which of the crawler's names (at names: a count, then each as its length and
 * its octets, in lower case) the value b[start, end)'s product token (its
 * leading run of [A-Za-z_-], in ASCII lower case) is: its index, or -1. */
@inline function nameIndexOf(b: usize, start: i32, end: i32, names: usize): i32 {
  return tokenIndexOf(b, start, tokenLength(b, start, end), names);
}

/** Which of the names at names (as nameIndexOf takes them) the product token b[start, start + length) is (in any
 * case): its index, or -1. */
@inline function tokenIndexOf(b: usize, start: i32, length: i32, names: usize): i32 {
  const count = load<i32>(names);
  let at = names + 4;
  for (let i = 0; i < count; i++) {
    const nameLength = load<i32>(at);
    if (nameLength == length) {
      let k = 0;
      while (k < length) {
        let c = <u32>load<u8>(b + start + k);
        if (c - 0x41 < 26) c |= 0x20;
        if (c != <u32>load<u8>(at + 4 + k)) break;
        k++;
      }
      if (k == length) return i;
    }
    at += 4 + <usize>nameLength;
  }
  return -1;
}

/** A user-agent line's value b[start, end), for the crawler whose names are at
 * names: SELECT_GLOBAL for the `*` line, SELECT_NAMES_CRAWLER when it names
 * the crawler, else 0. */
export function agentFlags(b: usize, start: i32, end: i32, names: usize): i32 {
  if (isGlobalValue(b, start, end)) return SELECT_GLOBAL;
  return nameIndexOf(b, start, end, names) >= 0 ? SELECT_NAMES_CRAWLER : 0;
}

/** The flag of the groups that apply, given the flags of all the lines
 * (or'ed): the groups naming the crawler if any does, else the `*` groups. */
@inline export function wantedOf(lineFlags: i32): i32 {
  return (lineFlags & SELECT_NAMES_CRAWLER) != 0 ? SELECT_NAMES_CRAWLER : SELECT_GLOBAL;
}

/** The index of the crawler's name (at names, as agentFlags takes them) that
 * the user-agent value at [start, end) names, or -1 (none; the `*` line names none). */
export function agentNameIndex(start: usize, end: usize, names: usize): i32 {
  if (isGlobalValue(0, <i32>start, <i32>end)) return -1;
  return nameIndexOf(0, <i32>start, <i32>end, names);
}

/** Is `line` among the lines at names (a count, then each line's number)? */
function amongLines(line: i32, names: usize): bool {
  const count = load<i32>(names);
  for (let i = 0; i < count; i++) if (load<i32>(names + 4 + (<usize>i << 2)) == line) return true;
  return false;
}

/**
 * Which owners (groups, or crawl-delay runs) of count user-agent lines apply to
 * the crawler: entries holds AGENT_FIELDS i32s a line (its value in values, its
 * line number, its owner's index; owners ascending, each one's lines together).
 * names: the crawler's names, or with byLines the line numbers that name it
 * (the compat entry's). wildcard: a value starting with `*` is a `*` line
 * (crawl-delay's runs). Writes the owners' indices that apply, ascending, at
 * out; returns how many, with AGENT_CHOICE_NAMED when they name the crawler.
 */
export function groupsApplying(values: usize, entries: usize, count: i32, names: usize, byLines: bool, wildcard: bool, out: usize): i32 {
  const size = <usize>(AGENT_FIELDS << 2);
  const end = entries + <usize>count * size;
  let all = 0;
  for (let e = entries; e < end; e += size) {
    const start = load<i32>(e, AGENT_START << 2);
    const stop = load<i32>(e, AGENT_END << 2);
    let flags: i32;
    if (byLines) {
      flags = isGlobalValue(values, start, stop) ? SELECT_GLOBAL : amongLines(load<i32>(e, AGENT_LINE << 2), names) ? SELECT_NAMES_CRAWLER : 0;
    } else {
      flags = agentFlags(values, start, stop, names);
    }
    if (wildcard && stop > start && load<u8>(values + start) == 0x2a) flags |= SELECT_GLOBAL;
    store<i32>(e, flags, AGENT_FLAGS << 2);
    all |= flags;
  }
  const wanted = wantedOf(all);
  const n = ownersOf(entries, end, wanted, out);
  return wanted == SELECT_NAMES_CRAWLER ? n | AGENT_CHOICE_NAMED : n;
}

/** Writes at out, ascending, the owners of the lines in [entries, end) whose AGENT_FLAGS have a bit of `wanted`;
 * returns how many. */
@inline function ownersOf(entries: usize, end: usize, wanted: i32, out: usize): i32 {
  const size = <usize>(AGENT_FIELDS << 2);
  let n = 0;
  let last = -1;
  for (let e = entries; e < end; e += size) {
    const owner = load<i32>(e, AGENT_OWNER << 2);
    if (owner == last || (load<i32>(e, AGENT_FLAGS << 2) & wanted) == 0) continue;
    store<i32>(out + (<usize>n << 2), owner);
    n++;
    last = owner;
  }
  return n;
}

/** A line's bit in groupsApplyingEach for the `*` line, past the crawlers' bits (AGENT_EACH_CRAWLERS of them). */
const EACH_GLOBAL = 1 << AGENT_EACH_CRAWLERS;

/**
 * groupsApplying (names by the crawlers' names, no wildcard) for each of `crawlers` crawlers (at most
 * AGENT_EACH_CRAWLERS) over the same count user-agent lines, each line read once: its product token compared with
 * every crawler's names (their names one crawler's after another's at names, each as groupsApplying takes
 * them), the crawlers it names kept as bits in its AGENT_FLAGS. Crawler c's owners are written at
 * out + c * stride, its answer (groupsApplying's) at answers + 4c. (The audit asks it for its crawlers site
 * after site: src/bulk/audit/crawler-groups.ts; a call a crawler read each line's token again for each.)
 */
export function groupsApplyingEach(values: usize, entries: usize, count: i32, names: usize, crawlers: i32, out: usize, stride: i32, answers: usize): void {
  const size = <usize>(AGENT_FIELDS << 2);
  const end = entries + <usize>count * size;
  let all = 0;
  for (let e = entries; e < end; e += size) {
    const start = load<i32>(e, AGENT_START << 2);
    const stop = load<i32>(e, AGENT_END << 2);
    let lineCrawlers = 0;
    if (isGlobalValue(values, start, stop)) {
      lineCrawlers = EACH_GLOBAL;
    } else {
      const length = tokenLength(values, start, stop);
      let at = names;
      for (let c = 0; c < crawlers; c++) {
        if (tokenIndexOf(values, start, length, at) >= 0) lineCrawlers |= 1 << c;
        // (Past this crawler's names: their count, then each its length and octets.)
        const n = load<i32>(at);
        at += 4;
        for (let i = 0; i < n; i++) at += 4 + <usize>load<i32>(at);
      }
    }
    store<i32>(e, lineCrawlers, AGENT_FLAGS << 2);
    all |= lineCrawlers;
  }
  for (let c = 0; c < crawlers; c++) {
    // The groups naming the crawler if any does, else the `*` groups (wantedOf's choice).
    const named = (all & (1 << c)) != 0;
    const n = ownersOf(entries, end, named ? 1 << c : EACH_GLOBAL, out + <usize>c * <usize>stride);
    store<i32>(answers + (<usize>c << 2), named ? n | AGENT_CHOICE_NAMED : n);
  }
}

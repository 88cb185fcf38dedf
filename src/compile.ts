// The compiler: the rules that apply to a crawler, as the ranked NFA table the
// lazy DFA is built from. Rule ids are ranks: sorted by priority (longest first),
// then by line (first wins), so the best match of a kind is the lowest id.
//
// It reads each rule's value straight from the robots.txt octets and writes
// escaped (and, for `rfc`, normalised) tokens into one array: no object or
// typed array per rule. src/pattern.ts states the same rules plainly; the
// reference matcher uses that, and the property tests hold the two together.
import type { Group, RuleKind } from './records.js';
import { escapePattern, indexHtmDirectory, Profile, STAR } from './pattern.js';

/** NFA terminal tokens: the end of a pattern without `$` (matched), and with `$`. */
export const ACCEPT = 257;
export const ANCHOR = 258;

export interface RuleTable {
  /** The robots.txt octets the rules point into. */
  body: Uint8Array;
  count: number;
  // Per rule id (rank):
  disallow: Uint8Array;
  line: Int32Array;
  priority: Int32Array;
  valueStart: Int32Array;
  valueEnd: Int32Array;
  /** NFA: positions of all rules in rank order, each rule's tokens then ACCEPT or ANCHOR. */
  tok: Uint16Array;
  posRule: Int32Array;
  /** First position of each rule. */
  starts: Int32Array;
  /** Byte -> class. Octets no pattern names share one class. */
  classMap: Uint8Array;
  /** Class -> a byte of it, or -1 for the class of unnamed octets. */
  classRep: Int16Array;
  nclasses: number;
}

const HEX = [...'0123456789ABCDEF'].map((c) => c.charCodeAt(0));

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

function isUnreserved(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e;
}

/** Growable token buffer shared by all compilations (compiling is never re-entered). */
let toks = new Uint16Array(4096);
let n = 0;

function push(t: number): void {
  if (n === toks.length) {
    const bigger = new Uint16Array(toks.length * 2);
    bigger.set(toks);
    toks = bigger;
  }
  // `**` is `*`.
  if (t === STAR && n > ruleBase && toks[n - 1] === STAR) return;
  toks[n++] = t;
}
let ruleBase = 0;

/**
 * Writes the tokens of body[start, end) (a rule value) and its terminal; returns
 * the priority: the octets of the Google-escaped value, or for `rfc` of its
 * normalised form, counting `*` and `$`.
 */
function tokenize(b: Uint8Array, start: number, end: number, rfc: boolean): number {
  ruleBase = n;
  const anchored = end > start && b[end - 1] === 0x24;
  const stop = anchored ? end - 1 : end;
  let priority = anchored ? 1 : 0;
  for (let i = start; i < stop; i++) {
    const c = b[i];
    if (c === 0x25 && i + 2 < end && hexValue(b[i + 1]) >= 0 && hexValue(b[i + 2]) >= 0) {
      const h = hexValue(b[i + 1]);
      const l = hexValue(b[i + 2]);
      i += 2;
      const v = (h << 4) | l;
      if (rfc && (isUnreserved(v) || v === 0x2a || v === 0x24)) {
        push(v); // %41 is A; %2A and %24 are a literal * and $
        priority += isUnreserved(v) ? 1 : 3;
      } else {
        push(0x25);
        push(HEX[h]);
        push(HEX[l]);
        priority += 3;
      }
    } else if (c >= 0x80 || (rfc && (c <= 0x20 || c === 0x7f))) {
      push(0x25);
      push(HEX[c >> 4]);
      push(HEX[c & 15]);
      priority += 3;
    } else {
      push(c === 0x2a ? STAR : c);
      priority += 1;
    }
  }
  // A trailing `*` matches anything, the end too: `/a*` and `/a*$` are `/a`.
  if (n > ruleBase && toks[n - 1] === STAR) {
    n--;
    push(ACCEPT);
  } else {
    push(anchored ? ANCHOR : ACCEPT);
  }
  return priority;
}

/** Does body[start, end) contain "/index.htm"? (Google's index.htm rule; rare.) */
function mentionsIndexHtm(b: Uint8Array, start: number, end: number): boolean {
  for (let i = b.indexOf(0x69, start); i >= 0 && i + 9 <= end; i = b.indexOf(0x69, i + 1)) {
    if (i > start && b[i - 1] === 0x2f && b[i + 1] === 0x6e && b[i + 2] === 0x64 && b[i + 3] === 0x65 &&
        b[i + 4] === 0x78 && b[i + 5] === 0x2e && b[i + 6] === 0x68 && b[i + 7] === 0x74 && b[i + 8] === 0x6d) {
      return true;
    }
  }
  return false;
}

export function compileRules(body: Uint8Array, groups: readonly Group[], profile: Profile): RuleTable {
  const rfc = profile === 'rfc';
  let max = 0;
  for (const g of groups) max += g.rules.length;
  max *= 2; // room for Google's index.htm companions
  const kindOf = new Uint8Array(max);
  const lineOf = new Int32Array(max);
  const prioOf = new Int32Array(max);
  const tokAt = new Int32Array(max + 1);
  const vStart = new Int32Array(max);
  const vEnd = new Int32Array(max);
  let count = 0;
  n = 0;
  const add = (disallow: boolean, line: number, start: number, end: number, priority: number) => {
    kindOf[count] = disallow ? 1 : 0;
    lineOf[count] = line;
    prioOf[count] = priority;
    vStart[count] = start;
    vEnd[count] = end;
    tokAt[++count] = n;
  };
  for (const g of groups) {
    for (const r of g.rules) {
      add(r.kind === 'disallow', r.line, r.start, r.end, tokenize(body, r.start, r.end, rfc));
      if (!rfc && r.kind === 'allow' && mentionsIndexHtm(body, r.start, r.end)) {
        // An allow whose last segment starts with /index.htm also allows its directory.
        const dir = indexHtmDirectory(escapePattern(body.subarray(r.start, r.end)));
        if (dir) add(false, r.line, r.start, r.end, tokenize(dir, 0, dir.length, false));
      }
    }
  }

  // Rank: the longest pattern first; on equal length, the first line, then file order.
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => prioOf[b] - prioOf[a] || lineOf[a] - lineOf[b] || a - b);

  const t: RuleTable = {
    body,
    count,
    disallow: new Uint8Array(count),
    line: new Int32Array(count),
    priority: new Int32Array(count),
    valueStart: new Int32Array(count),
    valueEnd: new Int32Array(count),
    tok: new Uint16Array(n),
    posRule: new Int32Array(n),
    starts: new Int32Array(count),
    classMap: new Uint8Array(256),
    classRep: new Int16Array(0),
    nclasses: 0,
  };
  const used = new Uint8Array(256);
  let p = 0;
  for (let id = 0; id < count; id++) {
    const f = order[id];
    t.disallow[id] = kindOf[f];
    t.line[id] = lineOf[f];
    t.priority[id] = prioOf[f];
    t.valueStart[id] = vStart[f];
    t.valueEnd[id] = vEnd[f];
    t.starts[id] = p;
    for (let k = tokAt[f]; k < tokAt[f + 1]; k++) {
      const tok = toks[k];
      if (tok < 256) used[tok] = 1;
      t.tok[p] = tok;
      t.posRule[p++] = id;
    }
  }

  const reps: number[] = [];
  for (let b = 0; b < 256; b++) {
    if (used[b]) {
      t.classMap[b] = reps.length;
      reps.push(b);
    }
  }
  if (reps.length < 256) {
    const other = reps.length;
    for (let b = 0; b < 256; b++) if (!used[b]) t.classMap[b] = other;
    reps.push(-1);
  }
  t.classRep = Int16Array.from(reps);
  t.nclasses = reps.length;
  return t;
}

/** The rule's value as it is matched (Google-escaped), for explanations. */
export function ruleText(t: RuleTable, id: number): string {
  return new TextDecoder().decode(escapePattern(t.body.subarray(t.valueStart[id], t.valueEnd[id])));
}

export function ruleKind(t: RuleTable, id: number): RuleKind {
  return t.disallow[id] ? 'disallow' : 'allow';
}

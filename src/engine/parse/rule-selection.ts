// The rules that apply to a crawler, read straight from the lexer's line
// records: the compiler's input, with no records built (no group, agent line or
// rule as a JS object, no string): a parse for compile() alone is a lex in the
// core and one loop over its records. The same selection as applicableGroups
// over readRecords' groups (agents.ts, records.ts), which the records' users
// (lint, the reference matcher, crawl-delay) and a compile after them take:
// every group naming one of the agent's product tokens; failing that, every `*` group.
import { lexBatches } from './lexer.js';
import { KEY_ALLOW, KEY_DISALLOW, KEY_KIND, KEY_USER_AGENT, LEX_FIELDS, LEX_KEY, LEX_LINE, LEX_TYPE, LEX_TYPE_RECORD, LEX_VALUE_END, LEX_VALUE_START } from '../wasm/layout.js';
import { asciiLower, isGlobalAgent, isTokenChar, type Group } from './records.js';
import { grown } from './grown.js';

/** A selected rule: SEL_FIELDS ints in `selected`. */
export const SEL_DISALLOW = 0; // 1 for a disallow
export const SEL_LINE = 1;
export const SEL_START = 2; // the value as written: body[start, end)
export const SEL_END = 3;
const SEL_GROUP = 4; // (while selecting: its group)
export const SEL_FIELDS = 5;

/** The rules selected last, in file order (shared: compiling is never re-entered). */
export let selected = new Int32Array(SEL_FIELDS * 256);
/** Per group while selecting: NAMES_CRAWLER and GLOBAL bits. */
let groupFlags = new Uint8Array(64);
const NAMES_CRAWLER = 1;
const GLOBAL = 2;

let count = 0;
let group = -1;
let groupHasRules = false;
let anyNames = 0;
let crawler: readonly string[] = [];
const EMPTY = new Uint8Array(0);
let octets: Uint8Array = EMPTY;

/** Selects the rules of body (as robots.txt octets) that apply to the crawler
 * (its product tokens, lower-cased: agentTokens) into `selected`; returns how many. */
export function selectRules(body: Uint8Array, names: readonly string[]): number {
  count = 0;
  group = -1;
  groupHasRules = false;
  anyNames = 0;
  crawler = names;
  octets = body;
  lexBatches(body, visit);
  octets = EMPTY;
  return keep(anyNames !== 0 ? NAMES_CRAWLER : GLOBAL);
}

/** Selects the rules of groups already read (applicableGroups') into `selected`; returns how many. */
export function selectGroupRules(groups: readonly Group[]): number {
  let n = 0;
  for (const g of groups) n += g.rules.length;
  if (selected.length < n * SEL_FIELDS) selected = new Int32Array(2 * n * SEL_FIELDS);
  let at = 0;
  for (const g of groups) {
    for (const r of g.rules) {
      selected[at + SEL_DISALLOW] = r.kind === 'disallow' ? 1 : 0;
      selected[at + SEL_LINE] = r.line;
      selected[at + SEL_START] = r.start;
      selected[at + SEL_END] = r.end;
      at += SEL_FIELDS;
    }
  }
  return n;
}

// (A function made once: a closure per compile costs an allocation.)
function visit(r: Int32Array, from: number, to: number): void {
  // Room for every record of the batch as a rule: no check per rule.
  const room = (count + (to - from) / LEX_FIELDS) * SEL_FIELDS;
  if (selected.length < room) selected = grown(selected, 2 * room, count * SEL_FIELDS);
  const out = selected;
  let at = count * SEL_FIELDS;
  for (let i = from; i < to; i += LEX_FIELDS) {
    if (r[i + LEX_TYPE] !== LEX_TYPE_RECORD) continue;
    const key = r[i + LEX_KEY] & KEY_KIND;
    if (key === KEY_USER_AGENT) {
      // A user-agent line after a rule starts a new group.
      if (group < 0 || groupHasRules) {
        group++;
        if (group === groupFlags.length) groupFlags = grown(groupFlags, group + 1, group);
        groupFlags[group] = 0;
        groupHasRules = false;
      }
      const flags = agentFlags(r[i + LEX_VALUE_START], r[i + LEX_VALUE_END]);
      groupFlags[group] |= flags;
      anyNames |= flags & NAMES_CRAWLER;
    } else if (key === KEY_ALLOW || key === KEY_DISALLOW) {
      if (group < 0) continue; // (a rule before any user-agent line: ignored)
      groupHasRules = true;
      out[at + SEL_DISALLOW] = key === KEY_DISALLOW ? 1 : 0;
      out[at + SEL_LINE] = r[i + LEX_LINE];
      out[at + SEL_START] = r[i + LEX_VALUE_START];
      out[at + SEL_END] = r[i + LEX_VALUE_END];
      out[at + SEL_GROUP] = group;
      at += SEL_FIELDS;
    }
  }
  count = at / SEL_FIELDS;
}

/** Entries kept between selections: a large file's are dropped after it (see compile.ts's scratch). */
const KEPT_ENTRIES = 1 << 16;

/** Drops what a large file grew the selection to (called once its rules are compiled). */
export function releaseLargeSelection(): void {
  if (selected.length > KEPT_ENTRIES) selected = new Int32Array(SEL_FIELDS * 256);
  if (groupFlags.length > KEPT_ENTRIES) groupFlags = new Uint8Array(64);
}

/** Keeps the rules of the groups with a flag of `wanted`, in order; returns how many. */
function keep(wanted: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    if ((groupFlags[selected[i * SEL_FIELDS + SEL_GROUP]] & wanted) === 0) continue;
    if (n !== i) selected.copyWithin(n * SEL_FIELDS, i * SEL_FIELDS, (i + 1) * SEL_FIELDS);
    n++;
  }
  return n;
}

/** A user-agent line's value body[start, end): GLOBAL for `*` (alone, or
 * followed by whitespace), NAMES_CRAWLER when its product token (its leading
 * run of [A-Za-z_-], in ASCII lower case) is one of the agent's product tokens (as
 * records.ts's agentLine and agents.ts's lineNamesAgent() say it). */
function agentFlags(start: number, end: number): number {
  const b = octets;
  if (isGlobalAgent(b, start, end)) return GLOBAL;
  let length = 0;
  while (start + length < end && isTokenChar(b[start + length])) length++;
  for (const name of crawler) {
    if (name.length !== length) continue;
    let k = 0;
    while (k < length && asciiLower(b[start + k]) === name.charCodeAt(k)) k++;
    if (k === length) return NAMES_CRAWLER;
  }
  return 0;
}

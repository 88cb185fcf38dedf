// The rules that apply to a crawler, read straight from the body by the core
// (assembly/parse/select.ts: the lexer's lines and the group logic in one pass, no
// record per line): the compiler's input, with no records built (no group,
// agent line or rule as a JS object, no string). The same selection as
// applicableGroups over readRecords' groups (agents.ts, records.ts), which the
// records' users (lint, the reference matcher, crawl-delay) and a compile after
// them take: every group naming one of the agent's product tokens; failing
// that, every `*` group.
import { core } from '../wasm/core.js';
import { SELECT_FIELDS, SELECT_FLAGS } from '../wasm/layout.js';
import { type Group } from './records.js';
import { traitsOf, type Profile } from './profile.js';
import { grown } from './grown.js';

/** A selected rule: SEL_FIELDS ints in `selected` (the core's SELECT_* records, layout.ts). */
export const SEL_DISALLOW = 0; // 1 for a disallow
export const SEL_LINE = 1;
export const SEL_START = 2; // the value as written: body[start, end)
export const SEL_END = 3;
export const SEL_FIELDS = SELECT_FIELDS; // (and, while selecting, its group's flags)

/** The rules selected last, in file order (shared: compiling is never re-entered);
 * see selectedRules(): a selection that one call of the core held stays there. */
export let selected = new Int32Array(SEL_FIELDS * 256);

/** Where the last selection's rules are in the core (its selector's output, SEL_FIELDS
 * i32s each), or 0 when `selected` holds them; valid until the core's compiler
 * areas are used again (the compiler reads them first). */
export let selectionAt = 0;
let selectionCount = 0;

/** The last selection's rules in `selected` (copied from the core if they are still there). */
export function selectedRules(): Int32Array {
  if (selectionAt !== 0) {
    const n = selectionCount * SEL_FIELDS;
    if (selected.length < n) selected = new Int32Array(2 * n);
    const from = selectionAt >>> 2;
    const i32 = core().i32;
    // (A loop for a few rules: a subarray costs more than copying them.)
    if (selectionCount > 16) selected.set(i32.subarray(from, from + n));
    else for (let i = 0; i < n; i++) selected[i] = i32[from + i];
    selectionAt = 0;
  }
  return selected;
}

/** Rules per call of the core's selector: its output area stays small. */
const SELECT_BATCH = 1024;

/** Selects the rules of body (as robots.txt octets) that apply to the crawler
 * (its product tokens, lower-cased: agentTokens), in the groups the profile
 * reads (readRecords'); returns how many. Most files'
 * fit one call of the core, and stay there (selectionAt: the cold compiler reads
 * them in place); selectedRules() gives them. */
export function selectRules(body: Uint8Array, names: readonly string[], profile: Profile): number {
  const c = core();
  selectionAt = 0;
  const encoded = encodedNames(names);
  const at = c.selectorBuffers(body.length, encoded.length, SELECT_BATCH * SELECT_FIELDS * 4);
  c.putBody(body, at.body);
  c.putNames(encoded, at.names);
  const x = c.exports;
  x.selectBegin(at.body, body.length, at.names, traitsOf(profile).contentUsageIsRule);
  let n = 0;
  const from = at.out >>> 2;
  for (let first = true; ; first = false) {
    const got = x.selectRun(at.out, SELECT_BATCH);
    const done = x.selectDone() !== 0;
    // Most files fit one call: the core keeps the rules of the groups that apply, and holds them; else keep() does, once all are here.
    if (first && done) {
      selectionAt = at.out;
      selectionCount = x.selectKeep(at.out, got);
      return selectionCount;
    }
    const need = (n + got) * SEL_FIELDS;
    if (selected.length < need) selected = grown(selected, 2 * need, n * SEL_FIELDS);
    const i32 = c.i32;
    const to = n * SEL_FIELDS;
    // (A loop for a few rules: a subarray costs more than copying them.)
    if (got > 16) selected.set(i32.subarray(from, from + got * SEL_FIELDS), to);
    else for (let i = 0; i < got * SEL_FIELDS; i++) selected[to + i] = i32[from + i];
    n += got;
    if (done) {
      return keep(n, x.selectWanted());
    }
  }
}

/** The names as the core reads them (layout.ts), by names list: a crawler compiles host after host with the same
 * list, and the audit asks for several crawlers in turn, site after site. The last asked is checked first. */
let namesEncoded: readonly string[] | undefined;
let namesOctets = new Uint8Array(4);
const encodedByNames = new WeakMap<readonly string[], typeof namesOctets>();

/** Of the crawler's names (lower-cased already, by agentTokens), in their order, those the core reads: those
 * that can name a group (letters, '-' and '_', or none); others name none. */
export function namesTheCoreReads(names: Iterable<string>): string[] {
  return [...names].filter((name) => /^[a-z_-]*$/.test(name));
}

/** The crawler's names for the core (its selector; crawler-lines.ts's names too): namesTheCoreReads', each as
 * its length and its octets after their count. */
export function encodedNames(names: readonly string[]): Uint8Array {
  if (names === namesEncoded) return namesOctets;
  const known = encodedByNames.get(names);
  if (known !== undefined) {
    namesEncoded = names;
    namesOctets = known;
    return known;
  }
  const kept = namesTheCoreReads(names);
  const out = new Uint8Array(4 + kept.reduce((n, name) => n + 4 + name.length, 0));
  const view = new DataView(out.buffer);
  view.setInt32(0, kept.length, true);
  let at = 4;
  for (const name of kept) {
    view.setInt32(at, name.length, true);
    for (let i = 0; i < name.length; i++) out[at + 4 + i] = name.charCodeAt(i);
    at += 4 + name.length;
  }
  encodedByNames.set(names, out);
  namesEncoded = names;
  namesOctets = out;
  return out;
}

/** Selects the rules of groups already read (applicableGroups') into `selected`; returns how many. */
export function selectGroupRules(groups: readonly Group[]): number {
  selectionAt = 0;
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

/** Entries kept between selections: a large file's are dropped after it (see compile.ts's scratch). */
const KEPT_ENTRIES = 1 << 16;

/** Drops what a large file grew the selection to (called once its rules are compiled). */
export function releaseLargeSelection(): void {
  if (selected.length > KEPT_ENTRIES) selected = new Int32Array(SEL_FIELDS * 256);
}

/** Keeps the count rules whose group has the flag `wanted`, in order; returns how many. */
function keep(count: number, wanted: number): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    if ((selected[i * SEL_FIELDS + SELECT_FLAGS] & wanted) === 0) continue;
    if (n !== i) for (let k = 0; k < SEL_FIELDS; k++) selected[n * SEL_FIELDS + k] = selected[i * SEL_FIELDS + k];
    n++;
  }
  return n;
}

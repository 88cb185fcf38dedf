// The compiler: the rules that apply to a crawler, as the ranked NFA table the
// lazy DFA is built from. Rule ids are ranks: sorted by priority (longest first),
// then allows before disallows, then by line (first wins). So the best match of
// a kind is the lowest id, and of two matches the one that decides (Google's:
// the longer, the allow on a tie) is the lower id too.
//
// The rules' values are tokenized by the core (assembly/parse/tokenize.ts: escaped
// and, for `rfc`, normalised, straight from the robots.txt octets, all in one
// call: a loop over octets costs several times more in JS); no object or typed
// array per rule. src/engine/parse/pattern.ts states the same rules plainly; the reference
// matcher uses that, and the property tests hold the two together. A cold
// matcher's table is made by the core in one call (compileColdInCore below);
// the loops here make the hot ones.
import { core, type Core } from '../wasm/core.js';
import {
  COLD_COMPILE_BLOCK, COLD_COMPILE_LIST, COLD_COMPILE_POSITIVE, COLD_COMPILE_RESULT, COLD_COMPILE_TOKENS, COLD_COMPILE_VALUE_OCTETS, HEADER_SIZE, RANGE_RECORD, TOKENIZE_RESULT,
} from '../wasm/layout.js';
import { encodedNames, releaseLargeSelection, selected, selectedRules, selectionAt, SEL_DISALLOW, SEL_END, SEL_FIELDS, SEL_LINE, SEL_START } from '../parse/rule-selection.js';
import { escapePattern, indexHtmDirectory } from '../parse/pattern.js';
import { traitsOf, type Profile } from '../parse/profile.js';
import { ColdListBlock, CompiledRuleTable, KIND_DISALLOW, NO_POSITIONS, NO_TOKENS, RULE_FIELDS, R_DISALLOW, R_FIRST_POSITION, R_LINE, R_PRIORITY, R_VALUE_END, R_VALUE_START, ruleBlockBytes, type RuleTable } from './rule-table.js';
import { grown } from '../parse/grown.js';


/** Rules in file order, RULE_FIELDS ints each (the R_* offsets; plus one row whose first
 * position ends the last rule's tokens), and the octets each is tokenized from
 * (body offsets); shared by all compilations (compiling is never re-entered). */
let scratch = new Int32Array(RULE_FIELDS * 1024);
let spans = new Int32Array(2 * 1024);
let order = new Int32Array(1024);
let buckets = new Int32Array(256);

/** i32s of a range and of a tokenizer result (layout.ts). */
const RANGE_I32 = RANGE_RECORD >>> 2;
const RESULT_I32 = TOKENIZE_RESULT >>> 2;

/** Scratch entries kept between compilations: a large file's (the corpus's
 * largest has 1.3 million tokens) are dropped after it, not held for good (and
 * so are the core's areas: Core.releaseLargeAreas). */
const KEPT_SCRATCH = 1 << 16;

function releaseLargeScratch(): void {
  if (staged.length > KEPT_SCRATCH) staged = new Uint16Array(4096);
  if (scratch.length > KEPT_SCRATCH) scratch = new Int32Array(RULE_FIELDS * 1024);
  if (spans.length > KEPT_SCRATCH) spans = new Int32Array(2 * 1024);
  if (order.length > KEPT_SCRATCH) order = new Int32Array(1024);
  releaseLargeSelection();
  core().releaseLargeAreas();
}

/** The rules' values (as written), by rank, to dst: copied in the core from
 * the body tokenize() put there (a loop over octets costs more in JS). */
function gatherValues(count: number, f: Int32Array, ranks: Int32Array, dst: number): void {
  const c = core();
  const at = c.compilerBuffers(0, count, 0); // (the body stays where tokenize() put it)
  const runs = at.ranges >>> 2;
  for (let id = 0; id < count; id++) {
    c.i32[runs + RANGE_I32 * id] = f[ranks[id] * RULE_FIELDS + R_VALUE_START];
    c.i32[runs + RANGE_I32 * id + 1] = f[ranks[id] * RULE_FIELDS + R_VALUE_END];
  }
  c.exports.gatherRuns(at.body, at.ranges, count, dst);
}

/** Does body[start, end) contain "/index.htm"? (Google's index.htm rule; rare.)
 * A plain loop: values are short, and indexOf() searches on to the body's end. */
function mentionsIndexHtm(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start + 1; i + 9 <= end; i++) {
    if (b[i] === 0x69 && b[i - 1] === 0x2f && b[i + 1] === 0x6e && b[i + 2] === 0x64 && b[i + 3] === 0x65 &&
        b[i + 4] === 0x78 && b[i + 5] === 0x2e && b[i + 6] === 0x68 && b[i + 7] === 0x74 && b[i + 8] === 0x6d) {
      return true;
    }
  }
  return false;
}

/** Companions' values (already escaped), tokenized from past the body; shared
 * (compiling is never re-entered), and made with an element so that it holds
 * objects from the start: a fresh `[]` per compile changed its elements kind at
 * the first companion, and the compiler's optimised code was thrown away for it
 * (`not a Smi` in compileRules, `wrong map` in tokenize). */
const companions: Uint8Array[] = [new Uint8Array(0)];

/** Tokens of all rules so far, staged (a chunk at a time) until their count is
 * known: u16 for the NFA. */
let staged = new Uint16Array(4096);
/** Rules and tokens per call of the core's tokenizer: its areas stay small (a
 * large area would stay in the core's memory, which never shrinks). */
const CHUNK_RULES = 2048;
const CHUNK_TOKENS = 16384;

/** The highest priority tokenize() met. */
let maxPriority = 0;

/**
 * Tokenizes the count rules whose octets `spans` gives (body offsets, or past
 * the body for the companions: `extra` octets) in the core, a chunk at a time,
 * into `staged`. Writes each rule's first position and priority to f. Returns
 * the tokens written.
 */
function tokenize(body: Uint8Array, companions: Uint8Array[], extra: number, count: number, rfc: boolean, f: Int32Array): number {
  maxPriority = 0;
  const c = core();
  let at = c.compilerBuffers(count === 0 ? 0 : body.length + extra, 0, 0);
  if (count === 0) return 0; // (a file without rules for this crawler is not copied: some are large pages of HTML)
  c.putBody(body, at.body);
  for (let i = 0, o = at.body + body.length; i < companions.length; o += companions[i++].length) c.u8.set(companions[i], o);
  let n = 0;
  for (let first = 0; first < count; ) {
    const rules = Math.min(CHUNK_RULES, count - first);
    const room = Math.max(CHUNK_TOKENS, 3 * (spans[RANGE_I32 * first + 1] - spans[RANGE_I32 * first]) + 1); // the first rule fits
    at = c.compilerBuffers(body.length + extra, rules, room);
    c.i32.set(spans.subarray(RANGE_I32 * first, RANGE_I32 * (first + rules)), at.ranges >>> 2);
    // (Companions exist only under google: already escaped, they tokenize unchanged.)
    const x = c.exports;
    const done = x.tokenizeRules(at.body, at.ranges, rules, rfc, at.tokens, room, at.out);
    const results = at.out >>> 2;
    const written = c.i32[results + RESULT_I32 * done];
    if (staged.length < n + written) staged = grown(staged, n + written, n);
    staged.set(c.u16.subarray(at.tokens >>> 1, (at.tokens >>> 1) + written), n);
    for (let i = 0; i < done; i++) {
      const priority = c.i32[results + RESULT_I32 * i + 1];
      const at = (first + i) * RULE_FIELDS;
      f[at + R_FIRST_POSITION] = n + c.i32[results + RESULT_I32 * i];
      f[at + R_PRIORITY] = priority;
      if (priority > maxPriority) maxPriority = priority;
    }
    n += written;
    first += done;
  }
  return n;
}

/**
 * A cold matcher's table compiled in the core (assembly/compile/cold-list.ts) from the
 * count rules selected last for body (read where the selector left them, or
 * put there from `selected`), Google's index.htm companions added there: no
 * loop over rules or octets here.
 */
function compileColdInCore(body: Uint8Array, count: number, profile: Profile): RuleTable {
  const { normalises, indexHtmAllowsDirectory } = traitsOf(profile);
  const c = core();
  // (The body stays where the selector put it, and so do its rules; the result goes to another
  // area. A selection from records already read has its body put there: putBody skips a body held.)
  const at = c.compilerBuffers(body.length, 0, 0);
  c.putBody(body, at.body);
  let records = selectionAt;
  if (records === 0) {
    records = c.alloc(count * SEL_FIELDS * 4); // (a selection of several calls: the core held a part at a time)
    c.i32.set(selected.subarray(0, count * SEL_FIELDS), records >>> 2);
  }
  const done = c.exports.compileColdRules(at.body, records, count, normalises, indexHtmAllowsDirectory, at.out);
  if (records !== selectionAt) {
    c.free(records);
    releaseLargeSelection();
  }
  return coldTable(c, done, at.out);
}

/** The table the core's cold compiler wrote the results of at out (COLD_COMPILE_*), its rules done. */
function coldTable(c: Core, done: number, out: number): RuleTable {
  if (c.u8.length === 0) c.refresh(); // (its allocations may have grown the core's memory)
  const o = out >>> 2;
  const u32 = c.u32;
  const list = new ColdListBlock(u32[o + (COLD_COMPILE_LIST >>> 2)], u32[o + (COLD_COMPILE_TOKENS >>> 2)]);
  return new CompiledRuleTable(done, u32[o + (COLD_COMPILE_BLOCK >>> 2)], u32[o + (COLD_COMPILE_VALUE_OCTETS >>> 2)], u32[o + (COLD_COMPILE_POSITIVE >>> 2)], NO_TOKENS, NO_POSITIONS, list);
}

/**
 * A cold matcher's table for the crawler (its product tokens, lower-cased:
 * agentTokens) straight from the body: the core selects its rules and compiles
 * them in one call (assembly/compile/select-compile.ts), as selectRules() and
 * compileRules(..., true) do in several.
 */
export function compileColdFromBody(body: Uint8Array, names: readonly string[], profile: Profile): RuleTable {
  const { normalises, indexHtmAllowsDirectory, contentUsageIsRule } = traitsOf(profile);
  const c = core();
  const encoded = encodedNames(names);
  const at = c.selectorBuffers(body.length, encoded.length, COLD_COMPILE_RESULT);
  c.putBody(body, at.body);
  c.putNames(encoded, at.names);
  const done = c.exports.selectCompileCold(at.body, body.length, at.names, contentUsageIsRule, normalises, indexHtmAllowsDirectory, at.out);
  const table = coldTable(c, done, at.out);
  c.releaseLargeAreas();
  return table;
}

/** The table of the `rules` rules that rule-selection.ts selected last (values
 * in body); with `cold`, compiled in the core, their tokens in a cold rule list
 * there instead of the table's token arrays. */
export function compileRules(body: Uint8Array, rules: number, profile: Profile, cold = false): RuleTable {
  if (cold) {
    const table = compileColdInCore(body, rules, profile);
    core().releaseLargeAreas();
    return table;
  }
  const selected = selectedRules();
  const { normalises, indexHtmAllowsDirectory } = traitsOf(profile);
  const max = rules * 2 + 1; // room for Google's index.htm companions
  if (scratch.length < max * RULE_FIELDS) scratch = new Int32Array(max * RULE_FIELDS * 2);
  if (spans.length < max * 2) spans = new Int32Array(max * 4);
  const f = scratch;
  let count = 0;
  companions.length = 0;
  let extra = 0;
  let valueOctets = 0;
  // A rule, tokenized from the octets [from, to).
  const add = (disallow: number, line: number, start: number, end: number, from: number, to: number) => {
    const at = count * RULE_FIELDS;
    f[at + R_DISALLOW] = disallow;
    f[at + R_LINE] = line;
    f[at + R_VALUE_START] = start;
    f[at + R_VALUE_END] = end;
    valueOctets += end - start;
    spans[RANGE_I32 * count] = from;
    spans[RANGE_I32 * count + 1] = to;
    count++;
  };
  for (let i = 0; i < rules; i++) {
    const s = i * SEL_FIELDS;
    const disallow = selected[s + SEL_DISALLOW];
    const line = selected[s + SEL_LINE];
    const start = selected[s + SEL_START];
    const end = selected[s + SEL_END];
    add(disallow, line, start, end, start, end);
    if (indexHtmAllowsDirectory && disallow === 0 && mentionsIndexHtm(body, start, end)) {
      // An allow whose last segment starts with /index.htm also allows its directory.
      const dir = indexHtmDirectory(escapePattern(body.subarray(start, end)));
      if (dir) {
        const from = body.length + extra;
        add(0, line, start, end, from, from + dir.length);
        companions.push(dir);
        extra += dir.length;
      }
    }
  }

  const n = tokenize(body, companions, extra, count, normalises, f);
  f[count * RULE_FIELDS + R_FIRST_POSITION] = n; // end of the last rule's tokens

  // Rank: the longest pattern first; on equal length, allows first, then the
  // first line (file order is line order). A stable counting sort on the key
  // below, a small integer.
  if (order.length < count) order = new Int32Array(count * 2);
  const ranks = order;
  const top = maxPriority; // (tokenize's)
  const keys = 2 * (top + 1);
  if (buckets.length < keys + 1) buckets = new Int32Array((keys + 1) * 2);
  buckets.fill(0, 0, keys + 1);
  // The key, a small integer: 2 * (top - priority) + disallow.
  for (let i = 0; i < count; i++) buckets[2 * (top - f[i * RULE_FIELDS + R_PRIORITY]) + f[i * RULE_FIELDS + R_DISALLOW] + 1]++;
  for (let k = 1; k <= keys; k++) buckets[k] += buckets[k - 1];
  for (let i = 0; i < count; i++) ranks[buckets[2 * (top - f[i * RULE_FIELDS + R_PRIORITY]) + f[i * RULE_FIELDS + R_DISALLOW]]++] = i;

  // What the matcher keeps goes to its block in the core (RuleTable.block);
  // the tokens to the arrays the trie is built from, dropped then.
  const c = core();
  const block = c.alloc(ruleBlockBytes(count, valueOctets));
  const nfa = new ArrayBuffer(n * 6);
  const posRule = new Int32Array(nfa, 0, n);
  const tok = new Uint16Array(nfa, n * 4, n);
  tok.set(staged.subarray(0, n));
  gatherValues(count, f, ranks, block + HEADER_SIZE + 8 * count);
  const u32 = c.u32; // (after the allocations: the core's memory may have grown)
  const lines = (block + HEADER_SIZE) >>> 2;
  let positive = 0;
  for (let id = 0, v = 0; id < count; id++) {
    const at = ranks[id] * RULE_FIELDS;
    posRule.fill(id, f[at + R_FIRST_POSITION], f[at + RULE_FIELDS + R_FIRST_POSITION]);
    if (f[at + R_PRIORITY] > 0) positive = id + 1; // (ranks: the priorities above 0 come first)
    u32[lines + id] = f[at + R_LINE];
    v += f[at + R_VALUE_END] - f[at + R_VALUE_START];
    u32[lines + count + id] = f[at + R_DISALLOW] ? v | KIND_DISALLOW : v;
  }

  companions.length = 0;
  releaseLargeScratch();
  return new CompiledRuleTable(count, block, valueOctets, positive, tok, posRule, null);
}

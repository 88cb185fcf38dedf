// A cold matcher's rule table, compiled in the core from the selector's records
// (select.ts, read in place): the rules tokenized (tokenize.ts), ranked, and
// written as src/engine/compile/compile.ts and rule-lists.ts write them: the
// matcher's block (lines, value ends, values) and its cold rule list (entries
// by rank, their heads and signatures, the tokens). The host's loops over rules
// and octets cost several times more in JS (a first verdict's compile was a
// third of its time there); compile.ts keeps them for the cases this declines.
import { alloc, free } from "../base/alloc";
import { tokenizePackedStrided } from "../parse/tokenize";
import {
  COLD_COMPILE_BLOCK, COLD_COMPILE_LIST, COLD_COMPILE_VALUE_OCTETS, COLD_COMPILE_POSITIVE, COLD_COMPILE_TOKENS, TOKENS_WRITE_SLACK,
  HEADER_SIZE, RULE_VALUE_DISALLOW, RULE_LIST_STAR, TOKENIZE_ANCHORED, TOKENIZE_CHANGED, TOKENIZE_RESULT,
  RM_COUNT, RM_OCTETS, RM_GRAMS, RM_SIGNATURES, RM_INDEX, RM_WORK, RM_URLS, RM_HEADER,
  RE_ID, RE_FLAGS, RE_TOKENS, RE_LENGTH, RE_SIZE, RE_ANCHORED, RE_DISALLOW, RE_HEAD_SHIFT, RE_HEAD_MAX, RE_TOKEN_SLACK,
  SELECT_FIELDS, SELECT_DISALLOW, SELECT_LINE, SELECT_START, SELECT_END,
} from "../../src/engine/wasm/layout";

/** Does body[start, end) contain "/index.htm"? (Google's index.htm rule adds a
 * companion rule, which the host makes: compile.ts's mentionsIndexHtm.) */
function mentionsIndexHtm(b: usize, start: i32, end: i32): bool {
  for (let i = start + 1; i + 9 <= end; i++) {
    if (load<u8>(b + <usize>i) == 0x69 && load<u8>(b + <usize>i - 1) == 0x2f && load<u64>(b + <usize>i + 1) == 0x6d74682e7865646e) return true; // "ndex.htm"
  }
  return false;
}

/**
 * Compiles the count rules at records (the selector's, in file order) of the
 * body at b for a cold matcher: `rfc` normalises, `google` marks the rules
 * Google's index.htm rule applies to. The results go to out (COLD_COMPILE_*).
 * Returns count, or -1 having done nothing when the host must compile them
 * (an allow naming /index.htm under google).
 */
// The compile's scratch (the tokenizer's results, the rank keys, the ranks, the
// tokens), kept from one compile to the next: allocated and freed around each
// matcher's block and list, it left a hole before them that the next scratch,
// as large, could not take (the allocator looks a size class up), and only
// parts of it the next blocks took: memory each matcher left unused, a large
// share of what it takes. A large file's scratch is freed after it.
let scratch: usize = 0;
let scratchCap: usize = 0;
const KEPT_SCRATCH: usize = 64 << 10;

function takeScratch(n: usize): usize {
  if (n > scratchCap) {
    if (scratch != 0) free(scratch);
    scratchCap = max(n, scratchCap << 1);
    scratch = alloc(scratchCap);
  }
  return scratch;
}

function releaseLargeScratch(): void {
  if (scratchCap <= KEPT_SCRATCH) return;
  free(scratch);
  scratch = 0;
  scratchCap = 0;
}

export function compileColdRules(b: usize, records: usize, count: i32, rfc: bool, google: bool, out: usize): i32 {
  const stride = <usize>(SELECT_FIELDS << 2);
  // The tokens take at most 3 an octet and a terminal (tokenize.ts).
  let room: usize = 0;
  for (let r: usize = 0, at = records; r < <usize>count; r++, at += stride) {
    const start = load<i32>(at, SELECT_START << 2);
    const end = load<i32>(at, SELECT_END << 2);
    if (google && load<i32>(at, SELECT_DISALLOW << 2) == 0 && mentionsIndexHtm(b, start, end)) return -1;
    room += 3 * <usize>(end - start) + 1;
  }
  // Scratch (kept for the next compile): the tokenizer's results, the rank keys, the ranks, the tokens.
  const results = takeScratch(<usize>(count + 1) * TOKENIZE_RESULT + (<usize>count << 3) + room + TOKENS_WRITE_SLACK);
  const keys = results + <usize>(count + 1) * TOKENIZE_RESULT;
  const ranks = keys + (<usize>count << 2);
  const toks = ranks + (<usize>count << 2);
  if (count > 0) tokenizePackedStrided(b, records + (SELECT_START << 2), stride, count, rfc, toks, <i32>room, results);
  const tokens = count > 0 ? <usize>load<i32>(results + <usize>count * TOKENIZE_RESULT) : 0;

  // Ranks: the longest pattern first; on equal length, allows first, then the
  // first line (file order): a stable sort on the key 2 * (top - priority) + disallow.
  let valueOctets: usize = 0;
  let top: u32 = 0;
  let copied: usize = 0; // (the tokens the list holds: see below)
  for (let r = 0; r < count; r++) {
    const rec = records + <usize>r * stride;
    const result = load<u32>(results + <usize>r * TOKENIZE_RESULT, 4);
    top = max(top, result & ~(TOKENIZE_ANCHORED | TOKENIZE_CHANGED));
    valueOctets += <usize>(load<i32>(rec, SELECT_END << 2) - load<i32>(rec, SELECT_START << 2));
    if ((result & TOKENIZE_CHANGED) != 0) copied += <usize>(load<i32>(results + <usize>(r + 1) * TOKENIZE_RESULT) - load<i32>(results + <usize>r * TOKENIZE_RESULT));
  }
  for (let r = 0; r < count; r++) {
    const priority = load<u32>(results + <usize>r * TOKENIZE_RESULT, 4) & ~(TOKENIZE_ANCHORED | TOKENIZE_CHANGED);
    store<u32>(keys + (<usize>r << 2), ((top - priority) << 1) | <u32>load<i32>(records + <usize>r * stride, SELECT_DISALLOW << 2));
  }
  rank(keys, count, top, ranks);

  // The matcher's block (rule-table.ts RuleTable.block and ruleBlockBytes; its header is the
  // matcher's to fill), readable RE_TOKEN_SLACK past its last value (a rule's tokens may be one).
  const block = alloc(<usize>HEADER_SIZE + (<usize>count << 3) + valueOctets + <usize>RE_TOKEN_SLACK);
  const lines = block + HEADER_SIZE;
  const ends = lines + (<usize>count << 2);
  let values = ends + (<usize>count << 2);
  // The cold list (rule-lists.ts writeColdList's layout), its own tokens by rank: a rule whose
  // tokens are its value's first octets (most: a `*` is its own token, a last `$` is a flag; the
  // tokenizer says which are not: TOKENIZE_CHANGED) reads them from the value the matcher's block
  // keeps, and the list holds the others' (most tokens are not copied twice). (Made with
  // room for all and its tail freed, it left holes that only smaller blocks fill.)
  const signaturesAt = <usize>RM_HEADER + <usize>count * <usize>RE_SIZE;
  const tokensAt = signaturesAt + (<usize>count << 2);
  const list = alloc(tokensAt + copied + <usize>RE_TOKEN_SLACK);
  let own = list + tokensAt;
  store<u32>(list, count, RM_COUNT);
  store<u32>(list, <u32>copied, RM_OCTETS);
  store<u32>(list, 0, RM_GRAMS);
  store<u32>(list, <u32>(list + signaturesAt), RM_SIGNATURES);
  store<u32>(list, 0, RM_INDEX);
  store<u32>(list, 0, RM_WORK);
  store<u32>(list, 0, RM_URLS);

  let positive = 0;
  let v: u32 = 0;
  for (let id = 0; id < count; id++) {
    const r = <usize>load<u32>(ranks + (<usize>id << 2));
    const rec = records + r * stride;
    const result = load<u32>(results + r * TOKENIZE_RESULT, 4);
    if ((result & ~(TOKENIZE_ANCHORED | TOKENIZE_CHANGED)) > 0) positive = id + 1; // (ranks: the priorities above 0 come first)
    const disallow = load<i32>(rec, SELECT_DISALLOW << 2) != 0;
    const start = load<i32>(rec, SELECT_START << 2);
    const size = <usize>(load<i32>(rec, SELECT_END << 2) - start);
    store<u32>(lines + (<usize>id << 2), load<u32>(rec, SELECT_LINE << 2));
    memory.copy(values, b + <usize>start, size);

    const first = <usize>load<i32>(results + r * TOKENIZE_RESULT);
    const length = <usize>load<i32>(results + (r + 1) * TOKENIZE_RESULT) - first; // (file order: the next rule's tokens follow)
    let t = values;
    if ((result & TOKENIZE_CHANGED) != 0) {
      t = own;
      memory.copy(own, toks + first, length);
      own += length;
    }
    values += size;
    v += <u32>size;
    store<u32>(ends + (<usize>id << 2), disallow ? v | RULE_VALUE_DISALLOW : v);
    let head = 0;
    while (head < RE_HEAD_MAX && <usize>head < length && load<u8>(t + <usize>head) != RULE_LIST_STAR) head++;
    const e = list + RM_HEADER + <usize>id * RE_SIZE;
    store<u32>(e, id, RE_ID);
    store<u32>(e, ((result & TOKENIZE_ANCHORED) != 0 ? RE_ANCHORED : 0) | (disallow ? RE_DISALLOW : 0) | (<u32>head << RE_HEAD_SHIFT), RE_FLAGS);
    // A rule whose head the first word does not test (a `*` in its first octets) is tested by the octets it names.
    store<u32>(list + signaturesAt + (<usize>id << 2), head < RE_HEAD_MAX ? signature(t, length) : 0);
    store<u32>(e, <u32>t, RE_TOKENS);
    store<u32>(e, <u32>length, RE_LENGTH);
  }

  releaseLargeScratch();
  store<u32>(out, <u32>block, COLD_COMPILE_BLOCK);
  store<u32>(out, <u32>list, COLD_COMPILE_LIST);
  store<u32>(out, <u32>valueOctets, COLD_COMPILE_VALUE_OCTETS);
  store<u32>(out, positive, COLD_COMPILE_POSITIVE);
  store<u32>(out, <u32>tokens, COLD_COMPILE_TOKENS);
  return count;
}

/** The buckets (octet & 31) of the octets that the tokens t[0, length) name (RM_SIGNATURES). */
function signature(t: usize, length: usize): u32 {
  let s: u32 = 0;
  for (let i: usize = 0; i < length; i++) {
    const c = <u32>load<u8>(t + i);
    if (c != RULE_LIST_STAR) s |= <u32>1 << (c & 31);
  }
  return s;
}

/** The ranks of n rules by their keys (each at most 2 * top + 1), stable: to
 * ranks[id] the rule (file index) of rank id. */
function rank(keys: usize, n: i32, top: u32, ranks: usize): void {
  if (n <= 32) {
    // By insertion: most files select a few rules.
    for (let i = 0; i < n; i++) {
      const k = load<u32>(keys + (<usize>i << 2));
      let j = i;
      while (j > 0 && load<u32>(keys + (<usize>load<u32>(ranks + (<usize>(j - 1) << 2)) << 2)) > k) {
        store<u32>(ranks + (<usize>j << 2), load<u32>(ranks + (<usize>(j - 1) << 2)));
        j--;
      }
      store<u32>(ranks + (<usize>j << 2), i);
    }
    return;
  }
  // By counting, the keys' counts in a block of their own.
  const size = <usize>(top + 1) << 1;
  const buckets = alloc((size + 1) << 2);
  memory.fill(buckets, 0, (size + 1) << 2);
  for (let i = 0; i < n; i++) {
    const at = buckets + ((<usize>load<u32>(keys + (<usize>i << 2)) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let k: usize = 1; k <= size; k++) store<u32>(buckets + (k << 2), load<u32>(buckets + (k << 2)) + load<u32>(buckets + ((k - 1) << 2)));
  for (let i = 0; i < n; i++) {
    const at = buckets + (<usize>load<u32>(keys + (<usize>i << 2)) << 2);
    const to = load<u32>(at);
    store<u32>(at, to + 1);
    store<u32>(ranks + (<usize>to << 2), i);
  }
  free(buckets);
}

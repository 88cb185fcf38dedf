// A cold matcher's rule table, compiled in the core from the selector's records
// (select.ts, read in place): the rules tokenized (tokenize.ts), ranked, and
// written as src/engine/compile/compile.ts writes a hot one: the matcher's
// block (lines, value ends, values) and its cold rule list (entries by rank,
// their heads and signatures, the tokens). The only writer of cold lists: the
// host's loops over rules and octets cost several times more in JS (a first
// verdict's compile was a third of its time there).
import { alloc, free } from "../base/alloc";
import { copyShort } from "../base/copy";
import { tokenizeColdRules } from "../parse/tokenize";
import {
  COLD_COMPILE_BLOCK, COLD_COMPILE_LIST, COLD_COMPILE_VALUE_OCTETS, COLD_COMPILE_POSITIVE, COLD_COMPILE_TOKENS, TOKENS_WRITE_SLACK,
  HEADER_SIZE, RULE_VALUE_DISALLOW, RULE_LIST_STAR, TOKENIZE_ANCHORED, TOKENIZE_CHANGED, TOKENIZE_RESULT,
  RM_COUNT, RM_OCTETS, RM_GRAMS, RM_SIGNATURES, RM_INDEX, RM_WORK, RM_URLS, RM_HEADER,
  RE_ID, RE_FLAGS, RE_TOKENS, RE_LENGTH, RE_SIZE, RE_ANCHORED, RE_DISALLOW, RE_HEAD_SHIFT, RE_HEAD_MAX, RE_TOKEN_SLACK,
  SELECT_FIELDS, SELECT_DISALLOW, SELECT_LINE, SELECT_START, SELECT_END, SELECT_FLAGS,
} from "../../src/engine/wasm/layout";

/** Google's index.htm rule (src/engine/parse/pattern.ts indexHtmDirectory): an allow
 * whose last segment starts with /index.htm also allows its directory exactly
 * (`/dir/$`). Where that segment's `/` is in body[start, end), or -1. (The
 * octets up to it are those of the escaped pattern's, escaped: escaping adds
 * no `/` and leaves "/index.htm" as it is.) */
function indexHtmSlash(b: usize, start: i32, end: i32): i32 {
  let slash = end - 1;
  while (slash >= start && load<u8>(b + <usize>slash) != 0x2f) slash--;
  if (slash < start || end - slash < 10) return -1;
  // "/index.htm": "/ind" and "ex.htm"
  if (load<u32>(b + <usize>slash) != 0x646e692f || load<u32>(b + <usize>slash, 4) != 0x682e7865 || load<u16>(b + <usize>slash, 8) != 0x6d74) return -1;
  return slash;
}

/**
 * Compiles the `selected` rules at selection (the selector's, in file order) of the
 * body at b for a cold matcher: `rfc` normalises; `google` adds, after each
 * allow Google's index.htm rule applies to, its companion (`/dir/$`: the
 * allow's line and value, its directory's tokens, anchored), as compile.ts
 * does for a hot one. The results go to out (COLD_COMPILE_*). Returns the
 * rules compiled: count and the companions.
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

export function compileColdRules(b: usize, selection: usize, selected: i32, rfc: bool, google: bool, out: usize): i32 {
  const stride = <usize>(SELECT_FIELDS << 2);
  // The tokens take at most 3 an octet and a terminal (tokenize.ts).
  let room: usize = 0;
  let companions = 0;
  for (let r: usize = 0, at = selection; r < <usize>selected; r++, at += stride) {
    const start = load<i32>(at, SELECT_START << 2);
    const end = load<i32>(at, SELECT_END << 2);
    room += 3 * <usize>(end - start) + 1;
    if (google && load<i32>(at, SELECT_DISALLOW << 2) == 0) {
      const slash = indexHtmSlash(b, start, end);
      if (slash >= 0) {
        companions++;
        room += 3 * <usize>(slash + 1 - start) + 1;
      }
    }
  }
  const count = selected + companions;
  // Scratch (kept for the next compile): the tokenizer's results, the rank keys, the ranks, the
  // rules with their companions (when there are any), the tokens.
  const withCompanions = companions > 0 ? <usize>count * stride : 0;
  const results = takeScratch(<usize>(count + 1) * TOKENIZE_RESULT + (<usize>count << 3) + withCompanions + room + TOKENS_WRITE_SLACK);
  const keys = results + <usize>(count + 1) * TOKENIZE_RESULT;
  const ranks = keys + (<usize>count << 2);
  const toks = ranks + (<usize>count << 2) + withCompanions;
  // A companion's record: the allow's line and value, its directory's octets to tokenize
  // (SELECT_START, SELECT_END), the value's end in SELECT_FLAGS (the selector's group flags
  // are not read here); the others' SELECT_FLAGS is their SELECT_END.
  let records = selection;
  if (companions > 0) {
    records = ranks + (<usize>count << 2);
    let to = records;
    for (let r: usize = 0, at = selection; r < <usize>selected; r++, at += stride) {
      const start = load<i32>(at, SELECT_START << 2);
      const end = load<i32>(at, SELECT_END << 2);
      memory.copy(to, at, stride);
      store<i32>(to, end, SELECT_FLAGS << 2);
      to += stride;
      const slash = load<i32>(at, SELECT_DISALLOW << 2) == 0 ? indexHtmSlash(b, start, end) : -1;
      if (slash < 0) continue;
      memory.copy(to, at, stride);
      store<i32>(to, slash + 1, SELECT_END << 2);
      store<i32>(to, end, SELECT_FLAGS << 2);
      to += stride;
    }
  }
  tokenizeColdRules(b, records + (SELECT_START << 2), stride, count, rfc, toks, results);
  const tokens = <usize>load<i32>(results + <usize>count * TOKENIZE_RESULT);
  // A companion is its directory anchored: its `$` counts in its priority, as the pattern's octets do.
  if (companions > 0) {
    for (let r: usize = 0, at = records; r < <usize>count; r++, at += stride) {
      if (load<i32>(at, SELECT_END << 2) == load<i32>(at, SELECT_FLAGS << 2)) continue;
      const result = results + r * TOKENIZE_RESULT;
      store<u32>(result, (load<u32>(result, 4) + 1) | TOKENIZE_ANCHORED, 4);
    }
  }

  // Ranks: the longest pattern first; on equal length, allows first, then the
  // first line (file order): a stable sort on the key 2 * (top - priority) + disallow.
  let valueOctets: usize = 0;
  let top: u32 = 0;
  let copied: usize = 0; // (the tokens the list holds: see below)
  for (let r = 0; r < count; r++) {
    const rec = records + <usize>r * stride;
    const result = load<u32>(results + <usize>r * TOKENIZE_RESULT, 4);
    top = max(top, result & ~(TOKENIZE_ANCHORED | TOKENIZE_CHANGED));
    valueOctets += <usize>(valueEnd(rec, companions) - load<i32>(rec, SELECT_START << 2));
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
    const size = <usize>(valueEnd(rec, companions) - start);
    store<u32>(lines + (<usize>id << 2), load<u32>(rec, SELECT_LINE << 2));
    copyShort(values, b + <usize>start, size);

    const first = <usize>load<i32>(results + r * TOKENIZE_RESULT);
    const length = <usize>load<i32>(results + (r + 1) * TOKENIZE_RESULT) - first; // (file order: the next rule's tokens follow)
    let t = values;
    // Its head and signature read from where its tokens were copied from, not the copy: a
    // word loaded from octets just copied waited for the copy's stores.
    let from = b + <usize>start;
    if ((result & TOKENIZE_CHANGED) != 0) {
      t = own;
      from = toks + first;
      copyShort(own, from, length);
      own += length;
    }
    values += size;
    v += <u32>size;
    store<u32>(ends + (<usize>id << 2), disallow ? v | RULE_VALUE_DISALLOW : v);
    const head = headLength(from, length);
    const e = list + RM_HEADER + <usize>id * RE_SIZE;
    store<u32>(e, id, RE_ID);
    store<u32>(e, ((result & TOKENIZE_ANCHORED) != 0 ? RE_ANCHORED : 0) | (disallow ? RE_DISALLOW : 0) | (<u32>head << RE_HEAD_SHIFT), RE_FLAGS);
    // A rule whose head the first word does not test (a `*` in its first octets) is tested by the octets it names.
    store<u32>(list + signaturesAt + (<usize>id << 2), head < RE_HEAD_MAX ? signature(from, length) : 0);
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

/** Where the value of the record at rec ends: its SELECT_END, or, with companions, SELECT_FLAGS (a companion's tokens end before its value). */
@inline function valueEnd(rec: usize, companions: i32): i32 {
  return companions > 0 ? load<i32>(rec, SELECT_FLAGS << 2) : load<i32>(rec, SELECT_END << 2);
}

/** The tokens before the first `*` of t[0, length), at most RE_HEAD_MAX: the
 * first word's octets compared at once (a rule's tokens are readable a word
 * past their end: RE_TOKEN_SLACK; the body and the tokenizer's output more), where a loop an octet at a time, with its
 * three tests, was a large share of a small file's compile. */
@inline function headLength(t: usize, length: usize): i32 {
  const x = load<u32>(t) ^ (<u32>RULE_LIST_STAR * 0x01010101);
  const stars = (x - 0x01010101) & ~x & 0x80808080; // (its lowest bit: the first `*`, exactly)
  const first = stars == 0 ? RE_HEAD_MAX : <i32>(ctz(stars) >> 3);
  return min(first, <i32>min(length, <usize>RE_HEAD_MAX));
}

/** The buckets (octet & 31) of the octets that the tokens t[0, length) name
 * (RM_SIGNATURES). (Without a branch per octet: a `*` adds no bucket.) */
function signature(t: usize, length: usize): u32 {
  let s: u32 = 0;
  for (let i: usize = 0; i < length; i++) {
    const c = <u32>load<u8>(t + i);
    s |= <u32>(c != RULE_LIST_STAR) << (c & 31);
  }
  return s;
}

/** The ranks of n rules by their keys (each at most 2 * top + 1), stable: to
 * ranks[id] the rule (file index) of rank id. */
function rank(keys: usize, n: i32, top: u32, ranks: usize): void {
  if (n <= 32 && top < (1 << 24)) {
    // Each key with its rule's index in its low 5 bits (all distinct, below 2^31: ties keep file
    // order), its rank the keys below it, counted four rules at a time against each key: no
    // branch on the keys. (By insertion, each rule's loop ended on a branch mostly missed: a
    // tenth of a small file's compile.)
    for (let i = 0; i < n; i++) store<u32>(keys + (<usize>i << 2), (load<u32>(keys + (<usize>i << 2)) << 5) | <u32>i);
    for (let i = 0; i < n; i += 4) {
      // (Past n, the lanes hold what follows the keys: their ranks are not stored.)
      const mine = v128.load(keys + (<usize>i << 2));
      let below = i32x4.splat(0);
      for (let j = 0; j < n; j++) below = i32x4.sub(below, i32x4.gt_s(mine, v128.load32_splat(keys + (<usize>j << 2))));
      store<u32>(ranks + (<usize>i32x4.extract_lane(below, 0) << 2), i);
      if (i + 1 < n) store<u32>(ranks + (<usize>i32x4.extract_lane(below, 1) << 2), i + 1);
      if (i + 2 < n) store<u32>(ranks + (<usize>i32x4.extract_lane(below, 2) << 2), i + 2);
      if (i + 3 < n) store<u32>(ranks + (<usize>i32x4.extract_lane(below, 3) << 2), i + 3);
    }
    return;
  }
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
  // By counting, the keys' counts in a block of their own, then where each key's rules start: the
  // sum of the counts before it, carried in a local (each bucket read once, not the one just written:
  // the keys span twice the longest priority, hundreds of buckets for a file with one long rule).
  const size = <usize>(top + 1) << 1;
  const buckets = alloc(size << 2);
  memory.fill(buckets, 0, size << 2);
  for (let i = 0; i < n; i++) {
    const at = buckets + (<usize>load<u32>(keys + (<usize>i << 2)) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  let before: u32 = 0;
  for (let k: usize = 0; k < size; k++) {
    const at = buckets + (k << 2);
    const c = load<u32>(at);
    store<u32>(at, before);
    before += c;
  }
  for (let i = 0; i < n; i++) {
    const at = buckets + (<usize>load<u32>(keys + (<usize>i << 2)) << 2);
    const to = load<u32>(at);
    store<u32>(at, to + 1);
    store<u32>(ranks + (<usize>to << 2), i);
  }
  free(buckets);
}

// A matcher's blocks in the core's memory, found from its header
// (src/engine/wasm/layout.ts H_*): written when the matcher is made and when it
// turns to rule mode, all freed from the header alone.
//
// In: the compiled RuleTable (its block holds room for the header, then the
// rules' lines and values), the rules' texts, and later rule mode's blocks.
// Out: the header the core reads. Invariant: each pointer in the header (0 for
// none) is a block of its own, which freeMatcher frees: the DFA's tables
// (dfa-tables.ts) and byte classes, the cold or `*` rule list, the literal trie,
// the texts.
import type { Core } from '../wasm/core.js';
import { ruleBlockBytes, type RuleTable } from '../compile/rule-table.js';
import { freeColdIndex } from '../compile/rule-lists.js';
import type { RuleModeBlocks } from '../compile/literal-heads.js';
import {
  FLAG_RULES, H_CLASSMAP, H_COLD, H_FLAGS, H_LINES, H_LITERAL_TRIE, H_POSITIVE, H_RULES, H_TEXTS, H_TEXTS_MAX, H_TRANS, HEADER_SIZE,
} from '../wasm/layout.js';

/**
 * Writes the header of the table's block: flags, the cold walk's rule list
 * (written by the compiler) and its octets, the rules' lines, and their texts
 * ("Disallow: /a", for the core's JSON lines in bulk classification) in a
 * block of their own when given. Returns the octets of both blocks.
 */
export function writeMatcherBlock(
  core: Core,
  table: RuleTable,
  flags: number,
  coldOctets: number,
  texts: readonly Uint8Array[] | undefined,
): { headerBytes: number; textBytes: number } {
  const nrules = table.count;
  const h = table.block;
  const textOctets = texts === undefined ? 0 : texts.reduce((n, t) => n + t.length, 8 * nrules);
  const textsAt = texts === undefined ? 0 : core.alloc(textOctets);
  const u32 = core.u32; // (after the allocation: the core's memory may have grown)
  // (Zeroed a word at a time: fill() on the core's memory is a call into the runtime's C++, for 64 octets.)
  for (let i = h >>> 2, end = (h + HEADER_SIZE) >>> 2; i < end; i++) u32[i] = 0;
  u32[(h + H_FLAGS) >>> 2] = flags;
  // A cold matcher's rule list, written by the compiler: the cold walk's (assembly/match/cold.ts).
  u32[(h + H_COLD) >>> 2] = table.cold === null ? 0 : Math.min(coldOctets, 0xffffffff);
  u32[(h + H_RULES) >>> 2] = table.cold === null ? 0 : table.cold.block;
  u32[(h + H_POSITIVE) >>> 2] = table.positive;
  // Rule lines, for verdicts written by the core itself (bulk classification).
  u32[(h + H_LINES) >>> 2] = h + HEADER_SIZE;
  if (texts !== undefined) {
    // Per id its text's offset and length from the table's start, then the texts.
    const at = textsAt;
    u32[(h + H_TEXTS) >>> 2] = at;
    let o = 8 * nrules;
    let longest = 0;
    texts.forEach((t, id) => {
      u32[(at >>> 2) + 2 * id] = o;
      u32[(at >>> 2) + 2 * id + 1] = t.length;
      core.u8.set(t, at + o);
      o += t.length;
      longest = Math.max(longest, t.length);
    });
    u32[(h + H_TEXTS_MAX) >>> 2] = longest;
  }
  return { headerBytes: ruleBlockBytes(nrules, table.valueOctets), textBytes: textOctets };
}

/**
 * Rule mode's blocks (literal-heads.ts ruleModeBlocks: the trie of literal
 * heads and the `*` rules, both made in the core) put in the header. Sets
 * FLAG_RULES; returns the octets of both (fixed: nothing grows per URL from
 * now on). The DFA's tables are the caller's to free.
 */
export function writeRuleMode(core: Core, header: number, blocks: RuleModeBlocks): number {
  const u32 = core.u32;
  u32[(header + H_LITERAL_TRIE) >>> 2] = blocks.literal.block;
  u32[(header + H_RULES) >>> 2] = blocks.star.block;
  u32[(header + H_FLAGS) >>> 2] |= FLAG_RULES;
  return blocks.literal.octets + blocks.star.octets;
}

/**
 * Frees all a matcher holds in the core, found from its header alone: its
 * LazyDfa's dispose(), and the finalizer of a Matcher dropped without one
 * (which holds the header's address, not the LazyDfa: a registry's cell
 * outlives its unregister() until a full collection, and what it holds would
 * be kept through every scavenge meanwhile).
 */
export function freeMatcher(core: Core, header: number): void {
  core.unregister(header);
  const u32 = core.u32;
  const trie = u32[(header + H_LITERAL_TRIE) >>> 2];
  if (trie !== 0) core.free(trie);
  const rules = u32[(header + H_RULES) >>> 2];
  if (rules !== 0) {
    freeColdIndex(core, rules); // (a cold list's; rule mode's list has none)
    core.free(rules);
  }
  const tables = u32[(header + H_TRANS) >>> 2];
  if (tables !== 0) core.free(tables);
  const classes = u32[(header + H_CLASSMAP) >>> 2];
  if (classes !== 0) core.free(classes);
  const texts = u32[(header + H_TEXTS) >>> 2];
  if (texts !== 0) core.free(texts);
  core.free(header);
}

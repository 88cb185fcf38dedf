// A matcher's blocks in the core's memory, found from its header
// (src/engine/wasm/layout.ts H_*): written when the matcher is made and when it
// turns to rule mode, all freed from the header alone.
//
// In: the compiled RuleTable (its block holds room for the header, then the
// rules' lines and values), the rules' texts, and later the trie for rule mode.
// Out: the header the core reads. Invariant: each pointer in the header (0 for
// none) is a block of its own, which freeMatcher frees: the DFA's tables
// (dfa-tables.ts) and byte classes, the cold or `*` rule list, the literal trie,
// the texts.
import type { Core } from '../wasm/core.js';
import { ruleBlockBytes, type RuleTable } from '../compile/rule-table.js';
import { trieBufferBytes, trieShape, type Trie } from '../compile/trie.js';
import { freeColdIndex } from '../compile/rule-lists.js';
import { type StarRulePlan, writeStarRules } from '../compile/star-rules.js';
import {
  FLAG_RULES, H_CLASSMAP, H_COLD, H_FLAGS, H_LINES, H_LITERAL_TRIE, H_POSITIVE, H_RULES, H_TEXTS, H_TEXTS_MAX, H_TRANS, HEADER_SIZE,
  N_CHILD_NODE, N_CHILD_START, N_CHILD_TOK, N_HEADER, N_TAILS, N_TERM, N_TERMS, NO_RULE, NT_END, NT_FIRST, NT_KNOWN, NT_SIZE,
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
  core.u8.fill(0, h, h + HEADER_SIZE);
  const u32 = core.u32; // (after the allocation: the core's memory may have grown)
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
 * Rule mode's blocks, for the trie t: its octet edges as the literal trie (its
 * rules without `*`, and the heads of the others, whose nodes list them), or
 * that trie's block made without t (literal-heads.ts), and
 * its `*` rules as the plan says (star-rules.ts: by node, or by gram). Sets
 * FLAG_RULES; returns the octets of both (fixed: nothing grows per URL from
 * now on). The DFA's tables are the caller's to free.
 */
export function writeRuleMode(core: Core, header: number, t: Trie | { block: number; octets: number }, plan: StarRulePlan): number {
  const star = writeStarRules(core, plan);
  const literal = 'childStart' in t ? writeLiteralTrie(core, t, plan) : t;
  const u32 = core.u32;
  u32[(header + H_LITERAL_TRIE) >>> 2] = literal.block;
  u32[(header + H_RULES) >>> 2] = star.block;
  u32[(header + H_FLAGS) >>> 2] |= FLAG_RULES;
  return literal.octets + star.octets;
}

/**
 * The trie t as one block of the core's memory (N_* fields, then its buffer
 * as it is), for rule mode: the core walks its octet edges only. The nodes
 * where the plan's lists of `*` rules are get a terminal if they have none
 * (no rule ends there), and the terminals their lists (N_TAILS), after the buffer.
 */
function writeLiteralTrie(core: Core, t: Trie, plan: StarRulePlan): { block: number; octets: number } {
  const bufferBytes = trieBufferBytes(trieShape(t));
  const groups = plan.groups;
  const added = groups.reduce((n, g) => n + (t.term[g.node] < 0 ? 1 : 0), 0);
  const terminals = t.terms.length / 4 + added;
  const termsAt = (N_HEADER + bufferBytes + 3) & ~3; // (the buffer ends with octet arrays)
  const tailsAt = termsAt + 16 * terminals;
  const octets = groups.length > 0 ? tailsAt + NT_SIZE * terminals : N_HEADER + bufferBytes;
  const block = core.alloc(octets);
  const base = block + N_HEADER;
  const { u8, u32 } = core;
  u8.set(new Uint8Array(t.childStart.buffer, 0, bufferBytes), base);
  const at = (field: number, view: ArrayBufferView) => (u32[(block + field) >>> 2] = base + view.byteOffset);
  at(N_CHILD_START, t.childStart);
  at(N_CHILD_TOK, t.childTok);
  at(N_CHILD_NODE, t.childNode);
  at(N_TERM, t.term);
  at(N_TERMS, t.terms);
  u32[(block + N_TAILS) >>> 2] = 0;
  if (groups.length > 0) {
    const terms = (block + termsAt) >>> 2;
    u32.set(t.terms, terms);
    u32.fill(NO_RULE, terms + t.terms.length, terms + 4 * terminals);
    u32.fill(0, (block + tailsAt) >>> 2, (block + tailsAt + NT_SIZE * terminals) >>> 2);
    const term = (base + t.term.byteOffset) >>> 2; // (the core's copy)
    let next = t.terms.length / 4;
    for (const g of groups) {
      if (u32[term + g.node] === 0xffffffff) u32[term + g.node] = next++; // (-1: no terminal yet)
      const x = (block + tailsAt + NT_SIZE * u32[term + g.node]) >>> 2;
      u32[x + NT_FIRST / 4] = g.first;
      u32[x + NT_END / 4] = g.end;
      u32[x + NT_KNOWN / 4] = g.known;
    }
    u32[(block + N_TERMS) >>> 2] = block + termsAt;
    u32[(block + N_TAILS) >>> 2] = block + tailsAt;
  }
  return { block, octets };
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

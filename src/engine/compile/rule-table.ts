// The rule table: what the compiler hands the matcher (compile.ts fills it,
// match/ reads it). Rules are ranked ids; their lines and values live in the
// matcher's block in the core, the NFA tokens on the JS side until the trie or
// a cold list holds them. A leaf module: the trie, the rule lists and the
// compiler all import it, so none of them imports another for its layout.
import { core } from '../wasm/core.js';
import { HEADER_SIZE, RE_TOKEN_SLACK, RULE_VALUE_DISALLOW, TOKEN_ACCEPT, TOKEN_ANCHOR } from '../wasm/layout.js';
import type { RuleKind } from '../parse/records.js';
import { escapePattern } from '../parse/pattern.js';

/** NFA terminal tokens: the end of a pattern without `$` (matched), and with `$`. */
export const ACCEPT = TOKEN_ACCEPT;
export const ANCHOR = TOKEN_ANCHOR;

/** A cold matcher's list: its address, and the tokens it holds (the table's, less their terminals). */
export interface ColdList {
  block: number;
  tokens: number;
}

/** A cold list as made: by `new`, as CompiledRuleTable below and for its reason (it lives as long as its matcher). */
export class ColdListBlock implements ColdList {
  constructor(
    public block: number,
    public tokens: number,
  ) {}
}

export interface RuleTable {
  count: number;
  /**
   * The matcher's block in the core: its header (HEADER_SIZE octets, filled by
   * LazyDfa), then what it keeps of each rule by id: its line (u32 each, the
   * header's H_LINES), the end of its value in the values (u32 each, KIND_DISALLOW
   * set for a disallow), then the values as written, one after the other (the
   * matcher keeps no more of the robots.txt). Nothing of it on the JS heap: a
   * typed array there costs an allocation outside V8's heap and its collection.
   */
  block: number;
  /** Octets of the values. */
  valueOctets: number;
  /** Rule ids below it have a priority above 0 (the header's H_POSITIVE). */
  positive: number;
  /** NFA: each rule's tokens then ACCEPT or ANCHOR, rules in file order. */
  tok: Uint16Array;
  /** NFA position -> rule id. */
  posRule: Int32Array;
  /** Or, for a matcher that starts cold, the tokens in the core as its rule list (tok and posRule empty until it turns hot). */
  cold: ColdList | null;
}

/**
 * A RuleTable as compileRules() makes it: by a class, not an object literal. A
 * table lives as long as its matcher (a host cache's entry), and V8 tracks
 * each literal's allocation site: at a collection it decides to allocate the
 * site's objects old, or (when few old objects survived) undoes that, and
 * either time throws away the optimised code of every function allocating
 * there (the compiler's main function among them, a costly TurboFan compile each
 * time, and half of its compiles on the probes). An object made by `new` has no site.
 */
export class CompiledRuleTable implements RuleTable {
  constructor(
    public count: number,
    public block: number,
    public valueOctets: number,
    public positive: number,
    public tok: Uint16Array,
    public posRule: Int32Array,
    public cold: ColdList | null,
  ) {}
}

/** A table's token arrays once the trie or a cold list holds the tokens (shared, never written). */
export const NO_TOKENS = new Uint16Array(0);
export const NO_POSITIONS = new Int32Array(0);

/** In a rule's value end (RuleTable.block): the rule is a disallow. */
export const KIND_DISALLOW = RULE_VALUE_DISALLOW;

/** Octets of a matcher's block for count rules whose values hold valueOctets, and
 * RE_TOKEN_SLACK readable past them (a cold list's rule may take its tokens from its value). */
export function ruleBlockBytes(count: number, valueOctets: number): number {
  return HEADER_SIZE + 8 * count + valueOctets + RE_TOKEN_SLACK;
}

/** Fields of a rule in the compiler's scratch rows. */
export const R_DISALLOW = 0; // 1 for disallow, 0 for allow
export const R_LINE = 1;
export const R_PRIORITY = 2;
export const R_VALUE_START = 3; // the value as written: body[start, end)
export const R_VALUE_END = 4;
export const R_FIRST_POSITION = 5; // its first NFA position
export const RULE_FIELDS = 6;

/** The byte classes of a DFA over these tokens: the octets they name, a class
 * each, and one class for all the others (made when a matcher turns hot). */
export interface ByteClasses {
  /** Byte -> class. */
  classMap: Uint8Array;
  /** Class -> a byte of it, or -1 for the class of unnamed octets. */
  classRep: number[];
  nclasses: number;
}

export function byteClasses(tok: Uint16Array): ByteClasses {
  const used = new Uint8Array(256);
  for (let p = 0; p < tok.length; p++) if (tok[p] < 256) used[tok[p]] = 1;
  const classMap = new Uint8Array(256);
  const classRep: number[] = [];
  for (let b = 0; b < 256; b++) {
    if (used[b]) {
      classMap[b] = classRep.length;
      classRep.push(b);
    }
  }
  const other = classRep.length;
  for (let b = 0; b < 256; b++) if (!used[b]) classMap[b] = other; // the class of octets no pattern names
  if (other < 256) classRep.push(-1);
  return { classMap, classRep, nclasses: classRep.length };
}

/** What explanations read of a table: its block in the core (a matcher's header, the address its
 * lines and values follow) and its count (a matcher keeps these, not the table). */
export type RuleBlock = Pick<RuleTable, 'block' | 'count'>;

/** The rule's value as it is matched (Google-escaped), for explanations. */
export function ruleText(t: RuleBlock, id: number): string {
  const u32 = core().u32;
  const ends = ((t.block + HEADER_SIZE) >>> 2) + t.count;
  const start = id === 0 ? 0 : u32[ends + id - 1] & ~KIND_DISALLOW;
  const end = u32[ends + id] & ~KIND_DISALLOW;
  const values = t.block + HEADER_SIZE + 8 * t.count;
  return new TextDecoder().decode(escapePattern(core().u8.subarray(values + start, values + end)));
}

export function ruleKind(t: RuleBlock, id: number): RuleKind {
  return core().u32[((t.block + HEADER_SIZE) >>> 2) + t.count + id] & KIND_DISALLOW ? 'disallow' : 'allow';
}

export function ruleLine(t: RuleBlock, id: number): number {
  return core().u32[((t.block + HEADER_SIZE) >>> 2) + id];
}

/** Per rule id, 1 for a disallow (for the trie, when the matcher turns hot). */
export function ruleKinds(t: RuleBlock): Uint8Array {
  const u32 = core().u32;
  const ends = ((t.block + HEADER_SIZE) >>> 2) + t.count;
  const kinds = new Uint8Array(t.count);
  for (let id = 0; id < t.count; id++) kinds[id] = u32[ends + id] >>> 31;
  return kinds;
}

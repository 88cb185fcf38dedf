// A set's category and its verdict at `/`, decided in the core
// (assembly/bulk/audit-witness.ts): its rule values tokenized by the core's
// tokenizeRules over the body the lexer left there, then the witnesses checked
// over those tokens where they lie. No rule object, no token copied out, no path
// made but the two proofs. What the core leaves undecided (a witness missing:
// the walk's to find; or its bound of work met), and sets it does not take
// (Google's index.htm rules, which the host adds; more rules or tokens than its
// areas are kept for), are the host's: rule-category.ts over path-verdict.ts's
// rules, as before. A test holds the two answers equal (test/bulk/audit-core-witnesses.test.ts).
import { core, type Core } from '../../engine/wasm/core.js';
import { escapePattern, indexHtmDirectory, STAR } from '../../engine/parse/pattern.js';
import type { Profile } from '../../index.js';
import { traitsOf } from '../../engine/parse/profile.js';
import type { Group } from '../../engine/parse/records.js';
import {
  AUDIT_ALL, AUDIT_ALLOWED_WITNESS, AUDIT_CODE, AUDIT_DISALLOWED_WITNESS, AUDIT_NONE, AUDIT_OTHER_OCTET, AUDIT_PART, AUDIT_RESULT, AUDIT_ROOT_ALLOW,
  AUDIT_ROOT_ALLOWED, AUDIT_ROOT_DISALLOW, AUDIT_STEPS, AUDIT_WITNESS_ROOT, RANGE_RECORD, TOKENIZE_RESULT,
} from '../../engine/wasm/layout.js';
import type { CategoryAnswer } from './rule-category.js';
import { globSteps, type PathVerdict } from './path-verdict.js';

/** Rules, and tokens, of a set the core decides at most: its areas (which never shrink) are grown to the largest
 * set taken (a file cut at --max-octets fits). A rule of n octets takes at most 3n + 1 tokens (escapes), most
 * n + 1: past the sure bound the token area is sized for the octets as they are and the longest rule's worst, and
 * a set whose escapes do not fit it is the host's. */
const MAX_RULES = 1 << 15;
const MAX_TOKENS = 1 << 20;
/** Rules looked at for candidates (most by a mask of their octets, a few compared) before the core gives a set
 * back: a bound of its work. A set whose witnesses lie further (thousands of allows before its first disallow)
 * is the host's, whose rule index compares a candidate with the rules that may match it. (A few hundred allows
 * first, as christies.com's 194, stay the core's: some 80,000 masks tested, a fraction of what the host's walk of
 * the same set costs in a loop that runs it once a round, unoptimised.) */
const VISITS_PER_RULE = 64;
const VISITS_ALWAYS = 1 << 18;

const I32 = Int32Array.BYTES_PER_ELEMENT;
/** A set's rules' kinds (1: allow) as the pass over its rules finds them, before the block they go to is sized. */
const KINDS = new Uint8Array(MAX_RULES);
const ROOT = Uint8Array.of(0x2f);

/** Sets decided by the core (a test counts them: the corpus's sets are, not the host's). */
export const coreDecided = { sets: 0 };

/** What the core decided of a set: its verdict at `/`, and its category unless the host is to decide it. */
export interface CoreSetAnswer {
  atRoot: PathVerdict;
  answer: CategoryAnswer | undefined;
}

/** The block the answer, the rules' masks, a candidate path and the rules' kinds are written to: grown to the
 * largest set taken, never freed. */
let block = 0;
let blockOctets = 0;

function blockOf(c: Core, octets: number): number {
  if (octets > blockOctets) {
    if (block !== 0) c.free(block);
    blockOctets = Math.max(octets, 2 * blockOctets, 4096);
    block = c.alloc(blockOctets);
  }
  return block;
}

/** The groups' rules decided in the core, or undefined when the set is the host's. */
export function coreCategory(body: Uint8Array, groups: readonly Group[], profile: Profile): CoreSetAnswer | undefined {
  const traits = traitsOf(profile);
  let n = 0;
  for (const g of groups) n += g.rules.length;
  if (n > MAX_RULES) return undefined;
  const c = core();
  // (One pass over the rules: their ranges written to the core's area, reserved first, and their kinds kept, while
  // the octets the other areas are sized by are counted.)
  const ranges = c.compilerBuffers(body.length, n, 0).ranges;
  let i32 = c.i32;
  let at = ranges / I32;
  let all = 0;
  let longest = 0;
  let k = 0;
  for (const g of groups) {
    for (const r of g.rules) {
      const octets = r.end - r.start;
      all += octets;
      if (octets > longest) longest = octets;
      const allow = r.kind === 'allow';
      // (An allow of an index.htm under google is two rules: the host's.)
      if (allow && traits.indexHtmAllowsDirectory && indexHtmDirectory(escapePattern(body.subarray(r.start, r.end))) !== null) return undefined;
      i32[at] = r.start;
      i32[at + 1] = r.end;
      at += RANGE_RECORD / I32;
      KINDS[k++] = allow ? 1 : 0;
    }
  }
  if (all + n + 3 * longest + 1 > MAX_TOKENS) return undefined;
  const room = Math.min(3 * all + n, Math.max(MAX_TOKENS >> 2, all + n + 3 * longest + 1));
  // (The same ranges' area: a reserve never moves an area that is large enough.)
  const a = c.compilerBuffers(body.length, n, room);
  // (The lexer left this body there: putBody copies it only when another took its place.)
  c.putBody(body, a.body);
  const pathRoom = 3 * longest + 8;
  // (After the masks, the core's table for finding a rule's runs of literals in a path: an i32 per token of the
  // longest rule.)
  const out = blockOf(c, AUDIT_RESULT + 8 * n + 4 * pathRoom + pathRoom + n);
  const masks = out + AUDIT_RESULT;
  const path = masks + 8 * n + 4 * pathRoom;
  const kinds = path + pathRoom;
  i32 = c.i32;
  c.u8.set(KINDS.subarray(0, n), kinds);
  if (c.exports.tokenizeRules(a.body, a.ranges, n, traits.normalises, a.tokens, room, a.out) < n) return undefined; // (escapes past the room)
  c.exports.auditWitnesses(a.tokens, a.out, kinds, n, traits.normalises, VISITS_PER_RULE * n + VISITS_ALWAYS, path, masks, out);
  const o = out / I32;
  globSteps.count += i32[o + AUDIT_STEPS];
  const rootAllowed = i32[o + AUDIT_ROOT_ALLOWED] === 1;
  const decider = i32[o + (rootAllowed ? AUDIT_ROOT_ALLOW : AUDIT_ROOT_DISALLOW)];
  const atRoot: PathVerdict = { allowed: rootAllowed, line: decider < 0 ? 0 : lineOf(groups, decider) };
  const code = i32[o + AUDIT_CODE];
  if (code === AUDIT_NONE) return counted({ atRoot, answer: { category: 'none', exact: true, allowedPath: ROOT } });
  if (code === AUDIT_ALL) return counted({ atRoot, answer: { category: 'all', exact: true, disallowedPath: ROOT } });
  if (code !== AUDIT_PART) return { atRoot, answer: undefined };
  const other = i32[o + AUDIT_OTHER_OCTET];
  const witness = (w: number) => (w === AUDIT_WITNESS_ROOT ? ROOT : candidate(c, a.tokens, a.out, w >> 1, (w & 1) === 1, other));
  return counted({
    atRoot,
    answer: { category: 'part', exact: true, allowedPath: witness(i32[o + AUDIT_ALLOWED_WITNESS]), disallowedPath: witness(i32[o + AUDIT_DISALLOWED_WITNESS]) },
  });
}

function counted(a: CoreSetAnswer): CoreSetAnswer {
  coreDecided.sets++;
  return a;
}

/** The line of the groups' rule i (in file order). */
function lineOf(groups: readonly Group[], i: number): number {
  for (const g of groups) {
    if (i < g.rules.length) return g.rules[i].line;
    i -= g.rules.length;
  }
  return 0;
}

/** Rule i's candidate path, as rule-category.ts's witnesses make it: its literal octets (after a leading star, from
 * a '/'), and with `other` after them when `longer`. */
function candidate(c: Core, tokens: number, results: number, i: number, longer: boolean, other: number): Uint8Array {
  const r = results / I32 + (i * TOKENIZE_RESULT) / I32;
  const t = c.u16;
  const from = tokens / 2 + c.i32[r];
  const to = tokens / 2 + c.i32[r + TOKENIZE_RESULT / I32] - 1; // (its terminal)
  const slash = t[from] === STAR && (to - from < 2 || t[from + 1] !== 0x2f) ? 1 : 0;
  let n = slash;
  for (let k = from; k < to; k++) if (t[k] !== STAR) n++;
  const path = new Uint8Array(n + (longer ? 1 : 0));
  path[0] = 0x2f;
  n = slash;
  for (let k = from; k < to; k++) if (t[k] !== STAR) path[n++] = t[k];
  if (longer) path[n] = other;
  return path;
}

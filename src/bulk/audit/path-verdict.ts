// A crawler's rules as the audit compares them (each Allow/Disallow value as
// the profile normalises it, Google's index.htm rule as an allow of its own),
// and a path's verdict under them, rule by rule: each rule is a glob over
// octets (literals and `*`, a final `$`), the longest allow against the longest
// disallow (reference.ts). For one path at a time: the category's witnesses,
// the verdict at `/` (rule-category.ts, root-answers.ts).
import type { Profile } from '../../index.js';
import { escapePattern, googlePattern, indexHtmDirectory } from '../../engine/parse/pattern.js';
import { globMatches, globMatchSteps } from '../../engine/parse/pattern-match.js';
import { traitsOf } from '../../engine/parse/profile.js';
import type { Group } from '../../engine/parse/records.js';
import { coreTokens, roomForValues, tokenizeValues } from './core-rule-tokens.js';
import { TOKEN_ANCHOR } from '../../engine/wasm/layout.js';

/** One Allow/Disallow rule as the profile compares it. */
export interface Rule {
  /** Its set's tokens (one array for all its rules): this rule's are tokens[at, at + length). */
  tokens: Uint16Array;
  at: number;
  length: number;
  anchored: boolean;
  priority: number;
  allow: boolean;
  /** Its line in the file. */
  line: number;
}

/**
 * Where the rules of a site's sets keep their tokens: one array reused site after site (a typed array of
 * more than a few octets is memory outside the heap, allocated and zeroed per set otherwise). Valid while the
 * site is audited: start() at each site gives its room to the next.
 */
export class TokenArena {
  tokens = new Uint16Array(4096);
  used = 0;

  /** The next site's rules may take the room of the last's. */
  start(): void {
    this.used = 0;
  }

  /** Room for n tokens: the array and where they start (a new array when this one is full: the rules already
   * made keep theirs). */
  take(n: number): number {
    if (this.used + n > this.tokens.length) {
      this.tokens = new Uint16Array(Math.max(2 * this.tokens.length, n));
      this.used = 0;
    }
    const at = this.used;
    this.used += n;
    return at;
  }
}

/** The rules of the groups, as the engine compares them (Google's index.htm rule as an allow of its own), their
 * values tokenized by the core (core-rule-tokens.ts); their tokens in the arena when given (the audit's, reused
 * site after site), else in an array of their own. */
export function rulesOf(body: Uint8Array, groups: readonly Group[], profile: Profile, arena?: TokenArena): Rule[] {
  const traits = traitsOf(profile);
  // Room for every rule's tokens (at most 3 an octet, and its terminal), twice an allow's under google (its
  // index.htm rule, shorter).
  let room = 0;
  let n = 0;
  for (const g of groups) {
    for (const r of g.rules) {
      room += (traits.indexHtmAllowsDirectory && r.kind === 'allow' ? 6 : 3) * (r.end - r.start) + 1;
      n++;
    }
  }
  roomForValues(n);
  const spans = coreTokens.spans;
  n = 0;
  for (const g of groups) {
    for (const r of g.rules) {
      spans[2 * n] = r.start;
      spans[2 * n++ + 1] = r.end;
    }
  }
  const from = arena === undefined ? 0 : arena.take(room);
  const tokens = arena === undefined ? new Uint16Array(room) : arena.tokens;
  let used = tokenizeValues(body, n, traits.normalises, tokens, from);
  const { firsts, priorities } = coreTokens;
  const rules: Rule[] = [];
  n = 0;
  for (const g of groups) {
    for (const r of g.rules) {
      const allow = r.kind === 'allow';
      const at = firsts[n];
      const terminal = firsts[n + 1] - 1;
      rules.push({ tokens, at, length: terminal - at, anchored: tokens[terminal] === TOKEN_ANCHOR, priority: priorities[n], allow, line: r.line });
      n++;
      if (allow && traits.indexHtmAllowsDirectory) {
        const dir = indexHtmDirectory(escapePattern(body.subarray(r.start, r.end)));
        if (dir !== null) {
          const p = googlePattern(dir);
          tokens.set(p.tokens, used);
          rules.push({ tokens, at: used, length: p.tokens.length, anchored: p.anchored, priority: p.priority, allow: true, line: r.line });
          used += p.tokens.length;
        }
      }
    }
  }
  // (The room taken was a bound: what the tokens did not use goes back.)
  if (arena !== undefined) arena.used = used;
  return rules;
}

/** Rules compared with a path, counted (the tests bound the witnesses' work by it: a count, not a clock). */
export const ruleComparisons = { count: 0 };

/** Steps of glob matching (an octet of a path or of a rule looked at), counted: the tests bound a site's matching
 * work by it, the core's added (core-witnesses.ts). */
export const globSteps = { count: 0 };

/** Whether the rule matches the path (pattern-match.ts: in steps linear in the rule and the path), counted. */
export function ruleMatches(rule: Rule, path: Uint8Array): boolean {
  ruleComparisons.count++;
  const matched = globMatches(rule.tokens, rule.at, rule.length, rule.anchored, path);
  globSteps.count += globMatchSteps.last;
  return matched;
}

/** A path's verdict: may it be fetched, and the deciding rule's line (0: none decides). */
export interface PathVerdict {
  allowed: boolean;
  line: number;
}

/** The path's verdict under the rules: the longest allow against the longest disallow (a tie allows; an empty Disallow allows). */
export function pathVerdict(rules: readonly Rule[], path: Uint8Array): PathVerdict {
  let allow: Rule | undefined;
  let disallow: Rule | undefined;
  for (const r of rules) {
    if (r.allow ? allow !== undefined && allow.priority >= r.priority : disallow !== undefined && disallow.priority >= r.priority) continue;
    if (!ruleMatches(r, path)) continue;
    if (r.allow) allow = r;
    else disallow = r;
  }
  const allowPriority = allow?.priority ?? -1;
  if (disallow !== undefined && disallow.priority > Math.max(allowPriority, 0)) return { allowed: false, line: disallow.line };
  return { allowed: true, line: allow?.line ?? 0 };
}

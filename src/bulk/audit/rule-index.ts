// A crawler's rules by the literal octets they start with, for the category's
// witnesses (rule-category.ts): a candidate path is compared only with the
// rules that may match it, those whose octets before their first `*` begin the
// path. A file of a rule per directory then costs a few comparisons a
// candidate, not one per rule. The verdict is pathVerdict's, allowed or not
// (the longest allow against the longest disallow: which rule decides does not
// matter to a witness).
import { STAR } from '../../engine/parse/pattern.js';
import { ruleMatches, type Rule } from './path-verdict.js';

/** Octets of a rule's literal start that key it: a number exactly (257^6 < 2^53). */
const KEY_OCTETS = 6;

/** The key of octets a[0..n): each octet + 1 in base 257, so that a shorter start is another key. */
function keyStep(key: number, octet: number): number {
  return key * 257 + octet + 1;
}

export class RuleIndex {
  private readonly byStart = new Map<number, Rule[]>();

  constructor(rules: readonly Rule[]) {
    for (const r of rules) {
      let key = 0;
      for (let k = r.at; k < r.at + r.length && k < r.at + KEY_OCTETS && r.tokens[k] !== STAR; k++) key = keyStep(key, r.tokens[k]);
      const bucket = this.byStart.get(key);
      if (bucket === undefined) this.byStart.set(key, [r]);
      else bucket.push(r);
    }
  }

  /** Whether the rules allow the path (pathVerdict(rules, path).allowed). */
  allowed(path: Uint8Array): boolean {
    const best = { allow: -1, disallow: -1 };
    this.compare(0, path, best);
    let key = 0;
    for (let k = 0; k < path.length && k < KEY_OCTETS; k++) {
      key = keyStep(key, path[k]);
      this.compare(key, path, best);
    }
    return !(best.disallow > Math.max(best.allow, 0));
  }

  private compare(key: number, path: Uint8Array, best: { allow: number; disallow: number }): void {
    const bucket = this.byStart.get(key);
    if (bucket === undefined) return;
    for (const r of bucket) {
      if (r.priority <= (r.allow ? best.allow : best.disallow) || !ruleMatches(r, path)) continue;
      if (r.allow) best.allow = r.priority;
      else best.disallow = r.priority;
    }
  }
}

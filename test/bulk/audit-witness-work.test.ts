// The category's witnesses (rule-category.ts) compare each candidate path with
// the rules that may match it, not with every rule: a file of thousands of
// rules (real ones list a rule per directory) must not cost candidates × rules.
// Bounded by the rules compared (a count, not a clock), with the answer and its
// proof paths those of the plain rule-by-rule verdict.
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../src/engine/parse/records.js';
import { categoryOfRules, rulesOf } from '../../src/bulk/audit/rule-category.js';
import { pathVerdict, ruleComparisons } from '../../src/bulk/audit/path-verdict.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { SiteRules } from '../../src/bulk/audit/site-rules.js';

const latin1 = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('latin1'));

describe('the witnesses compare a candidate with the rules that may match it', () => {
  for (const profile of ['rfc', 'google'] as Profile[]) {
    it(`${profile}: 3,000 allows of their own directories, then one disallow`, () => {
      const lines = ['User-agent: *'];
      for (let i = 0; i < 3000; i++) lines.push(`Allow: /${i.toString(36)}-assets/*.css`);
      lines.push('Disallow: /private/');
      const records = readRecords(new TextEncoder().encode(lines.join('\n')), profile);
      const rules = rulesOf(records.body, records.groups, profile);
      ruleComparisons.count = 0;
      const answer = categoryOfRules(rules, profile);
      const compared = ruleComparisons.count;
      expect(answer.category).toBe('part');
      expect(latin1(answer.allowedPath)).toBe('/');
      expect(latin1(answer.disallowedPath)).toBe('/private/');
      // Each proof path is what the rules say of it, rule by rule.
      expect(pathVerdict(rules, answer.allowedPath!).allowed).toBe(true);
      expect(pathVerdict(rules, answer.disallowedPath!).allowed).toBe(false);
      // About 6,000 candidates: against every rule, 18 million comparisons; against those that may match, a few each.
      expect(compared).toBeLessThan(100_000);
    });
  }
});

describe('a set of rules is compared with `/` once: its category and its verdict there share it', () => {
  for (const profile of ['rfc', 'google'] as Profile[]) {
    it(`${profile}: 3,000 disallows of their own directories`, () => {
      const lines = ['User-agent: *'];
      for (let i = 0; i < 3000; i++) lines.push(`Disallow: /${i.toString(36)}-private/`);
      const records = readRecords(new TextEncoder().encode(lines.join('\n')), profile);
      const site = new SiteRules(records, profile, 'https://example.com/');
      try {
        const set = site.of('GPTBot');
        ruleComparisons.count = 0;
        const answer = set.category();
        const root = set.atRoot();
        const compared = ruleComparisons.count;
        expect(answer.category).toBe('part');
        expect(latin1(answer.allowedPath)).toBe('/');
        expect(latin1(answer.disallowedPath)).toBe('/0-private/');
        expect(root).toEqual({ allowed: true, line: 0 });
        // `/` against every rule once (3,000), the first rule's own path against them once more: not `/` twice.
        expect(compared).toBeLessThanOrEqual(2 * 3000 + 10);
      } finally {
        site.dispose();
      }
    });
  }
});

// The mode policy as a value (src/engine/match/mode-policy.ts): one shared
// default, changes resolved into a frozen copy, and the cost model's verdict
// for each rule-mode policy. The matchers that take a policy are tested
// through MatcherOptions' internal modePolicy (test/engine/property.test.ts,
// hostile.test.ts).
import { describe, expect, it } from 'vitest';
import { coldReview, DEFAULT_MODE_POLICY, modePolicy, rulesPayOff } from '../../../src/engine/match/mode-policy.js';

describe('the mode policy', () => {
  it('no changes: the one shared default, frozen; changes: a frozen copy of it with them', () => {
    expect(modePolicy()).toBe(DEFAULT_MODE_POLICY);
    expect(Object.isFrozen(DEFAULT_MODE_POLICY)).toBe(true);
    expect(DEFAULT_MODE_POLICY).toMatchObject({ coldOctets: 8192, maxBytes: 8 << 20, minStates: 4, ruleMode: 'cost' });
    const p = modePolicy({ coldOctets: 0, ruleMode: 'reset' });
    expect(p).not.toBe(DEFAULT_MODE_POLICY);
    expect(p).toEqual({ ...DEFAULT_MODE_POLICY, coldOctets: 0, ruleMode: 'reset' });
    expect(Object.isFrozen(p)).toBe(true);
    expect(DEFAULT_MODE_POLICY.coldOctets).toBe(8192); // (the default is left as it was)
  });

  it("rule mode: 'reset' at a clearing only, 'never' never, 'cost' when the DFA's work per URL outweighs the `*` rules'", () => {
    const cheap = { states: 10, setOctets: 800, urls: 100 }; // 6.4 + 1 units a URL
    const costly = { states: 5000, setOctets: 8 << 20, urls: 2 }; // (320,000 + 1,048,576) / 2: 684,288 units a URL
    let counted = 0;
    const starRules = () => (counted++, 100); // rule mode: 4 x 8 x 100 = 3,200 units a URL
    for (const when of ['clearing', 'growth'] as const) {
      expect(rulesPayOff(modePolicy({ ruleMode: 'reset' }), when, cheap, starRules)).toBe(when === 'clearing');
      expect(rulesPayOff(modePolicy({ ruleMode: 'never' }), when, costly, starRules)).toBe(false);
    }
    expect(counted).toBe(0); // (the rules are counted only when the cost is weighed)
    expect(rulesPayOff(DEFAULT_MODE_POLICY, 'growth', cheap, starRules)).toBe(false);
    expect(rulesPayOff(DEFAULT_MODE_POLICY, 'clearing', costly, starRules)).toBe(true);
    expect(rulesPayOff(modePolicy({ ruleModeMargin: 1000 }), 'clearing', costly, starRules)).toBe(false); // 800,000 units: more than the DFA's
    expect(counted).toBe(3);
    // No URL walked yet counts as one; no `*` rule as one.
    expect(rulesPayOff(DEFAULT_MODE_POLICY, 'growth', { states: 1, setOctets: 0, urls: 0 }, () => 0)).toBe(true); // 64 > 32
  });

  it('cold reviews: index once the walks cost what an index does, hot once they cost what the automaton does while still costly per URL, never for `*`-heavy rules without grams, later for those with', () => {
    const p = DEFAULT_MODE_POLICY; // index at 64 units a rule from 48 rules; hot at 4,096 + 32 a token octet, past 128 units a URL
    const base = { rules: 1000, tokenOctets: 20_000, starHeavyRules: () => 10, indexed: false, work: 0, recentWork: 0, recentUrls: 0, byCost: true };
    // First allowance: up to the index (64,000 units) or rule mode's price (ruleModeHotFactor of the hot one, 77,292), the sooner.
    expect(coldReview(p, base)).toEqual({ index: false, hot: false, next: 64_000 });
    expect(coldReview(p, { ...base, rules: 2000 })).toEqual({ index: false, hot: false, next: Math.ceil(0.12 * 644_096) });
    expect(coldReview(p, { ...base, work: 64_000, recentWork: 64_000, recentUrls: 64 })).toMatchObject({ index: true, hot: false });
    // Too few rules to index: only the hot side is weighed; without byCost (coldOctets given), nothing is: no more reviews.
    // (first at rule mode's price, ruleModeHotFactor (0.12) of the trie's, where the star counts are taken)
    expect(coldReview(p, { ...base, rules: 10 })).toEqual({ index: false, hot: false, next: Math.ceil(0.12 * (4096 + 32 * 20_000)) });
    expect(coldReview(p, { ...base, rules: 10, work: 80_000 })).toEqual({ index: false, hot: false, next: 4096 + 32 * 20_000 - 80_000 });
    expect(coldReview(p, { ...base, rules: 10, byCost: false })).toEqual({ index: false, hot: false, next: 0 });
    // Indexed: hot past 644,096 units when a walk costs more than 128; cheap walks stay cold, reviewed as the work doubles.
    const indexed = { ...base, indexed: true, work: 700_000 };
    expect(coldReview(p, { ...indexed, recentWork: 20_000, recentUrls: 100 })).toEqual({ index: false, hot: true, next: 0 });
    expect(coldReview(p, { ...indexed, recentWork: 1_000, recentUrls: 100 })).toEqual({ index: false, hot: false, next: 700_000 });
    // A file with many rules of several `*` never turns hot (more than one in starShare, 16, and 1,024 or more).
    const big = { ...indexed, rules: 20_000, work: 1e7, recentWork: 20_000, recentUrls: 100 };
    expect(coldReview(p, { ...big, starHeavyRules: () => 1251 })).toMatchObject({ hot: false });
    expect(coldReview(p, { ...big, starHeavyRules: () => 1250 })).toMatchObject({ hot: true });
    expect(coldReview(p, { ...indexed, starHeavyRules: () => 1000, recentWork: 20_000, recentUrls: 100 })).toMatchObject({ hot: true });
    // Such rules with grams (rule mode's index finds them) do not keep it cold; it turns hot (to rule mode at once,
    // made from the rules) once its walks cost ruleModeHotFactor (0.12) times as much: 0.12 x 644,096 units here.
    const grams = { ...big, tokenOctets: 20_000, starHeavyRules: () => 0, gramHeavyRules: () => 2222 };
    expect(coldReview(p, { ...grams, work: 70_000 })).toMatchObject({ hot: false });
    expect(coldReview(p, { ...grams, work: 0.12 * 644_096 })).toMatchObject({ hot: true });
    // Too few of them (the DFA's): at the trie's price.
    expect(coldReview(p, { ...grams, gramHeavyRules: () => 1000, work: 80_000 })).toMatchObject({ hot: false });
    expect(coldReview(p, { ...grams, gramHeavyRules: () => 1000, work: 700_000 })).toMatchObject({ hot: true });
  });
});

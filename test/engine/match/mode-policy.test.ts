// The mode policy as a value (src/engine/match/mode-policy.ts): one shared
// default, changes resolved into a frozen copy, and the cost model's verdict
// for each rule-mode policy. The matchers that take a policy are tested
// through MatcherOptions' internal modePolicy (test/engine/property.test.ts,
// hostile.test.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODE_POLICY, modePolicy, rulesPayOff } from '../../../src/engine/match/mode-policy.js';

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
});

// A hostile robots.txt must not make the audit's rule matching quadratic (issue
// 41): rules of a long run of one octet after a `*` (`Disallow: /*aaa…ab0`)
// compared with paths of the same run (`/b0aaa…`, the allows' own paths, the
// witnesses' candidates) took a glob that backtracked to its star at each octet
// of the path, the run compared again from each: octets² steps a comparison, a
// minute for one site. Each comparison is now linear in the rule and the path,
// in the host (path-verdict.ts) and in the core (assembly/bulk/audit-witness.ts).
// Work counted (globSteps: the steps of glob matching, the core's added), never
// timed: doubling the rules' octets doubles the steps (quadratic: four times).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readRecords } from '../../src/engine/parse/records.js';
import { categoryOfRules, rulesOf } from '../../src/bulk/audit/rule-category.js';
import { globSteps, pathVerdict, ruleComparisons, ruleMatches, type Rule } from '../../src/bulk/audit/path-verdict.js';
import { coreDecided } from '../../src/bulk/audit/core-witnesses.js';
import { SiteRules } from '../../src/bulk/audit/site-rules.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { STAR } from '../../src/engine/parse/pattern.js';
import { hostileRobotsTxt } from '../helpers/hostile-globs.js';

const PROFILES: Profile[] = ['rfc', 'google'];
const latin1 = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('latin1'));

const encode = (s: string) => new TextEncoder().encode(s);

/** The host's category of the hostile file (rule-category.ts over path-verdict.ts), and its work. */
function byHost(run: number, profile: Profile) {
  const records = readRecords(encode(hostileRobotsTxt(run, 10)), profile);
  const rules = rulesOf(records.body, records.groups, profile);
  globSteps.count = 0;
  ruleComparisons.count = 0;
  const answer = categoryOfRules(rules, profile);
  const work = { steps: globSteps.count, comparisons: ruleComparisons.count };
  return { answer, rules, work };
}

/** The core's category of it (core-witnesses.ts, through the audit's SiteRules), and its steps. */
function byCore(run: number, profile: Profile) {
  const records = readRecords(encode(hostileRobotsTxt(run, 10)), profile);
  const rules = rulesOf(records.body, records.groups, profile);
  const site = new SiteRules(records, profile, 'https://example.com/');
  try {
    globSteps.count = 0;
    const decided = coreDecided.sets;
    const answer = site.of('GPTBot').category();
    const steps = globSteps.count;
    expect(coreDecided.sets, 'the core decides the set').toBe(decided + 1);
    return { answer, rules, steps };
  } finally {
    site.dispose();
  }
}

function expectProved(answer: ReturnType<typeof categoryOfRules>, rules: readonly Rule[]) {
  expect(answer.category).toBe('part');
  expect(answer.exact).toBe(true);
  expect(latin1(answer.allowedPath)).toBe('/');
  expect(latin1(answer.disallowedPath)).toBe(`/${'a'.repeat((answer.disallowedPath?.length ?? 3) - 3)}b0`);
  expect(pathVerdict(rules, answer.allowedPath!).allowed).toBe(true);
  expect(pathVerdict(rules, answer.disallowedPath!).allowed).toBe(false);
}

describe('glob matching is linear in the rule and the path (issue 41)', () => {
  for (const profile of PROFILES) {
    it(`${profile}, the host: each comparison's steps bounded by the rule's and the path's octets; twice the octets, twice the steps`, () => {
      const small = byHost(1024, profile);
      const large = byHost(2048, profile);
      expectProved(small.answer, small.rules);
      expectProved(large.answer, large.rules);
      // Candidates (each allow's path, and with an octet more) against the disallows: the same comparisons at both sizes.
      expect(large.work.comparisons).toBe(small.work.comparisons);
      // A comparison looks at each octet of the rule and of the path a bounded number of times (the longest
      // rule's tokens and the longest candidate: about the run).
      expect(large.work.steps).toBeLessThanOrEqual(large.work.comparisons * 4 * (2048 + 8));
      expect(large.work.steps / small.work.steps).toBeLessThan(2.5);
    });

    it(`${profile}, the core: twice the octets, twice the steps`, () => {
      const small = byCore(1024, profile);
      const large = byCore(2048, profile);
      expectProved(small.answer, small.rules);
      expectProved(large.answer, large.rules);
      expect(small.steps).toBeGreaterThan(0);
      expect(large.steps / small.steps).toBeLessThan(2.5);
    });
  }
});

/** Whether the rule matches the path, by a regular expression (an independent reference): its tokens as literals
 * and `.*`, anchored at the start, and at the end when `$`. */
function byRegExp(rule: Rule, path: Uint8Array): boolean {
  let source = '^';
  for (let k = rule.at; k < rule.at + rule.length; k++) {
    const t = rule.tokens[k];
    source += t === STAR ? '[\\s\\S]*' : `\\x${t.toString(16).padStart(2, '0')}`;
  }
  if (rule.anchored) source += '$';
  return new RegExp(source).test(latin1(path)!);
}

describe('ruleMatches gives a regular expression\'s answer', () => {
  it('random rules and paths over a few octets, with stars and `$`', () => {
    const octet = fc.constantFrom(...'/ab*'.split(''));
    fc.assert(
      fc.property(fc.array(octet, { maxLength: 12 }), fc.boolean(), fc.array(fc.constantFrom(...'/ab'.split('')), { maxLength: 16 }), (value, anchored, path) => {
        const records = readRecords(encode(`User-agent: *\nDisallow: /${value.join('')}${anchored ? '$' : ''}\n`), 'google');
        const [rule] = rulesOf(records.body, records.groups, 'google');
        const p = encode('/' + path.join(''));
        expect(ruleMatches(rule, p)).toBe(byRegExp(rule, p));
      }),
      { numRuns: 3000 },
    );
  });
});

/** A disallow and an allow of the same long run after a star: a tie, which allows, so no path is disallowed and no
 * candidate proves it: the walk (rule-category.ts) must, over every state the rules can reach. */
function tiedRuns(run: number, profile: Profile) {
  const a = 'a'.repeat(run);
  const records = readRecords(encode(`User-agent: *\nDisallow: /*${a}b\nAllow: /*${a}b\n`), profile);
  const rules = rulesOf(records.body, records.groups, profile);
  globSteps.count = 0;
  const answer = categoryOfRules(rules, profile);
  return { answer, steps: globSteps.count };
}

describe('the walk follows each rule by one state, not a set of positions (issue 41)', () => {
  for (const profile of PROFILES) {
    it(`${profile}: a tie of two long runs after a star is none, exactly; twice the octets, twice the steps`, () => {
      const small = tiedRuns(500, profile);
      const large = tiedRuns(1000, profile);
      for (const { answer } of [small, large]) {
        expect(answer.category).toBe('none');
        expect(answer.exact).toBe(true);
      }
      expect(large.steps / small.steps).toBeLessThan(2.5);
    });
  }
});

// The audit's rules keep their tokens in one array reused site after site
// (path-verdict.ts TokenArena): a site's sets share it, the next site takes its
// room again, and a set made after another (or after the array grew) leaves
// the other's tokens as they were. Each set's category and verdict at `/` are
// those of the same rules in an array of their own, on the corpus, both
// profiles.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readRecords } from '../../src/engine/parse/records.js';
import { agentTokens, applicableGroups } from '../../src/engine/parse/agents.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { categoryOfRules } from '../../src/bulk/audit/rule-category.js';
import { pathVerdict, rulesOf, TokenArena, type Rule } from '../../src/bulk/audit/path-verdict.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const CRAWLERS = ['GPTBot', 'Googlebot', 'Bingbot', 'Baiduspider'];
const ROOT = Uint8Array.of(0x2f);
const enc = new TextEncoder();

/** What the audit asks of a set: its category (proof paths included) and its verdict at `/`. */
function answers(rules: readonly Rule[], profile: Profile): unknown {
  return { category: categoryOfRules(rules, profile), root: pathVerdict(rules, ROOT), tokens: rules.map((r) => Array.from(r.tokens.subarray(r.at, r.at + r.length))) };
}

describe('one token array for the audit, site after site', () => {
  it('the sets of consecutive sites share the array; each site starts at its beginning', () => {
    const arena = new TokenArena();
    const arrays = new Set<Uint16Array>();
    for (const text of ['User-agent: *\nDisallow: /a\nAllow: /a/b$', 'User-agent: *\nDisallow: /*.pdf$\nUser-agent: GPTBot\nDisallow: /']) {
      arena.start();
      const records = readRecords(enc.encode(text), 'rfc');
      for (const crawler of ['GPTBot', 'CCBot']) {
        const rules = rulesOf(records.body, applicableGroups(records.groups, agentTokens(crawler, 'rfc')), 'rfc', arena);
        for (const r of rules) arrays.add(r.tokens);
      }
      expect(arena.used).toBeGreaterThan(0);
    }
    expect(arrays.size).toBe(1);
  });

  it('a set made after another, past the array\'s room, leaves the other\'s tokens as they were', () => {
    const arena = new TokenArena();
    arena.start();
    const lines = ['User-agent: GPTBot', 'Disallow: /private/', 'Allow: /private/open$', 'User-agent: *'];
    // More tokens than the array holds at first: the second set is made in a new one.
    for (let i = 0; i < 2000; i++) lines.push(`Disallow: /${i.toString(36)}-dir/*.html$`);
    const records = readRecords(enc.encode(lines.join('\n')), 'rfc');
    const first = rulesOf(records.body, applicableGroups(records.groups, agentTokens('GPTBot', 'rfc')), 'rfc', arena);
    const before = answers(first, 'rfc');
    const second = rulesOf(records.body, applicableGroups(records.groups, agentTokens('CCBot', 'rfc')), 'rfc', arena);
    expect(second[0].tokens).not.toBe(first[0].tokens);
    expect(answers(first, 'rfc')).toEqual(before);
    expect(answers(second, 'rfc')).toEqual(answers(rulesOf(records.body, records.groups.slice(1), 'rfc'), 'rfc'));
  });
});

describe.skipIf(!HAVE_SHARED)('rules in the shared array answer as in their own: every file of the corpus', () => {
  for (const profile of ['rfc', 'google'] as Profile[]) {
    // Thousands of files, a few crawlers each, on a busy machine: a hang guard only.
    it(profile, { timeout: 600_000 }, async () => {
      const dir = path.join(SHARED, 'corpus', 'robots');
      const arena = new TokenArena();
      for (const [n, f] of readdirSync(dir).sort().entries()) {
        // (The event loop turns now and then: vitest's RPC with the worker must not wait.)
        if (n % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
        const records = readRecords(readFileSync(path.join(dir, f)).subarray(0, 512_000), profile);
        arena.start();
        const groups = CRAWLERS.map((c) => applicableGroups(records.groups, agentTokens(c, profile)));
        const shared = groups.map((g) => rulesOf(records.body, g, profile, arena));
        // (Asked after every set of the site is made: a later set must not have written over an earlier one's.)
        const got = shared.map((rules) => answers(rules, profile));
        // The same groups make the same rules in an array of their own: answered once (most crawlers have only `*`).
        const own = new Map<string, unknown>();
        const want = groups.map((g) => {
          const key = g.map((x) => records.groups.indexOf(x)).join(',');
          if (!own.has(key)) own.set(key, answers(rulesOf(records.body, g, profile), profile));
          return own.get(key);
        });
        if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, f).toEqual(want);
      }
    });
  }
});

// The audit's choice of groups for all of a site's crawlers in one call of the
// core (crawler-sets.ts, assembly/bulk/crawler-sets.ts) against the engine's
// choice one crawler at a time (agents.ts applicableGroups, lastChoiceReach):
// the same groups and reach per crawler, one set for crawlers whose groups are
// the same, on every file of the corpus and on random files of user-agent lines,
// both profiles. And its work: a site's record asks the core once, not once a
// crawler (a count, not a clock).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { agentTokens, applicableGroups, groupChoices, lastChoiceReach } from '../../src/engine/parse/agents.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { readAuditRecords } from '../../src/bulk/audit/audit-records.js';
import { CrawlerChoice, crawlerSetCalls } from '../../src/bulk/audit/crawler-sets.js';
import { SiteAuditor } from '../../src/bulk/audit/site-audit.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { propertySeed } from '../helpers/seed.js';

const PROFILES: Profile[] = ['rfc', 'google'];
// (Twice GPTBot, and two spellings of one: crawlers of the same names share a set.)
const CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot', 'gptbot', 'GPTBot'];

function expectSameChoice(body: Uint8Array, profile: Profile, crawlers: readonly string[]): void {
  const { groups } = readAuditRecords(body, profile);
  const tokens = crawlers.map((c) => agentTokens(c, profile));
  const { sets, setOf, reach } = new CrawlerChoice(tokens).choose(groups);
  const first = new Map<number, number>();
  crawlers.forEach((_, k) => {
    const expected = applicableGroups(groups, tokens[k]);
    expect(sets[setOf[k]]).toEqual(expected);
    // (The same objects, in file order.)
    sets[setOf[k]].forEach((g, i) => expect(g).toBe(expected[i]));
    expect(reach[k]).toBe(lastChoiceReach());
    if (!first.has(setOf[k])) first.set(setOf[k], k);
  });
  // One set a distinct list of groups, numbered as the crawlers first meet them.
  expect([...first.keys()]).toEqual(sets.map((_, i) => i));
  for (let i = 0; i < sets.length; i++) for (let j = 0; j < i; j++) expect(sets[i]).not.toEqual(sets[j]);
}

const line = fc.oneof(
  fc.constantFrom('GPTBot', 'gptbot', 'CCBot', 'Googlebot', 'Googlebot/2.1', 'Googlebot-News', 'Google-Extended', '*', '* ', '*bot', 'Bingbot', 'Other', '', 'ClaudeBot ', 'claudebot').map((v) => `User-agent: ${v}`),
  fc.constantFrom('Disallow: /', 'Allow: /a', 'Disallow:', 'Content-Usage: train-ai=n', 'Sitemap: /s.xml', '# c', ''),
);

describe('the audit chooses every crawler\'s groups in one call of the core', () => {
  for (const profile of PROFILES) {
    it(`${profile}: random files of user-agent lines, the engine's choice per crawler`, () => {
      fc.assert(
        fc.property(fc.array(line, { maxLength: 40 }), (lines) => expectSameChoice(new TextEncoder().encode(lines.join('\n')), profile, CRAWLERS)),
        { numRuns: 400, seed: propertySeed() },
      );
    });
    it.skipIf(!HAVE_SHARED)(`${profile}: every file of the corpus, the engine's choice per crawler`, () => {
      const dir = path.join(SHARED, 'corpus', 'robots');
      for (const name of readdirSync(dir)) expectSameChoice(readFileSync(path.join(dir, name)).subarray(0, 512_000), profile, CRAWLERS);
    });
    it(`${profile}: a site's record asks the core once for its crawlers, and no choice a crawler`, () => {
      const body = new TextEncoder().encode('User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n');
      const auditor = new SiteAuditor({ crawlers: CRAWLERS.slice(0, 6), profile, maxOctets: 512_000, convention: 'rfc' });
      auditor.audit('example.com', 'https://example.com/', { kind: 'ok', body, http: 200 });
      crawlerSetCalls.count = 0;
      groupChoices.count = 0;
      const record = auditor.audit('example.com', 'https://example.com/', { kind: 'ok', body, http: 200 });
      expect([crawlerSetCalls.count, groupChoices.count]).toEqual([1, 0]);
      expect(record.crawlers.map((c) => c.named)).toEqual(['own', 'own', 'star', 'star', 'star', 'star']);
    });
  }
});

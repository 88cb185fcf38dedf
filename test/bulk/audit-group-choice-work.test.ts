// A site's record chooses each crawler's groups once, over the records' user-agent
// lines (src/bulk/audit/group-choice.ts), not by asking the core: the same choice
// says whether a group of its own names the crawler or only `*` reaches it (a
// second choice over the groups chosen, per crawler, also wrote the file's
// user-agent lines into the core's area again for the next crawler's; then a
// choice of the core's a crawler, its names written there each time). Bounded by
// the core's choices counted (none), not a clock; the answers are the audit tests'.
import { describe, expect, it } from 'vitest';
import { groupChoices } from '../../src/engine/parse/agents.js';
import { SiteAuditor } from '../../src/bulk/audit/site-audit.js';
import type { Profile } from '../../src/engine/parse/profile.js';

const CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot'];
const BODY = new TextEncoder().encode(
  ['User-agent: GPTBot', 'User-agent: CCBot', 'Disallow: /', '', 'User-agent: Googlebot', 'Allow: /', 'Disallow: /private/', '', 'User-agent: *', 'Disallow: /tmp/'].join('\n'),
);

describe('the audit chooses a crawler\'s groups once a site, without the core', () => {
  for (const profile of ['rfc', 'google'] as Profile[]) {
    it(`${profile}: six crawlers, no choice of the core's`, () => {
      const auditor = new SiteAuditor({ crawlers: CRAWLERS, profile, maxOctets: 512_000, convention: 'rfc' });
      auditor.audit('example.com', 'https://example.com/', { kind: 'ok', body: BODY, http: 200 });
      groupChoices.count = 0;
      const record = auditor.audit('example.com', 'https://example.com/', { kind: 'ok', body: BODY, http: 200 });
      expect(groupChoices.count).toBe(0);
      expect(record.crawlers.map((c) => [c.crawler, c.named, c.category])).toEqual([
        ['GPTBot', 'own', 'all'],
        ['CCBot', 'own', 'all'],
        ['Google-Extended', 'star', 'part'],
        ['ClaudeBot', 'star', 'part'],
        ['Googlebot', 'own', 'part'],
        ['Bingbot', 'star', 'part'],
      ]);
    });
  }
});

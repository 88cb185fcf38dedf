// A site's record asks the core which groups apply once for all its crawlers
// (crawler-groups.ts crawlerGroupsEach: a call a crawler, with the JavaScript
// around it, was a tenth of the audit's loop); the same choice says whether a
// group of its own names each crawler or only `*` reaches it (a second choice
// over the groups chosen, per crawler, also wrote the file's user-agent lines
// into the core's area again for the next crawler's). Bounded by the choices
// counted, not a clock; the answers are the audit tests'.
import { describe, expect, it } from 'vitest';
import { groupChoices } from '../../src/engine/parse/agents.js';
import { SiteAuditor } from '../../src/bulk/audit/site-audit.js';
import type { Profile } from '../../src/engine/parse/profile.js';

const CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot'];
const BODY = new TextEncoder().encode(
  ['User-agent: GPTBot', 'User-agent: CCBot', 'Disallow: /', '', 'User-agent: Googlebot', 'Allow: /', 'Disallow: /private/', '', 'User-agent: *', 'Disallow: /tmp/'].join('\n'),
);

describe('the audit chooses its crawlers\' groups once a site', () => {
  for (const profile of ['rfc', 'google'] as Profile[]) {
    it(`${profile}: six crawlers, one choice`, () => {
      const auditor = new SiteAuditor({ crawlers: CRAWLERS, profile, maxOctets: 512_000, convention: 'rfc' });
      auditor.audit('example.com', 'https://example.com/', { kind: 'ok', body: BODY, http: 200 });
      groupChoices.count = 0;
      const record = auditor.audit('example.com', 'https://example.com/', { kind: 'ok', body: BODY, http: 200 });
      expect(groupChoices.count).toBe(1);
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

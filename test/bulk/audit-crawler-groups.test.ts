// The audit's choice of its crawlers' groups, all of a site's crawlers in one
// call of the core (crawler-groups.ts crawlerGroupsEach,
// assembly/bulk/audit-group-choice.ts), against the choice a crawler at a time
// (agents.ts applicableGroups) and how it reaches the crawler
// (lastChoiceReach): the same groups, the same objects, in the same order. On every file of the corpus, both profiles, crawlers with
// groups of their own and without; and on random files of the lines that
// decide it (`*` and `* trailing`, `*bot`, an empty value, a value with no
// product token, versions, case, non-ASCII, a line naming two crawlers' groups),
// with names a crawler may be given (the empty name and names that are no
// product token under google).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { readRecords } from '../../src/engine/parse/records.js';
import { agentTokens, applicableGroups, lastChoiceReach } from '../../src/engine/parse/agents.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { crawlerGroupsEach } from '../../src/bulk/audit/crawler-groups.js';
import { readAuditRecords } from '../../src/bulk/audit/audit-records.js';
import { AI_CRAWLERS } from '../../src/data/ai-crawlers.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { propertySeed } from '../helpers/seed.js';

const PROFILES: Profile[] = ['rfc', 'google'];
const CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot', 'Googlebot-News', 'Mediapartners-Google', 'ia_archiver', 'Yandex'];

/** The same choice for each name, of the groups of the audit's reading of the body (and with `engine`, of
 * readRecords' as well: the two readers' groups are the same, audit-records.test.ts). */
function expectSameChoice(body: Uint8Array, profile: Profile, names: readonly string[], engine = true): void {
  const readings = [readAuditRecords(body, profile).groups];
  if (engine) readings.push(readRecords(body, profile).groups);
  const tokens = names.map((name) => agentTokens(name, profile));
  for (const groups of readings) {
    const each = crawlerGroupsEach(groups, tokens);
    expect(each.length).toBe(names.length);
    for (const [k, name] of names.entries()) {
      const core = applicableGroups(groups, tokens[k]);
      const reach = lastChoiceReach();
      const audit = each[k];
      expect(audit.groups.length, `${profile} ${JSON.stringify(name)}`).toBe(core.length);
      audit.groups.forEach((g, i) => expect(g, `${profile} ${JSON.stringify(name)} group ${i}`).toBe(core[i]));
      expect(audit.reach, `${profile} ${JSON.stringify(name)}`).toBe(reach);
    }
  }
}

describe('the audit chooses a crawler\'s groups as the core does', () => {
  it('by hand: a group naming two crawlers, `*` twice, a version, case, a trailing `*` line, no group', () => {
    const text = [
      'User-agent: GPTBot', 'User-agent: CCBot', 'Disallow: /', '', 'User-agent: *', 'Disallow: /tmp/', '', 'User-agent: googlebot/2.1',
      'User-agent: * trailing', 'Allow: /', 'User-agent: *bot', 'Disallow: /b', 'User-agent: GPTBOT', 'Disallow: /g',
    ].join('\n');
    for (const profile of PROFILES) {
      expectSameChoice(new TextEncoder().encode(text), profile, CRAWLERS);
      expectSameChoice(new TextEncoder().encode('Disallow: /\nSitemap: https://s.example/'), profile, CRAWLERS);
      expectSameChoice(new Uint8Array(0), profile, CRAWLERS);
    }
    expectSameChoice(new TextEncoder().encode('User-agent: 360Spider\nDisallow: /\nUser-agent: *\nAllow: /'), 'google', ['', 'Googlebot/2.1', 'é', '*']);
  });

  it('more crawlers than one call of the core takes (AGENT_EACH_CRAWLERS): the AI crawlers, some named by a group, the last of them too', () => {
    const names = AI_CRAWLERS.map((c) => c.name).filter((t) => /^[A-Za-z_-]+$/.test(t));
    expect(names.length).toBeGreaterThan(2 * 30);
    const named = [names[0], names[29], names[30], names[31], names[61], names[names.length - 1]];
    const text = [...named.map((n) => `User-agent: ${n}`), 'Disallow: /', '', 'User-agent: *', 'Disallow: /tmp/', '', `User-agent: ${names[45]}`, 'Allow: /'].join('\n');
    for (const profile of PROFILES) expectSameChoice(new TextEncoder().encode(text), profile, names);
  });

  it('random files of the lines that decide a choice, random names', () => {
    const line = fc.constantFrom(
      'User-agent: *', 'User-agent: * trailing', 'User-agent:\t*\tx', 'User-agent: *bot', 'User-agent: **', 'User-agent:', 'User-agent: 360Spider',
      'User-agent: GPTBot', 'User-agent: gptbot/1.0', 'User-agent: CCBOT', 'User-agent: Googlebot-News', 'User-agent: googlebot', 'user-agent: Bingbot',
      'User-agent: ia_archiver', 'User-agent: Goo\u00e9glebot', 'User-agent: \u00e9', 'User-agent: Google Extended', 'Disallow: /', 'Allow: /a',
      'Disallow:', 'Content-Usage: train-ai=n', 'Crawl-delay: 3', 'Sitemap: https://s.example', '# comment', '', 'junk',
    );
    const rfcNames = fc.subarray(CRAWLERS, { minLength: 1 });
    const googleNames = fc.array(fc.oneof(fc.constantFrom(...CRAWLERS, '', 'Googlebot/2.1', '\u00e9', '*', 'gpt bot'), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.constantFrom('\n', '\r\n'), rfcNames, googleNames, (lines, end, rfc, google) => {
        const body = new TextEncoder().encode(lines.join(end));
        expectSameChoice(body, 'rfc', rfc);
        expectSameChoice(body, 'google', google);
      }),
      { numRuns: 400, seed: propertySeed() },
    );
  });
});

describe.skipIf(!HAVE_SHARED)('the audit chooses a crawler\'s groups as the core does: every file of the corpus', () => {
  it.each(PROFILES)('%s', { timeout: 300_000 }, (profile) => {
    const dir = path.join(SHARED, 'corpus', 'robots');
    for (const host of readdirSync(dir)) expectSameChoice(new Uint8Array(readFileSync(path.join(dir, host))), profile, CRAWLERS, false);
  });
});

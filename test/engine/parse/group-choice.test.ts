// Which groups apply is decided by the core alone (assembly/parse/group-choice.ts):
// its selector over a body, and groupsApplying over the user-agent lines of
// records already read (agents.ts groupsThatApply, reachOf). Held here to the
// host's decision from the records' own reading of each line
// (test/helpers/groups-reference.ts), for the groups, crawl-delay's runs
// (`*` as any value starting with it), the compat entry's crawlers named by line
// numbers, and the audit's own/star/none; lines spelt every way that matters
// (`*` alone or followed by blanks or more, a token and what ends it, none,
// long ones), in both profiles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupsThatApply, lastChoiceReach, reachOf } from '../../../src/engine/parse/agents.js';
import { readRecords } from '../../../src/engine/parse/records.js';
import type { Profile } from '../../../src/engine/parse/profile.js';
import { groupsThatApplyReference, reachOfReference } from '../../helpers/groups-reference.js';

const LONG = 'a'.repeat(3000);
const agentValue = fc.constantFrom('*', '* ', '*\tx', '*bot', '**', '* GPTBot', 'GPTBot', 'gptbot/1.0', 'GPTBot-X', 'gpt', 'FooBot', 'foo_bot;x', 'ClaudeBot extra', '360Spider', '', '/', 'Mozilla/5.0', LONG, `${LONG}b/1`, 'GoogleBot', 'googlebot-image');
const key = fc.constantFrom('User-agent', 'user-agent', 'useragent', 'Disallow', 'Allow', 'Crawl-delay', 'Content-Usage', 'Sitemap');
const line = fc.oneof(
  agentValue.map((v) => `User-agent: ${v}`),
  fc.tuple(key, fc.constantFrom('/', '/a', '2', 'train-ai=n', 'x')).map(([k, v]) => `${k}: ${v}`),
);
const body = fc.array(line, { maxLength: 16 }).map((lines) => lines.join('\n'));
const tokens = fc.array(fc.constantFrom('gptbot', 'foobot', 'foo_bot', 'gpt', 'googlebot', 'googlebot-image', 'claudebot', '', 'nobody', 'mozilla', LONG, 'bot/2.1', '*'), { maxLength: 3 });
const profile = fc.constantFrom<Profile>('rfc', 'google');
const encoder = new TextEncoder();

describe("which groups apply: the core's decision over records' lines (group-choice.ts groupsApplying)", () => {
  it('gives the groups, the crawl-delay runs and the reach that the host decided from the records', () => {
    fc.assert(
      fc.property(body, tokens, profile, fc.array(fc.nat(17), { maxLength: 3 }), (text, names, p, lines) => {
        const r = readRecords(encoder.encode(text), p);
        expect(groupsThatApply(r.groups, { tokens: names })).toEqual(groupsThatApplyReference(r.groups, { tokens: names }));
        const applying = groupsThatApply(r.groups, { tokens: names });
        // (The audit takes the reach from the choice itself: lastChoiceReach.)
        expect(lastChoiceReach()).toBe(reachOfReference(applying, names));
        for (let i = 0; i < applying.length; i++) expect(applying[i]).toBe(groupsThatApplyReference(r.groups, { tokens: names })[i]);
        expect(groupsThatApply(r.delayRuns, { tokens: names }, 'wildcard')).toEqual(groupsThatApplyReference(r.delayRuns, { tokens: names }, 'wildcard'));
        expect(groupsThatApply(r.groups, { lines })).toEqual(groupsThatApplyReference(r.groups, { lines }));
        expect(groupsThatApply(r.delayRuns, { lines }, 'wildcard')).toEqual(groupsThatApplyReference(r.delayRuns, { lines }, 'wildcard'));
        expect(reachOf(applying, names)).toBe(reachOfReference(applying, names));
        // A set of groups chosen for one crawler, asked for another (the audit's sets are shared by crawlers the same groups apply to).
        expect(reachOf(applying, ['foobot'])).toBe(reachOfReference(applying, ['foobot']));
      }),
      { numRuns: 1500, examples: [['User-agent: *bot\nDisallow: /\nUser-agent: *\nDisallow: /a', [''], 'google', []]] },
    );
  });

  it('no group, no line: nothing applies', () => {
    const r = readRecords(encoder.encode('Disallow: /\n# User-agent: x\n'), 'google');
    expect(groupsThatApply(r.groups, { tokens: ['x'] })).toEqual([]);
    expect(reachOf([], ['x'])).toBe('none');
  });
});

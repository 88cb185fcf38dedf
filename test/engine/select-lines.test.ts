// The selector's line numbers (assembly/parse/select.ts): it reads the lines of
// the groups that may apply one by one and passes over the others in bulk
// (groups naming other crawlers, lines before any user-agent line: userLineAt),
// counting the lines it passed over apart. Every rule a first verdict's table
// holds keeps the line the lexer gives it (src/engine/parse/records.ts, line by
// line), whatever the line ends (LF, CR, CRLF, mixed) and wherever the
// passed-over lines fall: before, between and after the groups that apply.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileRules } from '../../src/engine/compile/compile.js';
import { compileColdFromBody } from '../../src/engine/compile/cold-from-body.js';
import { selectGroupRules } from '../../src/engine/parse/rule-selection.js';
import { agentTokens, applicableGroups } from '../../src/engine/parse/agents.js';
import { readRecords } from '../../src/engine/parse/records.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import type { RuleTable } from '../../src/engine/compile/rule-table.js';
import { core } from '../../src/engine/wasm/core.js';
import { HEADER_SIZE } from '../../src/engine/wasm/layout.js';

/** The rules' lines a table holds (by rank), its blocks freed. */
function linesOf(t: RuleTable): number[] {
  const c = core();
  const at = (t.block + HEADER_SIZE) >>> 2;
  const lines = [...c.u32.subarray(at, at + t.count)];
  c.free(t.cold!.block);
  c.free(t.block);
  return lines;
}

const agent = fc.constantFrom('Googlebot', '*', 'foobot', 'BarBot/1.0', 'googlebot-news');
const rule = fc.tuple(fc.constantFrom('Disallow', 'Allow', 'disallow', 'ALLOW'), fc.constantFrom(': ', ':', ' : ', ' '), fc.constantFrom('/a', '/b$', '/*.pdf', '/x/index.htm', '', '/%41', '/c?d'))
  .map(([k, s, v]) => `${k}${s}${v}`);
const other = fc.constantFrom('# a comment', 'Sitemap: https://example.com/s.xml', '', '   ', '<html><body>', 'x'.repeat(70), 'Crawl-delay: 2', 'useful: no', '\tDisallow: /t # tab', 'Content-Usage: train-ai=n');
// The user-agent key as files write it (userLineAt finds "us", then "er", then the line's start past its blanks).
const userKey = fc.constantFrom('User-agent', 'user-agent', 'USER-AGENT', 'uSeR-AgEnT', '  User-agent', '\tuser-agent', 'useragent', 'User agent');
// Lines with "us" or "user" that start no group (HTML served as robots.txt: most of what userLineAt passes over).
const notUser = fc.constantFrom('just us', 'status: users', '<p>user</p>', 'a user-agent: x', 'USERS', 'us', 'usEr', '# User-agent: Googlebot', 'x'.repeat(29) + 'user-agent: Googlebot');
const group = fc.tuple(fc.array(fc.tuple(userKey, agent), { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(rule, other, notUser), { maxLength: 6 }))
  .map(([agents, lines]) => [...agents.map(([k, a]) => `${k}: ${a}`), ...lines]);
// (A head of any length: the groups' first lines fall anywhere in userLineAt's 32-octet steps.)
const file = fc.tuple(fc.array(fc.oneof(other, notUser), { maxLength: 4 }), fc.nat({ max: 40 }), fc.array(group, { maxLength: 6 }), fc.array(fc.constantFrom('\n', '\r', '\r\n'), { minLength: 1, maxLength: 3 }))
  .map(([head, pad, groups, ends]) => {
    const lines = [...head, '<'.repeat(pad), ...groups.flat()];
    return new TextEncoder().encode(lines.map((l, i) => l + ends[i % ends.length]).join(''));
  });

describe('the selector\'s line numbers after lines passed over in bulk', () => {
  it('every rule of a first verdict\'s table has its line as the lexer counts it, any line ends, both profiles', () => {
    fc.assert(
      fc.property(file, fc.constantFrom<Profile>('google', 'rfc'), fc.constantFrom('Googlebot', 'foobot', 'nobot'), (body, profile, crawler) => {
        const names = agentTokens(crawler, profile);
        const cold = linesOf(compileColdFromBody(body, names, profile));
        const records = readRecords(body, profile);
        const lexed = linesOf(compileRules(records.body, selectGroupRules(applicableGroups(records.groups, names)), profile, true));
        expect(cold).toEqual(lexed);
      }),
      { numRuns: 3000 },
    );
  });

  it('a rule after groups and lines passed over in bulk, in long runs and with each kind of line end', () => {
    for (const end of ['\n', '\r', '\r\n']) {
      const skipped = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 'User-agent: foobot' : `Disallow: /other/${'y'.repeat(i)}`));
      const lines = ['# head', ...skipped, 'User-agent: Googlebot', 'Disallow: /first', ...skipped, 'User-agent: googlebot', 'Allow: /second$', ...skipped];
      const body = new TextEncoder().encode(lines.join(end));
      for (const profile of ['google', 'rfc'] as const) {
        const got = linesOf(compileColdFromBody(body, agentTokens('Googlebot', profile), profile)).sort((a, b) => a - b);
        expect(got).toEqual([lines.indexOf('Disallow: /first') + 1, lines.indexOf('Allow: /second$') + 1]);
      }
    }
  });
});

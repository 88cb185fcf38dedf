// The core's rule selection (assembly/select.ts, driven by rule-selection.ts's
// selectRules: lines and groups read in one pass, no records) against the
// records' (readRecords' groups, applicableGroups, selectGroupRules): the same
// rules, with the same lines and values, in the same order, for any body and agent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { selectedRules, selectGroupRules, selectRules, SEL_DISALLOW, SEL_END, SEL_FIELDS, SEL_LINE, SEL_START } from '../../../src/engine/parse/rule-selection.js';
import { readRecords } from '../../../src/engine/parse/records.js';
import { agentTokens, applicableGroups } from '../../../src/engine/parse/agents.js';
import type { Profile } from '../../../src/engine/parse/profile.js';

/** The rules the last selection holds (selectedRules()), n of them, as [disallow, line, start, end]. */
function rules(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => [SEL_DISALLOW, SEL_LINE, SEL_START, SEL_END].map((f) => selectedRules()[i * SEL_FIELDS + f]));
}

function both(body: Uint8Array, agent: string | readonly string[], profile: Profile = 'google'): { core: number[][]; records: number[][] } {
  const names = agentTokens(agent, profile);
  const core = rules(selectRules(body, names));
  const records = rules(selectGroupRules(applicableGroups(readRecords(body).groups, names)));
  return { core, records };
}

const AGENTS: (string | string[])[] = ['Googlebot', 'googlebot-image', 'FooBot', ['Googlebot-News', 'Googlebot'], '', 'Bot/1.0', 'a_b-c', 'B'];

const word = fc.constantFrom(
  'User-agent', 'user agent', 'USERAGENT', 'user-agentx', 'Allow', 'ALLOWED', 'disallow', 'Dissalow', 'diasllow', 'disallaw', 'sitemap', 'crawl-delay',
  'content-usage', 'unknown', 'a', 'd', 'u', ':', ': ', ' ', '\t', '\v', '\f', '\r', '\n', '\r\n', '#', '\0', '*', '* x', '*x', '/a', '/b$', 'x',
  'disallow:', 'DisAllow:', 'allow:', 'aLLow:', 'user-agent:', 'User-Agent:', 'user\ragent:', 'disallow\n:', 'allow#:', 'googlebot', 'GoogleBot', 'googlebot/2.1', 'Googlebot-Image', 'foobot', 'FooBot', 'a_b-c', 'B', '360Spider', '\ufeff', 'é',
);
const body = fc.array(word, { maxLength: 60 }).map((w) => new TextEncoder().encode(w.join('')));
const agent = fc.constantFrom(...AGENTS);

describe('the core selects the rules the records select', () => {
  it('random bodies of robots.txt vocabulary, for agents that name groups and that do not', () => {
    fc.assert(fc.property(body, agent, (b, a) => {
      const { core, records } = both(b, a);
      expect(core).toEqual(records);
    }), { numRuns: 4000 });
  });

  it('bodies with long runs that are not user-agent lines (passed over in bulk where no group counts): "user" in any case and place, line ends of every kind at every alignment', () => {
    const filler = fc.constantFrom(
      'x', 'x'.repeat(13), 'abcdefghijklmnopq', '<p class="user">', 'username: x', 'USER', 'User', 'uSeR-agent', 'reuser', ' user', '\tuser', '\vUSER agent', '\r', '\n', '\r\n', '\n\r', '\r\r\n', ' ', '#user-agent: *', '\0user-agent: *',
    );
    const padded = fc.array(fc.oneof(word, filler, filler), { maxLength: 120 }).map((w) => new TextEncoder().encode(w.join('')));
    fc.assert(fc.property(padded, agent, (b, a) => {
      const { core, records } = both(b, a);
      expect(core).toEqual(records);
    }), { numRuns: 3000 });
    // Lines: groups for the agent and for others, rules, and long filler between them (the rules' line numbers count every line passed over).
    const line = fc.oneof(
      fc.array(filler, { minLength: 1, maxLength: 12 }).map((w) => w.join('')),
      fc.constantFrom('User-agent: googlebot', ' user-agent: *', 'USER AGENT: FooBot', 'useragent: other', 'User-agent: foo'),
      fc.constantFrom('Disallow: /a', 'Allow: /b', 'disallow:/c$', 'Sitemap: /s'),
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r', '\r\r\n', '\n\n', '\n\r');
    const lines = fc.array(fc.tuple(line, eol), { maxLength: 80 }).map((ls) => new TextEncoder().encode(ls.map(([l, e]) => l + e).join('')));
    fc.assert(fc.property(lines, agent, (b, a) => {
      const { core, records } = both(b, a);
      expect(core).toEqual(records);
    }), { numRuns: 3000 });
  });

  it('random octets', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), agent, (b, a) => {
      const { core, records } = both(b, a);
      expect(core).toEqual(records);
    }), { numRuns: 2000 });
  });

  it('BOMs, lines past the cap, a body without a line end, and more rules than one call of the core takes', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const long = (n: number, pad = ' ') => enc(`User-agent: *\n${pad.repeat(n)}Disallow: /a\r\nAllow: /${'b'.repeat(n)}\nDisallow: /c`);
    const many = enc('User-agent: googlebot\n' + Array.from({ length: 5000 }, (_, i) => `${i % 3 ? 'Disallow' : 'allow'}: /${i}\r\n`).join('') + 'user-agent: *\ndisallow: /');
    for (const b of [
      enc(''), enc('\ufeff'), new Uint8Array([0xef, 0xbb]), enc('\ufeffUser-agent: *\nDisallow: /x'), enc('User-agent: *\r\n\r\nDisallow: /x\r\r\nAllow: /y'),
      long(16_650), long(16_652), long(16_653), long(40_000), long(20_000, '\t'), many, enc('Disallow: /before\nUser-agent: *\nDisallow: /after'),
      enc('User-agent: googlebot\nUser-agent: *\nDisallow: /both\nUser-agent: foo\nAllow: /foo'),
    ]) {
      for (const a of AGENTS) {
        const { core, records } = both(b, a);
        expect(core).toEqual(records);
      }
    }
    expect(both(many, 'Googlebot').core.length).toBe(5000);
  });

  it('under rfc, for product tokens', () => {
    fc.assert(fc.property(body, fc.constantFrom('Googlebot', 'FooBot', ['a', 'B']), (b, a) => {
      const { core, records } = both(b, a, 'rfc');
      expect(core).toEqual(records);
    }), { numRuns: 1000 });
  });

  const corpus = path.resolve(import.meta.dirname, '../../../../shared/corpus/robots');
  it.runIf(existsSync(corpus))('every corpus file, for four crawlers', () => {
    const files = readdirSync(corpus);
    for (const f of files) {
      const b = new Uint8Array(readFileSync(path.join(corpus, f)));
      for (const a of ['Googlebot', 'bingbot', 'GPTBot', 'FooBot']) {
        const { core, records } = both(b, a);
        if (core.length !== records.length || core.some((r, i) => r.some((v, k) => v !== records[i][k]))) expect({ f, a, core }).toEqual({ f, a, core: records });
      }
    }
    expect(files.length).toBeGreaterThan(1000);
  }, 120_000);
});

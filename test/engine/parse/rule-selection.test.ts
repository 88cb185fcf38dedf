// The core's rule selection (assembly/parse/select.ts, driven by rule-selection.ts's
// selectRules: lines and groups read in one pass, no records) against the
// records' (readRecords' groups, applicableGroups, selectGroupRules): the same
// rules, with the same lines and values, in the same order, for any body and agent,
// in both profiles (under rfc a Content-Usage line is a rule: it ends its group's
// user-agent lines; under google it is an other record).
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
  const core = rules(selectRules(body, names, profile));
  const records = rules(selectGroupRules(applicableGroups(readRecords(body, profile).groups, names)));
  return { core, records };
}

const AGENTS: (string | string[])[] = ['Googlebot', 'googlebot-image', 'FooBot', ['Googlebot-News', 'Googlebot'], '', 'Bot/1.0', 'a_b-c', 'B'];
/** Agents rfc takes (product tokens only). */
const TOKEN_AGENTS = AGENTS.filter((a) => (typeof a === 'string' ? [a] : a).every((n) => /^[A-Za-z_-]+$/.test(n)));

const word = fc.constantFrom(
  'User-agent', 'user agent', 'USERAGENT', 'user-agentx', 'Allow', 'ALLOWED', 'disallow', 'Dissalow', 'diasllow', 'disallaw', 'sitemap', 'crawl-delay',
  'content-usage', 'Content-Usage:', 'CONTENT-USAGE: /a train-ai=n', 'content-usage:search=y', 'content-usagex:', 'content usage:', 'content-signal:', 'c', 'unknown', 'a', 'd', 'u', ':', ': ', ' ', '\t', '\v', '\f', '\r', '\n', '\r\n', '#', '\0', '*', '* x', '*x', '/a', '/b$', 'x',
  'disallow:', 'DisAllow:', 'allow:', 'aLLow:', 'user-agent:', 'User-Agent:', 'user\ragent:', 'disallow\n:', 'allow#:', 'googlebot', 'GoogleBot', 'googlebot/2.1', 'Googlebot-Image', 'foobot', 'FooBot', 'a_b-c', 'B', '360Spider', '\ufeff', 'é',
);
const body = fc.array(word, { maxLength: 60 }).map((w) => new TextEncoder().encode(w.join('')));
const agent = fc.constantFrom(...AGENTS);
/** A profile and an agent it takes. */
const profiled = fc.oneof(
  agent.map((a) => ['google', a] as const),
  fc.constantFrom(...TOKEN_AGENTS).map((a) => ['rfc', a] as const),
);

describe('the core selects the rules the records select', () => {
  it('random bodies of robots.txt vocabulary, for agents that name groups and that do not', () => {
    fc.assert(fc.property(body, profiled, (b, [p, a]) => {
      const { core, records } = both(b, a, p);
      expect(core).toEqual(records);
    }), { numRuns: 4000 });
  });

  it('bodies with long runs that are not user-agent lines (passed over in bulk where no group counts): "user" in any case and place, line ends of every kind at every alignment', () => {
    const filler = fc.constantFrom(
      'x', 'x'.repeat(13), 'abcdefghijklmnopq', '<p class="user">', 'username: x', 'USER', 'User', 'uSeR-agent', 'reuser', ' user', '\tuser', '\vUSER agent', '\r', '\n', '\r\n', '\n\r', '\r\r\n', ' ', '#user-agent: *', '\0user-agent: *',
    );
    const padded = fc.array(fc.oneof(word, filler, filler), { maxLength: 120 }).map((w) => new TextEncoder().encode(w.join('')));
    fc.assert(fc.property(padded, profiled, (b, [p, a]) => {
      const { core, records } = both(b, a, p);
      expect(core).toEqual(records);
    }), { numRuns: 3000 });
    // Lines: groups for the agent and for others, rules, and long filler between them (the rules' line numbers count every line passed over).
    const line = fc.oneof(
      fc.array(filler, { minLength: 1, maxLength: 12 }).map((w) => w.join('')),
      fc.constantFrom('User-agent: googlebot', ' user-agent: *', 'USER AGENT: FooBot', 'useragent: other', 'User-agent: foo'),
      fc.constantFrom('Disallow: /a', 'Allow: /b', 'disallow:/c$', 'Sitemap: /s', 'Content-Usage: train-ai=n', ' content-usage:/a search=y', 'Content-Signal: search=no', 'Crawl-delay: 1'),
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r', '\r\r\n', '\n\n', '\n\r');
    const lines = fc.array(fc.tuple(line, eol), { maxLength: 80 }).map((ls) => new TextEncoder().encode(ls.map(([l, e]) => l + e).join('')));
    fc.assert(fc.property(lines, profiled, (b, [p, a]) => {
      const { core, records } = both(b, a, p);
      expect(core).toEqual(records);
    }), { numRuns: 3000 });
  });

  it('random octets', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), profiled, (b, [p, a]) => {
      const { core, records } = both(b, a, p);
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
      enc(`User-agent: googlebot\nContent-Usage: /${'u'.repeat(16_700)} train-ai=n\nUser-agent: *\nDisallow: /long-usage`),
      enc(`User-agent: googlebot\n${' '.repeat(16_700)}Content-Usage: train-ai=n\nUser-agent: *\nDisallow: /cut-usage`),
    ]) {
      for (const a of AGENTS) {
        const { core, records } = both(b, a);
        expect(core).toEqual(records);
      }
      for (const a of TOKEN_AGENTS) {
        const { core, records } = both(b, a, 'rfc');
        expect(core).toEqual(records);
      }
    }
    expect(both(many, 'Googlebot').core.length).toBe(5000);
  });

  it('groups of user-agent, Content-Usage and rule lines in any order (Content-Usage between user-agent lines, after them, before rules, at the end, before any group), both profiles', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const line = fc.constantFrom(
      'User-agent: Googlebot', 'user-agent: *', 'User-agent: FooBot', 'User-agent: other', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /c',
      'Content-Usage: train-ai=n', 'content-usage: /a search=y', 'CONTENT-USAGE:', '  Content-Usage : x', 'Content-Usage /a', 'content-usage: # c',
      'Content-Signal: ai-train=no', 'Crawl-delay: 2', '# Content-Usage: train-ai=n', '', 'Sitemap: https://e.example/s',
    );
    const eol = fc.constantFrom('\n', '\r\n', '\r');
    const file = fc.array(fc.tuple(line, eol), { maxLength: 40 }).map((ls) => enc(ls.map(([l, e]) => l + e).join('')));
    fc.assert(fc.property(file, profiled, (b, [p, a]) => {
      const { core, records } = both(b, a, p);
      expect(core).toEqual(records);
    }), { numRuns: 3000 });
    // The boundary itself: a Content-Usage line ends Googlebot's user-agent lines under rfc, not under google.
    const example = enc('User-agent: Googlebot\nContent-Usage: search=y, train-ai=n\n\nUser-agent: *\nDisallow: /x\nContent-Usage: search=n\n');
    expect(both(example, 'Googlebot', 'rfc')).toEqual({ core: [], records: [] });
    expect(both(example, 'Googlebot', 'google')).toEqual({ core: [[1, 5, 83, 85]], records: [[1, 5, 83, 85]] });
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
        for (const p of ['google', 'rfc'] as const) {
          const { core, records } = both(b, a, p);
          if (core.length !== records.length || core.some((r, i) => r.some((v, k) => v !== records[i][k]))) expect({ f, a, p, core }).toEqual({ f, a, p, core: records });
        }
      }
    }
    expect(files.length).toBeGreaterThan(1000);
  }, 120_000);
});

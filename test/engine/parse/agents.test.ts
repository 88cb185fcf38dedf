// Crawler names: every per-agent answer of one RobotsTxt (verdicts and verdicts(),
// crawl-delay, Content-Usage, usage() and usages() with Content-Signal, explainAll()'s
// purposes) comes from the same groups, and a User-Agent header gives the
// product token the groups are matched against.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, productToken } from '../../../src/index.js';

// Group n: its names, a crawl-delay of n, a rule only it has (/gn), a Content-Usage for it,
// one for a path it allows (/un) and a Content-Signal only it has (gn=no, a key that maps to no purpose).
const names = fc.constantFrom('Agent1', 'Agent2', 'agent', 'FooBot', 'foobot', 'FooBot/1.0', '*', 'Bar_Bot', 'Agent1 extra');
const groups = fc.array(fc.array(names, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 5 });
const crawlers = fc.constantFrom('Agent1', 'Agent2', 'Agent', 'FooBot', 'FooBot/1.0', 'Bar_Bot', 'Nobody', 'Mozilla/5.0 (compatible; FooBot/1.0)');

function file(gs: string[][], usageFirst = false): string {
  return gs
    .map((agents, n) => {
      const usage = [`Content-Usage: /g${n + 1} train-ai=n`, `Content-Usage: /u${n + 1} search=n`, `Content-Signal: g${n + 1}=no`];
      // (Usage lines before the group's rule, or after it: a group is the same either way.)
      return [...agents.map((a) => `User-agent: ${a}`), `Crawl-delay: ${n + 1}`, ...(usageFirst ? usage : []), `Disallow: /g${n + 1}`, ...(usageFirst ? [] : usage)].join('\n');
    })
    .join('\n\n');
}

describe('one RobotsTxt answers every question for a crawler from the same groups', () => {
  for (const profile of ['google', 'rfc'] as const) {
    it(`profile ${profile}`, () => {
      fc.assert(
        fc.property(groups, crawlers, crawlers, fc.boolean(), (gs, crawler, other, usageFirst) => {
          // Under rfc a name must be a product token: the caller takes it from the header.
          const token = (c: string) => (profile === 'rfc' ? productToken(c) || 'Nobody' : c);
          const agent = token(crawler);
          const robots = parse(file(gs, usageFirst), { profile });
          const applying = gs.map((_, n) => n + 1).filter((n) => !robots.isAllowed(`/g${n}`, agent));
          expect(robots.crawlDelay(agent)).toBe(applying[0]);
          for (let n = 1; n <= gs.length; n++) {
            // (contentUsage() is usage()'s reading: /gn, which the group disallows, has none.)
            expect(robots.contentUsage(`/u${n}`, agent)).toBe(applying.includes(n) ? 'search=n' : undefined);
            expect(robots.usage(`/u${n}`, agent).purposes.search).toBe(applying.includes(n) ? 'disallowed' : 'unknown');
          }
          const signals = robots.usage('/', agent).signals.filter((s) => s.field === 'content-signal');
          expect(signals.map((s) => s.value)).toEqual(applying.map((n) => `g${n}=no`));
          // Several crawlers at once pick each one's groups: verdicts() and usages(), beside another crawler.
          const list = [agent, token(other), [agent, token(other)]];
          for (let n = 1; n <= gs.length; n++) {
            expect(robots.verdicts(`/g${n}`, list).map((v) => v.allowed)).toEqual(list.map((c) => robots.isAllowed(`/g${n}`, c)));
            expect(robots.usages(`/u${n}`, list)).toEqual(list.map((c) => robots.usage(`/u${n}`, c)));
            // explainAll's purposes are usage()'s (what `robots explain` and `check --format json` print).
            const e = robots.explainAll(`/u${n}`, agent);
            const u = robots.usage(`/u${n}`, agent);
            expect([e.allowed, e.line, e.purposes, e.signals]).toEqual([u.allowed, u.line, u.purposes, u.signals]);
          }
          robots.dispose();
        }),
        { numRuns: 1500 },
      );
    });
  }

  it('the cases that differed: a name is compared whole, for its crawl-delay too', () => {
    const robots = parse('User-agent: Agent1\nCrawl-delay: 10\n\nUser-agent: Agent2\nCrawl-delay: 20\n\nUser-agent: Agent-two\nCrawl-delay: 2\n\nUser-agent: FooBot\nCrawl-delay: 5\nDisallow: /foo\n\nUser-agent: *\nCrawl-delay: 1\nDisallow: /all\n', { profile: 'google' });
    // A line's name is its leading letters, '-' and '_' (Google's ExtractUserAgent):
    // "Agent1" and "Agent2" are both "Agent", which the crawler "Agent2" is not. So
    // neither names it: its verdicts are the `*` group's, and so is its delay (it was Agent1's 10).
    expect(robots.isAllowed('/all', 'Agent2')).toBe(false);
    expect(robots.crawlDelay('Agent2')).toBe(1);
    expect(robots.crawlDelay('Agent')).toBe(10);
    expect(robots.crawlDelay('Agent-two')).toBe(2);
    // "FooBot/1.0" names no group under google: its verdicts and its delay are the `*` group's.
    expect(robots.isAllowed('/all', 'FooBot/1.0')).toBe(false);
    expect(robots.isAllowed('/foo', 'FooBot/1.0')).toBe(true);
    expect(robots.crawlDelay('FooBot/1.0')).toBe(1);
    expect(robots.crawlDelay(productToken('FooBot/1.0'))).toBe(5);
  });
});

describe('productToken', () => {
  it('finds the crawler in the User-Agent headers crawlers send', () => {
    const cases: [string, string][] = [
      ['FooBot', 'FooBot'],
      ['FooBot/1.0', 'FooBot'],
      ['FooBot/1.2 (+https://foo.example/bot)', 'FooBot'],
      ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36', 'Googlebot'],
      ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'bingbot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'GPTBot'],
      ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ClaudeBot'],
      ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot'],
      ['Googlebot-Image/1.0', 'Googlebot-Image'],
      ['  Bar_Bot/3', 'Bar_Bot'],
      ['360Spider', ''],
      ['', ''],
    ];
    for (const [ua, token] of cases) expect(productToken(ua), ua).toBe(token);
    expect(() => productToken(42 as unknown as string)).toThrow(TypeError);
  });

  it('rfc: a name that is not a product token is a TypeError that says how to get one', () => {
    const robots = parse('User-agent: FooBot\nDisallow: /\n');
    expect(() => robots.isAllowed('/', 'FooBot/1.0')).toThrow(/productToken\("FooBot\/1.0"\) gives "FooBot"/);
    expect(() => robots.isAllowed('/', 'Mozilla/5.0 (compatible; FooBot/1.0)')).toThrow(/gives "FooBot"/);
    expect(() => robots.compile('*')).toThrow(/"\*" groups apply when no group names it/);
    expect(robots.isAllowed('/', productToken('Mozilla/5.0 (compatible; FooBot/1.0)'))).toBe(false);
  });

  it('a list of agents with a hole is a TypeError that says so, under either profile', () => {
    const sparse = ['FooBot', , 'BarBot'] as unknown as string[]; // eslint-disable-line no-sparse-arrays
    for (const profile of ['google', 'rfc'] as const) {
      const robots = parse('User-agent: FooBot\nDisallow: /\n', { profile });
      expect(() => robots.isAllowed('/', sparse)).toThrow(/agent must be a string, got undefined/);
      expect(robots.isAllowed('/', ['BarBot', 'FooBot'])).toBe(false);
    }
  });
});

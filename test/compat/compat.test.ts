// robots-wasm/compat against robots-parser's own test suite: its test file
// (node_modules/robots-parser/test/Robots.js, shipped in its package) is run
// as it is, with `require('../index')` given our compat factory and chai's
// `expect` one that records each assertion instead of throwing. Every
// assertion passes, or is listed in DIFFERENCES with the reason (and then must
// fail, with the answer listed, so any change shows). The same file run on
// the real robots-parser passes whole: the harness reads it right. Then the
// differences found outside its suite (OUTSIDE_SUITE, each asserted on both
// libraries), and properties: on random rules and URLs the compat answers are
// RobotsTxt's and its origin checks robots-parser's; away from the listed
// differences, its answers are robots-parser's.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import robotsParser, { robotsParser as named } from '../../src/compat/robots-parser.js';
import { parse, type Profile } from '../../src/index.js';

const require = createRequire(import.meta.url);
const realRobotsParser = require('robots-parser') as (url: string, contents: string) => ReturnType<typeof robotsParser>;
const SUITE = require.resolve('robots-parser/test/Robots.js');

interface Assertion {
  test: string;
  /** Index of the assertion within its test. */
  n: number;
  actual: unknown;
  expected: unknown;
  pass: boolean;
}

/** Runs robots-parser's suite with `factory` as robots-parser; the assertions it made. */
function runSuite(factory: unknown): Assertion[] {
  const tests: { name: string; fn: () => void }[] = [];
  const results: Assertion[] = [];
  let current = '';
  let n = 0;
  const record = (actual: unknown, expected: unknown, pass: boolean) => results.push({ test: current, n: n++, actual, expected, pass });
  const chaiExpect = (actual: unknown) => ({
    to: {
      equal: (expected: unknown) => record(actual, expected, Object.is(actual, expected)),
      eql: (expected: unknown) => record(actual, expected, JSON.stringify(actual) === JSON.stringify(expected)),
      be: { lessThan: (limit: number) => record(actual, `< ${limit}`, (actual as number) < limit) },
    },
  });
  const fakeRequire = (id: string) => {
    if (id === '../index') return factory;
    if (id === 'chai') return { expect: chaiExpect };
    throw new Error(`the suite requires ${id}`);
  };
  const source = readFileSync(SUITE, 'utf8');
  // The suite times one test by Date.now() ("large wildcards", < 500 ms): read on this process's CPU clock, not the
  // wall's, so that a busy machine's waits do not enter it (it took 556 ms of wall at load 30) and the work still does.
  const cpuDate = { now: () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000; } };
  new Function('require', 'describe', 'it', 'Date', source)(fakeRequire, (_: string, body: () => void) => body(), (name: string, fn: () => void) => tests.push({ name, fn }), cpuDate);
  for (const t of tests) {
    current = t.name;
    n = 0;
    try {
      t.fn();
    } catch (error) {
      results.push({ test: t.name, n: -1, actual: String(error), expected: 'no exception', pass: false });
    }
  }
  return results;
}

/** Why robots-parser's answer is not ours. */
const REASONS = {
  SURROGATE: 'a lone surrogate in a rule is written as U+FFFD (the file is UTF-8), and so is the one in the URL: they match; robots-parser cannot encode either and leaves them apart',
  DELAY_NUMBER: 'crawl-delay is read as this engine reads it for both profiles: the number at the start of the value ("10a" is 10, "1.2.1" is 1.2, "1.a0" is 1); robots-parser takes only a value that is a number whole',
  // Beyond its suite (OUTSIDE_SUITE below); OCTETS is test/compat/peers.test.ts's reason.
  OCTETS: 'google compares octets as they are, after escaping only the rule\'s non-ASCII octets and upper-casing its escapes (Google\'s MaybeEscapePattern), and the URL is parsed as robots-parser does, which escapes "<" and " ": "Disallow: /a<b" never meets it; robots-parser escapes the rule too; the rfc run normalises both sides and agrees',
  NORMALISED: 'rfc normalises escapes of unreserved characters on both sides (RFC 3986 6.2.2.2: "%7E" is "~"); robots-parser only upper-cases them, so "Disallow: /~joe" does not meet "/%7Ejoe" there (nor under google)',
  EMPTY_GROUP: 'a group naming the crawler counts even with no rule (Google; RFC 9309 2.2.1): nothing is disallowed to it; robots-parser falls back to the * group when the crawler\'s has no rule',
  GROUP_LINES: 'only allow and disallow lines end a group\'s user-agent lines (Google): after "User-agent: *", "Crawl-delay: 1", "User-agent: FooBot" is in the same group; robots-parser starts a new group after any other line',
  FIRST_DELAY: 'the first crawl-delay of the crawler\'s groups is taken; robots-parser takes the last',
  LEADING_DELAY: 'a crawl-delay before any user-agent line applies to crawlers whose groups give none; robots-parser drops it',
  MAX_BYTES: 'the first 512,000 octets of the file are read (RFC 9309 2.5; Google\'s limit; parse\'s maxBytes); robots-parser reads it all',
  RESERVED_LENGTH: 'rfc percent-encodes a reserved octet of a rule before comparing (RFC 9309 2.2.2: a "$" that does not end the pattern is "%24"), and a match\'s length is that of the encoded rule: "/$x" is 5 octets, longer than "/*xz"; robots-parser (and google) count the "$" as one',
} as const;

/** [profile, test, assertion index, our answer, reason]. */
const DIFFERENCES: [Profile, string, number, unknown, keyof typeof REASONS][] = (['google', 'rfc'] as const).flatMap((p): [Profile, string, number, unknown, keyof typeof REASONS][] => [
  [p, 'should handle lone high / low surrogates', 0, false, 'SURROGATE'],
  [p, 'should handle lone high / low surrogates', 1, false, 'SURROGATE'],
  [p, 'should ignore invalid crawl-delay directives', 0, 1.2, 'DELAY_NUMBER'],
  [p, 'should ignore invalid crawl-delay directives', 1, 1, 'DELAY_NUMBER'],
  [p, 'should ignore invalid crawl-delay directives', 2, 10, 'DELAY_NUMBER'],
  [p, 'should ignore invalid crawl-delay directives', 3, 10, 'DELAY_NUMBER'],
]);

/**
 * Where robots-parser and this entry part outside its suite (found by comparing
 * them on random files; the property below checks they agree elsewhere):
 * [reason, body, User-Agent, URL (a verdict) or null (the crawl-delay), robots-parser's answer, google's, rfc's].
 */
const OUTSIDE_SUITE: [keyof typeof REASONS, string, string | undefined, string | null, unknown, unknown, unknown][] = [
  ['OCTETS', 'User-agent: *\nDisallow: /a<b\n', undefined, '/a<b', false, true, false],
  ['OCTETS', 'User-agent: *\nDisallow: /a b\n', undefined, '/a b', false, true, false],
  ['NORMALISED', 'User-agent: *\nDisallow: /~joe\n', undefined, '/%7Ejoe', true, true, false],
  ['EMPTY_GROUP', 'User-agent: *\nDisallow: /\n\nUser-agent: FooBot\n', 'FooBot', '/x', false, true, true],
  ['GROUP_LINES', 'User-agent: *\nCrawl-delay: 1\nUser-agent: FooBot\nDisallow: /\n', 'NoBot', '/x', true, false, false],
  ['FIRST_DELAY', 'User-agent: FooBot\nCrawl-delay: 1\nCrawl-delay: 2\nDisallow: /x\n', 'FooBot', null, 2, 1, 1],
  ['LEADING_DELAY', 'Crawl-delay: 3\nUser-agent: *\nDisallow: /x\n', 'NoBot', null, undefined, 3, 3],
  ['MAX_BYTES', `User-agent: *\n${`# ${'x'.repeat(98)}\n`.repeat(6_000)}Disallow: /\n`, undefined, '/y', false, true, true],
  ['RESERVED_LENGTH', 'User-agent: *\nAllow: /$x\nDisallow: /*xz\n', undefined, '/$xz', false, false, true],
];

const SUITE_TESTS = runSuite(realRobotsParser);

describe('robots-parser’s own suite', () => {
  it('passes whole on the real robots-parser (the harness reads the suite right)', () => {
    expect(SUITE_TESTS.length).toBeGreaterThan(150);
    expect(SUITE_TESTS.filter((a) => !a.pass)).toEqual([]);
  });

  for (const profile of ['google', 'rfc'] as const) {
    it(`on robots-wasm/compat (${profile}): every assertion passes or is a listed difference`, () => {
      const results = runSuite((url: string, contents: string) => robotsParser(url, contents, { profile }));
      expect(results.length).toBe(SUITE_TESTS.length);
      const listed = DIFFERENCES.filter(([p]) => p === profile);
      const failing = results.filter((a) => !a.pass);
      const unexplained = failing.filter((a) => !listed.some(([, t, n]) => t === a.test && n === a.n));
      expect(unexplained.map((a) => [profile, a.test, a.n, a.actual])).toEqual([]);
      for (const [, test, n, ours] of listed) {
        const a = results.find((r) => r.test === test && r.n === n);
        expect(a, `${test} #${n}`).toBeDefined();
        expect(a!.pass, `${test} #${n} is listed as a difference`).toBe(false);
        expect(a!.actual).toEqual(ours);
      }
    });
  }
});

describe('differences outside robots-parser’s suite', () => {
  const ask = (r: ReturnType<typeof robotsParser>, ua: string | undefined, path: string | null) => (path === null ? r.getCrawlDelay(ua) : r.isAllowed(`http://e.com${path}`, ua));
  for (const [reason, body, ua, path, theirs, google, rfc] of OUTSIDE_SUITE) {
    it(`${reason}: ${JSON.stringify(body).slice(0, 80)} ${ua ?? '(no User-Agent)'} ${path ?? 'crawl-delay'}`, () => {
      expect(ask(realRobotsParser('http://e.com/robots.txt', body), ua, path), 'robots-parser').toBe(theirs);
      expect(ask(robotsParser('http://e.com/robots.txt', body), ua, path), 'google').toBe(google);
      expect(ask(robotsParser('http://e.com/robots.txt', body, { profile: 'rfc' }), ua, path), 'rfc').toBe(rfc);
      // A difference is listed where at least one profile parts from robots-parser.
      expect([google, rfc]).not.toEqual([theirs, theirs]);
    });
  }
});

describe('the compat entry', () => {
  const body = 'User-agent: FooBot\nDisallow: /private\nAllow: /private/ok\nCrawl-delay: 5\n\nUser-agent: *\nDisallow: /\nHost: Example.COM\nSitemap: https://example.com/s.xml\n';

  it('has robots-parser’s conventions: default and named export, undefined for other origins, -1 for no rule', () => {
    expect(named).toBe(robotsParser);
    const r = robotsParser('https://example.com/robots.txt', body);
    expect(r.isAllowed('https://example.com/private/x', 'FooBot/2.1')).toBe(false);
    expect(r.isDisallowed('https://example.com/private/x', 'FooBot/2.1')).toBe(true);
    expect(r.isAllowed('https://example.com/private/ok', 'FooBot')).toBe(true);
    expect(r.isAllowed('https://example.com:443/public', 'FooBot')).toBe(true);
    expect(r.isAllowed('https://example.com/public')).toBe(false);
    expect(r.getMatchingLineNumber('https://example.com/private/x', 'FooBot')).toBe(2);
    expect(r.getMatchingLineNumber('https://example.com/public', 'FooBot')).toBe(-1);
    expect(r.getMatchingLineNumber('https://example.com/public')).toBe(7);
    for (const other of ['http://example.com/private/x', 'https://example.com:8443/x', 'https://www.example.com/x', '/private/x', 'not a url', '']) {
      expect(r.isAllowed(other, 'FooBot'), other).toBeUndefined();
      expect(r.isDisallowed(other, 'FooBot'), other).toBe(true);
      expect(r.getMatchingLineNumber(other, 'FooBot'), other).toBe(-1);
    }
    expect(r.getCrawlDelay('FooBot')).toBe(5);
    expect(r.getCrawlDelay()).toBeUndefined();
    const sitemaps = r.getSitemaps();
    expect(sitemaps).toEqual(['https://example.com/s.xml']);
    sitemaps.push('x');
    expect(r.getSitemaps()).toEqual(['https://example.com/s.xml']);
    expect(r.getPreferredHost()).toBe('example.com');
    expect(robotsParser('https://example.com/robots.txt', '').getPreferredHost()).toBeNull();
  });

  it('the profile: google by default (a tie goes to the allow there too, the * wildcard counts as one octet)', () => {
    const tie = 'User-agent: *\nDisallow: /page\nAllow: /pag*\n';
    // Google: "/pag*" is 5 octets, "/page" 5: the allow wins the tie.
    expect(robotsParser('http://e.com/robots.txt', tie).isAllowed('http://e.com/page')).toBe(true);
    expect(realRobotsParser('http://e.com/robots.txt', tie).isAllowed('http://e.com/page')).toBe(true);
    // rfc normalises: "%7E" is "~".
    const tilde = 'User-agent: *\nDisallow: /~joe\n';
    expect(robotsParser('http://e.com/robots.txt', tilde, { profile: 'rfc' }).isAllowed('http://e.com/%7Ejoe')).toBe(false);
    expect(robotsParser('http://e.com/robots.txt', tilde).isAllowed('http://e.com/%7Ejoe')).toBe(true);
    expect(() => robotsParser('http://e.com/robots.txt', '', { profile: 'bing' as Profile })).toThrow(TypeError);
  });

  it('two crawlers of different names never share a group: "Bot1" is not "Bot2" (both were cut to "Bot")', () => {
    // The issue's case: Crawlee with { userAgent: 'Bot1' } fetched what the `*` group disallows.
    const body = 'User-agent: Bot2\nAllow: /\n\nUser-agent: *\nDisallow: /\n\nUser-agent: Bot1Extra\nAllow: /extra\n';
    for (const profile of ['google', 'rfc'] as const) {
      const r = robotsParser('http://e.com/robots.txt', body, { profile });
      expect(r.isAllowed('http://e.com/x', 'Bot1'), profile).toBe(false);
      expect(r.getMatchingLineNumber('http://e.com/x', 'Bot1'), profile).toBe(5);
      expect(r.isAllowed('http://e.com/x', 'Bot2/3.0'), profile).toBe(true);
      expect(r.isAllowed('http://e.com/x', 'Bot'), profile).toBe(false);
      expect(r.isAllowed('http://e.com/extra', 'Bot1Extra'), profile).toBe(true);
      expect(r.isAllowed('http://e.com/extra', 'Bot1'), profile).toBe(false);
    }
    const real = realRobotsParser('http://e.com/robots.txt', body);
    expect([real.isAllowed('http://e.com/x', 'Bot1'), real.isAllowed('http://e.com/x', 'Bot2/3.0'), real.isAllowed('http://e.com/x', 'Bot')]).toEqual([false, true, false]);
    // Crawl-delays by the same names.
    const delays = 'User-agent: Bot2\nCrawl-delay: 9\nDisallow: /a\n\nUser-agent: *\nCrawl-delay: 1\nDisallow: /b\n';
    expect(robotsParser('http://e.com/robots.txt', delays).getCrawlDelay('Bot1')).toBe(1);
    expect(robotsParser('http://e.com/robots.txt', delays).getCrawlDelay('Bot2')).toBe(9);
  });

  it('a User-Agent meets the group named by its product token, in both profiles (as robots-parser, for names that are not tokens)', () => {
    // Google reads "User-agent: MJ12bot" as "MJ": the crawler's "MJ12bot/v1.4.8" must be read the same way, or
    // under google it would meet no group and be allowed where robots-parser (and the site) disallow it.
    const body = 'User-agent: MJ12bot\nDisallow: /\n\nUser-agent: Sogou web spider\nDisallow: /s\n';
    for (const [ua, path] of [['MJ12bot/v1.4.8 (http://mj12bot.com/)', '/x'], ['Sogou web spider/4.0', '/s']]) {
      expect(realRobotsParser('http://e.com/robots.txt', body).isAllowed(`http://e.com${path}`, ua), ua).toBe(false);
      for (const profile of ['google', 'rfc'] as const) {
        expect(robotsParser('http://e.com/robots.txt', body, { profile }).isAllowed(`http://e.com${path}`, ua), `${profile} ${ua}`).toBe(false);
      }
    }
  });

  it('hostile arguments: anything robots-parser accepts gives an answer, never an exception', () => {
    const junk: unknown[] = [undefined, null, 0, 42, {}, [], 'x'.repeat(100_000), '\u0000', '\uD800', '*', 'Googlebot/2.1 (+http://www.google.com/bot.html)', Symbol.iterator.toString()];
    for (const contents of junk) {
      const r = robotsParser(junk[10] as string, contents as string);
      for (const url of junk) {
        for (const ua of junk) {
          expect(() => [r.isAllowed(url as string, ua as string), r.getMatchingLineNumber(url as string, ua as string), r.getCrawlDelay(ua as string)]).not.toThrow();
        }
      }
    }
  });
});

describe('property: the compat answers are the engine’s, the origin checks robots-parser’s', () => {
  const segment = fc.constantFrom('a', 'b', 'x', 'page', '%41', '%2F', 'é', '$', '*', '?q=1', ';p', '.html', '~');
  const pattern = fc.array(segment, { maxLength: 4 }).map((s) => '/' + s.join(''));
  const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern, fc.boolean()).map(([k, p, end]) => `${k}: ${p}${end ? '$' : ''}`);
  const file = fc.tuple(fc.constantFrom('*', 'FooBot', 'BarBot', 'Bot2', 'Bot1', 'Bot', 'MJ12bot', 'Foo Bar', 'foobot/2'), fc.array(rule, { maxLength: 6 }), fc.array(rule, { maxLength: 4 }))
    .map(([agent, rules, more]) => `User-agent: ${agent}\n${rules.join('\n')}\n\nUser-agent: *\n${more.join('\n')}\n`);
  const origin = fc.constantFrom('http://e.com', 'https://e.com', 'http://e.com:8080', 'http://E.com:80', 'http://other.com', '');
  const ua = fc.constantFrom(undefined, 'FooBot', 'foobot/1.0', 'BarBot', 'NoBot', '', 'Bot1', 'Bot2', 'Bot', 'MJ12bot/1.0', 'Foo Bar', '12bot', '*', 'Mozilla/5.0 (compatible; FooBot/1)');

  for (const profile of ['google', 'rfc'] as const) {
    it(profile, () => {
      fc.assert(
        fc.property(file, origin, pattern, ua, (body, o, path, agent) => {
          const compat = robotsParser('http://e.com/robots.txt', body, { profile });
          const real = realRobotsParser('http://e.com/robots.txt', body);
          const url = o + path;
          const verdict = compat.isAllowed(url, agent);
          // Of the robots.txt's origin exactly when robots-parser says so.
          expect(verdict === undefined).toBe(real.isAllowed(url, agent) === undefined);
          if (verdict === undefined) return;
          const p = new URL(url, 'http://e.com');
          const checked = (p.pathname + p.search).replace(/%[0-9a-fA-F]{2}/g, (e) => e.toUpperCase());
          // robots-parser's reading of names, on both sides: the lines that name the crawler so become
          // "User-agent: Chosen", every other name "Other" (line numbers and groups stay); no name: the * groups.
          const name = (agent ?? '').toLowerCase().split('/')[0].trim();
          const renamed = body.replace(/^User-agent: (.*)$/gm, (line, value: string) =>
            value === '*' ? line : `User-agent: ${name !== '' && value.toLowerCase().split('/')[0].trim() === name ? 'Chosen' : 'Other'}`);
          const robots = parse(renamed, { profile });
          expect(verdict).toBe(robots.isAllowed(checked, 'Chosen'));
          const line = robots.explain(checked, 'Chosen').line;
          expect(compat.getMatchingLineNumber(url, agent)).toBe(line === 0 ? -1 : line);
        }),
        { numRuns: 1500 },
      );
    });
  }
});

describe('property: where robots-parser\'s rules and the profile\'s coincide, the compat entry gives robots-parser\'s answers', () => {
  // Outside OUTSIDE_SUITE's cases: rules of ASCII letters, wildcards, $, a query, escapes of
  // reserved and of non-ASCII octets, non-ASCII letters; groups that have rules; product-token
  // names; one crawl-delay, after its group's rules; a sitemap and a host line. Under rfc, a
  // "$" only ends a rule (RESERVED_LENGTH); the URLs' paths have them anywhere.
  const segments = ['a', 'b', 'x', 'page', '.html', '$', '*', '?q=1', ';p', '-', '%2F', '%2f', '%C3%A9', 'é'];
  const patternOf = (kept: string[]) => fc.array(fc.constantFrom(...kept), { maxLength: 4 }).map((s) => '/' + s.join(''));
  const pattern = patternOf(segments);
  const rulePattern = { google: pattern, rfc: patternOf(segments.filter((g) => g !== '$')) };
  const ruleOf = (profile: Profile) => fc.tuple(fc.constantFrom('Allow', 'Disallow', 'allow', 'DISALLOW'), rulePattern[profile], fc.boolean()).map(([k, p, end]) => `${k}: ${p}${end ? '$' : ''}`);
  const groupOf = (profile: Profile) => fc.tuple(fc.array(fc.constantFrom('*', 'FooBot', 'foobot', 'BarBot', 'Bot1', 'Bot2', 'MJ12bot', 'Sogou web spider'), { minLength: 1, maxLength: 2 }), fc.array(ruleOf(profile), { minLength: 1, maxLength: 5 }))
    .map(([agents, rules]) => [...agents.map((a) => `User-agent: ${a}`), ...rules]);
  const fileOf = (profile: Profile) => fc.tuple(fc.array(groupOf(profile), { maxLength: 3 }), fc.nat(3), fc.constantFrom('1', '2.5', '0'), fc.boolean())
    .map(([groups, at, delay, extras]) => {
      // (A new array: fast-check hands the same generated values to the map again when it shrinks,
      // and writing into them gave a group a second crawl-delay, where robots-parser takes the last.)
      const withDelay = groups.map((g, i) => (i === at ? [...g, `Crawl-delay: ${delay}`] : g));
      const lines = withDelay.map((g) => g.join('\n'));
      if (extras) lines.push('Sitemap: https://e.com/s.xml\nHost: E.com');
      return lines.join('\n\n') + '\n';
    });
  const ua = fc.constantFrom(undefined, 'FooBot', 'foobot/1.0', 'BarBot', 'NoBot', 'Mozilla/5.0 (compatible; FooBot/1.0)', 'Bot1', 'Bot2/2.0', 'Bot', 'MJ12bot/v1.4.8', 'Sogou web spider/4.0', 'Sogou');

  for (const profile of ['google', 'rfc'] as const) {
    it(profile, () => {
      fc.assert(
        fc.property(fileOf(profile), pattern, ua, (body, path, agent) => {
          const url = `http://e.com${path}`;
          const compat = robotsParser('http://e.com/robots.txt', body, { profile });
          const real = realRobotsParser('http://e.com/robots.txt', body);
          expect([compat.isAllowed(url, agent), compat.isDisallowed(url, agent), compat.getMatchingLineNumber(url, agent), compat.getCrawlDelay(agent)])
            .toEqual([real.isAllowed(url, agent), real.isDisallowed(url, agent), real.getMatchingLineNumber(url, agent), real.getCrawlDelay(agent)]);
          expect([compat.getSitemaps(), compat.getPreferredHost()]).toEqual([real.getSitemaps(), real.getPreferredHost()]);
        }),
        { numRuns: 1500 },
      );
    });
  }
});

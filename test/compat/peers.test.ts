// Peers' own test suites, transcribed (test/compat/peer-cases/: robots-parser,
// CPython's urllib.robotparser, protego), run against both profiles. Every
// assertion either agrees with us or is listed below as a documented
// difference, with the reason; a listed case is asserted too (our answer is the
// peer's opposite), so any change shows. Names: under `google` a peer's agent
// string is given as it is (Google compares the crawler's name whole); under
// `rfc` it goes through productToken() (the documented way from a User-Agent
// string to a product token), and protego's '*' ("any crawler") is a crawler
// no group names. A name with no product token at all ("1bot") cannot be
// asked under `rfc`: those cases run under `google` only.
import { describe, expect, it } from 'vitest';
import { parse, productToken, type Profile } from '../../src/index.js';
import { cpythonCases, cpythonDelays, cpythonSitemaps } from './peer-cases/cpython.js';
import { protegoCases } from './peer-cases/protego.js';
import { robotsParserCases, robotsParserDelays, robotsParserSitemaps } from './peer-cases/robots-parser.js';
import type { PeerCase } from './peer-cases/types.js';

/** Why a peer's verdict is not ours. */
const REASONS = {
  TIE: 'an allow and a disallow of equal length: the allow wins (RFC 9309 2.2.2; Google); robots-parser keeps the disallow',
  LONGEST: 'the longest match wins, wildcards counted as written: "Allow: /fish/index.php" (15 octets) over "Disallow: /fish*.php" (10) (RFC 9309 2.2.2; Google)',
  FIRST_GROUP: 'CPython obeys only the first "User-agent: *" group; RFC 9309 2.2.1 and Google merge every group that names the crawler',
  SUBSTRING_AGENT: 'CPython takes the first group whose name is a substring of the crawler\'s ("googlebot" in "googlebot-mobile"); a group must name the product token exactly (RFC 9309 2.2.1; Google)',
  WHOLE_NAME: 'under google the crawler\'s name is compared whole, as Google\'s library does: "FigTree Robot libwww-perl/5.04" names no group; productToken() gives "FigTree" (the rfc run agrees with CPython)',
  DIGITS: 'a user-agent line\'s name is its leading letters, "-" and "_" (RFC 9309 2.2.1 product token; Google\'s ExtractUserAgent): Rule1TestBot ... Rule7TestBot all read as "Rule", so under google the crawler "Rule1TestBot" names none of them; under rfc it has no product token (productToken gives "", not "Rule", which would name all seven: two crawlers would share a group) and cannot be asked',
  NON_ASCII: 'non-ASCII letters are not product-token characters (RFC 9309 2.2.1): "UnicödeBöt" reads as "Unic", "Jävla-Foobot" as "J", "Львів-bot" has none',
  NOT_A_TOKEN: 'a name that starts with a digit ("2bot") has no product token: under google it names no group (and this file has no "*" group); under rfc it cannot be asked (productToken gives "")',
  OCTETS: 'google compares octets as they are, after escaping only the rule\'s non-ASCII octets and upper-casing its escapes (Google\'s MaybeEscapePattern): "%3c" in a URL is not "<" nor "%3C", "~" is not "%7E", a raw "ä" is not "%C3%A4" (the caller percent-encodes URLs); the rfc run normalises both sides and agrees with the peer',
} as const;

/** [profile, source, test, agent, url, reason]: every case where our verdict is not the peer's. */
const DIFFERENCES: [Profile, PeerCase['source'], string, string, string, keyof typeof REASONS][] = [
  ["google", "robots-parser", "should parse the allow directive", "AnyBot", "http://www.example.com/test.html", "TIE"],
  ["google", "robots-parser", "should have the correct order presidence for allow and disallow", "AnyBot", "http://www.example.com/fish/index.php", "LONGEST"],
  ["google", "cpython", "CrawlDelayAndRequestRateTest", "figtree", "/a%3cd.html", "OCTETS"],
  ["google", "cpython", "CrawlDelayAndRequestRateTest", "figtree", "/a%2fb.html", "OCTETS"],
  ["google", "cpython", "CrawlDelayAndRequestRateTest", "figtree", "/~joe/index.html", "OCTETS"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/tmp", "WHOLE_NAME"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/tmp.html", "WHOLE_NAME"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/tmp/a.html", "WHOLE_NAME"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/a%3cd.html", "WHOLE_NAME"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/a%3Cd.html", "WHOLE_NAME"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/a%2fb.html", "WHOLE_NAME"],
  ["google", "cpython", "DifferentAgentTest", "FigTree Robot libwww-perl/5.04", "/~joe/index.html", "WHOLE_NAME"],
  ["google", "cpython", "InvalidRequestRateTest", "test_robotparser", "/a%3cd.html", "OCTETS"],
  ["google", "cpython", "UserAgentGoogleMobileTest", "Googlebot-Mobile", "/something.jpg", "SUBSTRING_AGENT"],
  ["google", "cpython", "UseFirstUserAgentWildcardTest", "test_robotparser", "/another/path", "FIRST_GROUP"],
  ["google", "protego", "test_escaped_url (Allow: /a%3cd.html)", "*", "https://www.site.local/a<d.html", "OCTETS"],
  ["google", "protego", "test_escaped_url (Allow: /a%3cd.html)", "*", "https://www.site.local/a%3cd.html", "OCTETS"],
  ["google", "protego", "test_escaped_url (Allow: /a%3c*)", "*", "https://www.site.local/a<d.html", "OCTETS"],
  ["google", "protego", "test_escaped_url (Allow: /a%3c*)", "*", "https://www.site.local/a%3cd.html", "OCTETS"],
  ["google", "protego", "test_unescaped_url (Allow: /a<d.html)", "*", "https://www.site.local/a%3cd.html", "OCTETS"],
  ["google", "protego", "test_unescaped_url (Allow: /a<*)", "*", "https://www.site.local/a%3cd.html", "OCTETS"],
  ["google", "protego", "test_allowed_wildcards", "Rule1TestBot", "/foo.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule1TestBot", "/food", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule1TestBot", "/foo/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule2TestBot", "/foo/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule2TestBot", "/food/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule2TestBot", "/foo/a/b/c/x/y/z/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule3TestBot", "/foo.htm", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule3TestBot", "/foo.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule3TestBot", "/foom", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule3TestBot", "/moo", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule3TestBot", "/foo/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule4TestBot", "/fo.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule4TestBot", "/foo.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule4TestBot", "/foo", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule4TestBot", "/foo/bar.txt", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule5TestBot", "/foo/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule5TestBot", "/food/rebar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule5TestBot", "/foo/a/b/c/rebar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule5TestBot", "/foo/a/b/c/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule6TestBot", "/foo/", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule6TestBot", "/foo/bar.html", "DIGITS"],
  ["google", "protego", "test_allowed_wildcards", "Rule6TestBot", "/fooey", "DIGITS"],
  ["google", "protego", "test_unicode_url_and_useragent", "UnicödeBöt", "https://site.local/admin/", "NON_ASCII"],
  ["google", "protego", "test_unicode_url_and_useragent", "*", "https://site.local/wiki/Käyttäjä:", "OCTETS"],
  ["google", "protego", "test_unicode_url_and_useragent", "*", "https://site.local/wiki/Keskustelu_käyttäjästä:", "OCTETS"],
  ["google", "protego", "test_unicode_url_and_useragent", "UnicödeBöt", "https://site.local/some/randome/page.html", "NON_ASCII"],
  ["google", "protego", "test_unicode_url_and_useragent", "jävla-foobot", "/foo/bar.html", "NON_ASCII"],
  ["google", "protego", "test_unicode_url_and_useragent", "Mozilla/5.0 (compatible; Львів-bot/1.1)", "/totalitarianism/foo.htm", "NON_ASCII"],
  ["google", "protego", "test_1996rfc_examples", "2bot", "/tmp", "NOT_A_TOKEN"],
  ["google", "protego", "test_1996rfc_examples", "5bot", "/a/b.html", "NOT_A_TOKEN"],
  ["google", "protego", "test_1996rfc_examples", "6bot", "/a%2fb.html", "NOT_A_TOKEN"],
  ["rfc", "robots-parser", "should parse the allow directive", "AnyBot", "http://www.example.com/test.html", "TIE"],
  ["rfc", "robots-parser", "should have the correct order presidence for allow and disallow", "AnyBot", "http://www.example.com/fish/index.php", "LONGEST"],
  ["rfc", "cpython", "UserAgentGoogleMobileTest", "Googlebot-Mobile", "/something.jpg", "SUBSTRING_AGENT"],
  ["rfc", "cpython", "UseFirstUserAgentWildcardTest", "test_robotparser", "/another/path", "FIRST_GROUP"],
  ["rfc", "protego", "test_unicode_url_and_useragent", "jävla-fanbot", "/foo/bar.html", "NON_ASCII"],
  ["rfc", "protego", "test_unicode_url_and_useragent", "Mozilla/5.0 (compatible; Львів-bot/1.1)", "/totalitarianism/foo.htm", "NON_ASCII"],
];

const key = (profile: string, c: PeerCase) => JSON.stringify([profile, c.source, c.test, c.agent, c.url]);
const listed = new Map(DIFFERENCES.map(([p, s, t, a, u, r]) => [JSON.stringify([p, s, t, a, u]), r]));

/** The agent as each profile is given it (see the top). */
function agentFor(profile: Profile, agent: string): string {
  if (profile === 'google') return agent;
  return agent === '*' ? 'AnyBot' : productToken(agent);
}

const SUITES: [string, PeerCase[]][] = [['robots-parser (test/Robots.js)', robotsParserCases], ['CPython (Lib/test/test_robotparser.py)', cpythonCases], ['protego (tests/test_protego.py)', protegoCases]];

describe('peers\' test suites', () => {
  for (const [name, cases] of SUITES) {
    for (const profile of ['google', 'rfc'] as const) {
      it(`${name}, profile ${profile}: each case agrees or is a documented difference`, () => {
        let agreed = 0;
        for (const c of cases) {
          const agent = agentFor(profile, c.agent);
          if (agent === '') continue; // no product token: google only (NOT_A_TOKEN)
          const ours = parse(c.robots, { profile }).isAllowed(c.url, agent);
          const reason = listed.get(key(profile, c));
          expect(ours, `${c.test}: ${JSON.stringify(c.agent)} ${c.url}${reason ? ` (listed: ${reason})` : ''}`).toBe(reason === undefined ? c.allowed : !c.allowed);
          if (reason === undefined) agreed++;
        }
        expect(agreed).toBeGreaterThan(cases.length / 2);
      });
    }
  }

  it('the list of differences names only cases that exist, each once', () => {
    const all = new Set(SUITES.flatMap(([, cases]) => cases).flatMap((c) => ['google', 'rfc'].map((p) => key(p, c))));
    for (const k of listed.keys()) expect(all.has(k), k).toBe(true);
    expect(listed.size).toBe(DIFFERENCES.length);
  });

  it('crawl-delays: robots-parser\'s and CPython\'s, names through productToken (rfc) or as given when they are tokens (google)', () => {
    // A value is its leading number ("10<BR>" in HTML served as text is 10);
    // robots-parser rejects a value that is not wholly a number.
    // ('crawl-delay: 1.2.1', '1.a0', then c and d share '10a'.)
    const leadingNumber: Record<string, number> = { a: 1.2, b: 1, c: 10, d: 10 };
    for (const [test, robots, agent, delay] of [...robotsParserDelays, ...cpythonDelays]) {
      const ours = test === 'should ignore invalid crawl-delay directives' ? leadingNumber[agent] : delay;
      expect(parse(robots, { profile: 'rfc' }).crawlDelay(productToken(agent)), `${test} ${agent}`).toBe(ours);
      if (/^[A-Za-z_-]+$/.test(agent)) expect(parse(robots, { profile: 'google' }).crawlDelay(agent), `${test} ${agent}`).toBe(ours);
    }
  });

  it('sitemaps: robots-parser\'s and CPython\'s, in order', () => {
    for (const { test, robots, sitemaps } of [robotsParserSitemaps, cpythonSitemaps]) {
      for (const profile of ['google', 'rfc'] as const) expect(parse(robots, { profile }).sitemaps, test).toEqual(sitemaps);
    }
  });
});

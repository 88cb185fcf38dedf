// Cases of robots-parser's own test suite (samclarke/robots-parser,
// test/Robots.js, at 0d3116d), transcribed as data: each its body, agent, URL
// and the verdict the suite asserts. Its default agent is none (undefined: it
// reads the `*` group); here that is a crawler no group names.
import type { PeerCase } from './types.js';

const ANY = 'AnyBot';
const cases: PeerCase[] = [];
const add = (test: string, robots: string[], agent: string, allowed: string[], disallowed: string[]) => {
  const body = robots.join('\n');
  for (const url of allowed) cases.push({ source: 'robots-parser', test, robots: body, agent, url, allowed: true });
  for (const url of disallowed) cases.push({ source: 'robots-parser', test, robots: body, agent, url, allowed: false });
};
const W = 'http://www.example.com';

add('should parse the disallow directive', ['User-agent: *', 'Disallow: /fish/', 'Disallow: /test.html'], ANY,
  [`${W}/fish`, `${W}/Test.html`], [`${W}/fish/index.php`, `${W}/fish/`, `${W}/test.html`]);
add('should parse the allow directive', ['User-agent: *', 'Disallow: /fish/', 'Disallow: /test.html', 'Allow: /fish/test.html', 'Allow: /test.html'], ANY,
  [`${W}/fish`, `${W}/fish/test.html`, `${W}/Test.html`], [`${W}/fish/index.php`, `${W}/fish/`, `${W}/test.html`]);
add('should parse patterns', ['User-agent: *', 'Disallow: /fish*.php', 'Disallow: /*.dext$'], ANY,
  [`${W}/Fish.PHP`, `${W}/Fish.dext1`], [`${W}/fish.php`, `${W}/fishheads/catfish.php?parameters`, `${W}/AnYthInG.dext`, `${W}/Fish.dext.dext`]);
add('should have the correct order presidence for allow and disallow', ['User-agent: *', 'Disallow: /fish*.php', 'Allow: /fish/index.php', 'Disallow: /test', 'Allow: /test/'], ANY,
  [`${W}/test/index.html`, `${W}/test/`], [`${W}/fish.php`, `${W}/fishheads/catfish.php?parameters`, `${W}/fish/index.php`, `${W}/test`]);
add('should ignore rules that are not in a group', ['Disallow: /secret.html', 'Disallow: /test'], ANY,
  [`${W}/secret.html`, `${W}/test/index.html`, `${W}/test/`], []);
add('should ignore comments', ['#', '# This is a comment', '#', 'User-agent: *', '# This is a comment', 'Disallow: /fish/', '# Disallow: fish', 'Disallow: /test.html'], ANY,
  [`${W}/fish`, `${W}/Test.html`], [`${W}/fish/index.php`, `${W}/fish/`, `${W}/test.html`]);
add('should ignore invalid lines', ['invalid line', 'User-agent: *', 'Disallow: /fish/', ':::::another invalid line:::::', 'Disallow: /test.html', 'Unknown: tule'], ANY,
  [`${W}/fish`, `${W}/Test.html`], [`${W}/fish/index.php`, `${W}/fish/`, `${W}/test.html`]);
add('should ignore empty user-agent lines', ['User-agent:', 'Disallow: /fish/', 'Disallow: /test.html'], ANY,
  [`${W}/fish`, `${W}/Test.html`, `${W}/fish/index.php`, `${W}/fish/`, `${W}/test.html`], []);
add('should support groups with multiple user agents (case insensitive)', ['User-agent: agenta', 'User-agent: agentb', 'Disallow: /fish'], 'agenta',
  [], [`${W}/fish`]);
add('should handle Unicode and punycode URLs', ['User-agent: *', 'Disallow: /secret.html', 'Disallow: /test'], ANY,
  ['http://www.münich.com/index.html', 'http://www.xn--mnich-kva.com/index.html'], ['http://www.münich.com/secret.html', 'http://www.xn--mnich-kva.com/secret.html']);
add('should allow all if empty robots.txt', [''], ANY, [`${W}/secret.html`, `${W}/test/index.html`, `${W}/test/`], []);

export const robotsParserCases = cases;

/** Its crawl-delay assertions: [test, body, agent, delay in seconds or undefined]. */
export const robotsParserDelays: [string, string, string, number | undefined][] = [];
const delays = (test: string, robots: string[], expect: [string, number | undefined][]) => {
  for (const [agent, delay] of expect) robotsParserDelays.push([test, robots.join('\n'), agent, delay]);
};
delays('should parse the crawl-delay directive', ['user-agent: a', 'crawl-delay: 1', 'user-agent: b', 'disallow: /d', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10'],
  [['a', 1], ['b', undefined], ['c', 10], ['d', 10]]);
delays('should ignore invalid crawl-delay directives', ['user-agent: a', 'crawl-delay: 1.2.1', 'user-agent: b', 'crawl-delay: 1.a0', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10a'],
  [['a', undefined], ['b', undefined], ['c', undefined], ['d', undefined]]);
delays('should fallback to * when a UA has no rules of its own', ['user-agent: *', 'crawl-delay: 1', 'user-agent: b', 'crawl-delay: 12', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10'],
  [['should-fall-back', 1], ['d', 10], ['dd', 1]]);
delays('should not fallback to * when a UA has rules', ['user-agent: *', 'crawl-delay: 1', 'user-agent: b', 'disallow:'], [['b', undefined]]);
delays('should ignore version numbers in the UA string', ['user-agent: *', 'crawl-delay: 1', 'user-agent: b', 'crawl-delay: 12', 'user-agent: c', 'user-agent: d', 'crawl-delay: 10'],
  [['should-fall-back/1.0.0', 1], ['d/12', 10], ['dd / 0-32-3', 1], ['b / 1.0', 12]]);

/** Its sitemap assertion. */
export const robotsParserSitemaps = {
  test: 'should parse the sitemap directive',
  robots: ['user-agent: a', 'crawl-delay: 1', 'sitemap: http://example.com/test.xml', 'user-agent: b', 'disallow: /d', 'sitemap: /sitemap.xml', 'sitemap:     http://example.com/test/sitemap.xml     '].join('\n'),
  sitemaps: ['http://example.com/test.xml', '/sitemap.xml', 'http://example.com/test/sitemap.xml'],
};

// Cases of CPython's urllib.robotparser test suite (python/cpython,
// Lib/test/test_robotparser.py, at 00b918a), transcribed as data. Each class
// gives a body, an agent (default 'test_robotparser') and good and bad URLs,
// some as (agent, url). The network and HTTP-server tests are left out.
import type { PeerCase } from './types.js';

const cases: PeerCase[] = [];
type Url = string | [string, string];
const add = (test: string, robots: string, good: Url[], bad: Url[], agent = 'test_robotparser') => {
  for (const [list, allowed] of [[good, true], [bad, false]] as const) {
    for (const u of list) {
      const [a, url] = typeof u === 'string' ? [agent, u] : u;
      cases.push({ source: 'cpython', test, robots, agent: a, url, allowed });
    }
  }
};

add('UserAgentWildcardTest', 'User-agent: *\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\nDisallow: /tmp/ # these will soon disappear\nDisallow: /foo.html\n    ',
  ['/', '/test.html'], ['/cyberworld/map/index.html', '/tmp/xxx', '/foo.html']);
add('CrawlDelayAndCustomAgentTest', '# robots.txt for http://www.example.com/\n\nUser-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n# Cybermapper knows where to go.\nUser-agent: cybermapper\nDisallow:\n    ',
  ['/', '/test.html', ['cybermapper', '/cyberworld/map/index.html']], ['/cyberworld/map/index.html']);
add('SitemapTest', '# robots.txt for http://www.example.com/\n\nUser-agent: *\nSitemap: http://www.gstatic.com/s2/sitemaps/profiles-sitemap.xml\nSitemap: http://www.google.com/hostednews/sitemap_index.xml\nRequest-rate: 3/15\nDisallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n    ',
  ['/', '/test.html'], ['/cyberworld/map/index.html']);
add('RejectAllRobotsTest', '# go away\nUser-agent: *\nDisallow: /\n    ', [], ['/cyberworld/map/index.html', '/', '/tmp/']);
const figtree = 'User-agent: figtree\nCrawl-delay: 3\nRequest-rate: 9/30\nDisallow: /tmp\nDisallow: /a%3cd.html\nDisallow: /a%2fb.html\nDisallow: /%7ejoe/index.html\n    ';
const figtreeBad = ['/tmp', '/tmp.html', '/tmp/a.html', '/a%3cd.html', '/a%3Cd.html', '/a%2fb.html', '/~joe/index.html'];
add('CrawlDelayAndRequestRateTest', figtree, [['figtree', '/foo.html']], figtreeBad, 'figtree');
add('DifferentAgentTest', figtree, [['figtree', '/foo.html']], figtreeBad, 'FigTree Robot libwww-perl/5.04');
add('InvalidRequestRateTest', 'User-agent: *\nDisallow: /tmp/\nDisallow: /a%3Cd.html\nDisallow: /a/b.html\nDisallow: /%7ejoe/index.html\nCrawl-delay: 3\nRequest-rate: 9/banana\n    ',
  ['/tmp'], ['/tmp/', '/tmp/a.html', '/a%3cd.html', '/a%3Cd.html', '/a/b.html', '/%7Ejoe/index.html']);
add('InvalidCrawlDelayTest', 'User-Agent: *\nDisallow: /.\nCrawl-delay: pears\n    ', ['/foo.html'], []);
add('AnotherInvalidRequestRateTest', 'User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\nRequest-rate: whale/banana\n    ',
  ['/folder1/myfile.html'], ['/folder1/anotherfile.html'], 'Googlebot');
const ordering = 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Mobile\nAllow: /\n    ';
add('UserAgentOrderingTest', ordering, [], ['/something.jpg'], 'Googlebot');
add('UserAgentGoogleMobileTest', ordering, [], ['/something.jpg'], 'Googlebot-Mobile');
add('GoogleURLOrderingTest', 'User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\n    ',
  ['/folder1/myfile.html'], ['/folder1/anotherfile.html'], 'googlebot');
add('DisallowQueryStringTest', 'User-agent: *\nDisallow: /some/path?name=value\n    ', ['/some/path'], ['/some/path?name=value']);
add('UseFirstUserAgentWildcardTest', 'User-agent: *\nDisallow: /some/path\n\nUser-agent: *\nDisallow: /another/path\n    ', ['/another/path'], ['/some/path']);
add('EmptyQueryStringTest', 'User-agent: *\nAllow: /some/path?\nDisallow: /another/path?\n    ', ['/some/path?'], ['/another/path?']);
add('DefaultEntryTest', 'User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/\n    ', ['/', '/test.html'], ['/cyberworld/map/index.html']);

export const cpythonCases = cases;

/** Its crawl-delay assertions: [test, body, agent, seconds]. */
export const cpythonDelays: [string, string, string, number | undefined][] = [
  ['CrawlDelayAndRequestRateTest', figtree, 'figtree', 3],
  ['DifferentAgentTest', figtree, 'FigTree Robot libwww-perl/5.04', 3],
  ['DefaultEntryTest', 'User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/\n    ', 'test_robotparser', 1],
];

export const cpythonSitemaps = {
  test: 'SitemapTest',
  robots: cases.find((c) => c.test === 'SitemapTest')!.robots,
  sitemaps: ['http://www.gstatic.com/s2/sitemaps/profiles-sitemap.xml', 'http://www.google.com/hostednews/sitemap_index.xml'],
};

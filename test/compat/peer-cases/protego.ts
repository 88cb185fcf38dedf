// Cases of protego's test suite (scrapy/protego, tests/test_protego.py, at
// 01966ea), transcribed as data: its verdict assertions (can_fetch) from
// test_allowed through test_1996rfc_examples. protego is given the agent
// '*' for "any crawler", and full User-Agent strings.
import type { PeerCase } from './types.js';

const cases: PeerCase[] = [];
/** [url, agent, allowed] */
type Check = [string, string, boolean];
const add = (test: string, robots: string, checks: Check[]) => {
  for (const [url, agent, allowed] of checks) cases.push({ source: 'protego', test, robots, agent, url, allowed });
};
const S = 'https://www.site.local';

add('test_allowed', 'User-agent: * \nDisallow: /disallowed \nAllow: /allowed \nCrawl-delay: 10', [[`${S}/allowed`, '*', true], [`${S}/disallowed`, '*', false]]);
add('test_allowed', 'User-agent: * \nDisallow: /d \nCrawl-delay: 10', [[`${S}/abc/d`, '*', true], [`${S}/disallowed`, '*', false]]);
add('test_malformed_disallow', 'User-agent: * \nDisallow: /one \nDissallow: /two \nDissalow: /three \nDisalow: /four \nDiasllow: /five \nDisallaw: /six \n',
  ['one', 'two', 'three', 'four', 'five', 'six'].map((p): Check => [`${S}/${p}`, '*', false]));
add('test_length_based_precedence', 'User-agent: * \nDisallow: / \nAllow: /page', [[`${S}/page`, '*', true], [`${S}/elsewhere`, '*', false]]);
const F = 'http://foo.bar';
const E = 'http://example.com';
for (const [robots, checks] of [
  ['user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n', [[`${F}/x/page.html`, 'FooBot', false]]],
  ['user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n', [[`${F}/x/page.html`, 'FooBot', true], [`${F}/x/`, 'FooBot', false]]],
  ['user-agent: FooBot\ndisallow: \nallow: \n', [[`${F}/x/page.html`, 'FooBot', true]]],
  ['user-agent: FooBot\ndisallow: /\nallow: /\n', [[`${F}/x/page.html`, 'FooBot', true]]],
  ['user-agent: FooBot\ndisallow: /x\nallow: /x/\n', [[`${F}/x/`, 'FooBot', true], [`${F}/x`, 'FooBot', false]]],
  ['user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n', [[`${F}/x/page.html`, 'FooBot', true]]],
  ['user-agent: FooBot\nallow: /page\ndisallow: /*.html\n', [[`${F}/page`, 'FooBot', true], [`${F}/page.html`, 'FooBot', false]]],
  ['user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n', [[`${F}/x/page.html`, 'FooBot', true], [`${F}/x/y.html`, 'FooBot', false]]],
  ['User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n', [[`${F}/x/page`, 'FooBot', true], [`${F}/y/page`, 'FooBot', false]]],
  ['user-agent: FooBot\nallow: /p\ndisallow: /\n', [[`${E}/page`, 'FooBot', true]]],
  ['user-agent: FooBot\nallow: /folder\ndisallow: /folder\n', [[`${E}/folder/page`, 'FooBot', true]]],
  ['user-agent: FooBot\ndisallow: /folder\nallow: /folder\n', [[`${E}/folder/page`, 'FooBot', true]]],
  ['user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', [[`${E}/page.htm`, 'FooBot', false]]],
  ['user-agent: FooBot\nallow: /$\ndisallow: /\n', [[`${E}/`, 'FooBot', true], [`${E}/page.html`, 'FooBot', false]]],
] as [string, Check[]][]) add('test_length_based_precedence', robots, checks);
for (const allow of ['/a%3cd.html', '/a%3c*', '/a<d.html', '/a<*']) {
  add(`${allow.includes('%') ? 'test_escaped_url' : 'test_unescaped_url'} (Allow: ${allow})`, `User-agent: * \nDisallow: / \nAllow: ${allow}`, [[`${S}/a<d.html`, '*', true], [`${S}/a%3cd.html`, '*', true]]);
}
add('test_url_parts', 'User-agent: * \nDisallow: /path;params?query \n', [['http://userinfo@exmaple.com:10/path;params?query#fragment', '*', false]]);
add('test_url_parts', 'User-agent: * \nDisallow: /? \n', [['/?query', '*', false], ['/', '*', true]]);
add('test_url_parts', 'User-agent: * \nDisallow: /; \n', [['/;params', '*', false], ['/', '*', true]]);
add('test_empty_response', '', [['https://site.local/', '*', true], ['https://site.local/', 'chrome', true], ['https://site.local/index.html', '*', true], ['https://site.local/disallowed', '*', true]]);
add('test_allowed_wildcards', `User-agent: first
                     Disallow: /disallowed/*/end$
                     Disallow: /protego*work

                     User-agent: second
                     Allow: /*allowed
                     Disallow: /
                `, [
  [`${S}/disallowed`, 'first', true], [`${S}/disallowed/xyz/end`, 'first', false], [`${S}/disallowed/abc/end`, 'first', false],
  [`${S}/disallowed/xyz/endinglater`, 'first', true], [`${S}/protegoworks`, 'first', false], [`${S}/protego_works`, 'first', false],
  [`${S}/protego/works`, 'first', false], [`${S}/protego_does_work`, 'first', false], [`${S}/rotego_does_work`, 'first', true],
  [`${S}/protego_does_wor`, 'first', true], [`${S}/allowed`, 'second', true], [`${S}/is_still_allowed`, 'second', true], [`${S}/is_allowed_too`, 'second', true],
]);
add('test_allowed_wildcards', `
        # robots.txt for http://www.example.com/

        User-agent: Rule1TestBot
        Disallow:  /foo*

        User-agent: Rule2TestBot
        Disallow:  /foo*/bar.html

        # Disallows anything containing the letter m!
        User-agent: Rule3TestBot
        Disallow:  *m

        User-agent: Rule4TestBot
        Allow:  /foo/bar.html
        Disallow: *

        User-agent: Rule5TestBot
        Disallow:  /foo*/*bar.html

        User-agent: Rule6TestBot
        Allow:  /foo$
        Disallow:  /foo

        # Exercise excessive wildcards
        # https://bitbucket.org/philip_semanchuk/robotexclusionrulesparser/issues/1
        User-agent: Rule7TestBot
        Allow: *****************/****.js

        `, [
  ['/fo.html', 'Rule1TestBot', true], ['/foo.html', 'Rule1TestBot', false], ['/food', 'Rule1TestBot', false], ['/foo/bar.html', 'Rule1TestBot', false],
  ['/fo.html', 'Rule2TestBot', true], ['/foo/bar.html', 'Rule2TestBot', false], ['/food/bar.html', 'Rule2TestBot', false],
  ['/foo/a/b/c/x/y/z/bar.html', 'Rule2TestBot', false], ['/food/xyz.html', 'Rule2TestBot', true],
  ['/foo.htm', 'Rule3TestBot', false], ['/foo.html', 'Rule3TestBot', false], ['/foo', 'Rule3TestBot', true], ['/foom', 'Rule3TestBot', false],
  ['/moo', 'Rule3TestBot', false], ['/foo/bar.html', 'Rule3TestBot', false], ['/foo/bar.txt', 'Rule3TestBot', true],
  ['/fo.html', 'Rule4TestBot', false], ['/foo.html', 'Rule4TestBot', false], ['/foo', 'Rule4TestBot', false], ['/foo/bar.html', 'Rule4TestBot', true], ['/foo/bar.txt', 'Rule4TestBot', false],
  ['/foo/bar.html', 'Rule5TestBot', false], ['/food/rebar.html', 'Rule5TestBot', false], ['/food/rebarf.html', 'Rule5TestBot', true],
  ['/foo/a/b/c/rebar.html', 'Rule5TestBot', false], ['/foo/a/b/c/bar.html', 'Rule5TestBot', false],
  ['/foo', 'Rule6TestBot', true], ['/foo/', 'Rule6TestBot', false], ['/foo/bar.html', 'Rule6TestBot', false], ['/fooey', 'Rule6TestBot', false],
  ['xyz/foo.js', 'Rule7TestBot', true], ['/inlife/daily/fashion-20160727/', 'Rule7TestBot', true],
]);
add('test_allowed_wildcards', 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n', [
  [`${F}/foo/bar/quz`, 'FooBot', false], [`${F}/foo/quz`, 'FooBot', true], [`${F}/foo//quz`, 'FooBot', true], [`${F}/foo/bax/quz`, 'FooBot', true],
]);
add('test_allowed_wildcards', 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n', [
  [`${F}/foo/bar`, 'FooBot', false], [`${F}/foo/bar/qux`, 'FooBot', true], [`${F}/foo/bar/`, 'FooBot', true], [`${F}/foo/bar/baz`, 'FooBot', true],
]);
add('test_unicode_url_and_useragent', `
        User-Agent: *
        Disallow: /admin/
        Disallow: /static/
        # taken from https://en.wikipedia.org/robots.txt
        Disallow: /wiki/K%C3%A4ytt%C3%A4j%C3%A4:
        Disallow: /wiki/Käyttäjä:
        Disallow: /wiki/Keskustelu_käyttäjästä:
        User-Agent: UnicödeBöt
        Disallow: /some/randome/page.html`, [
  ['https://site.local/', '*', true], ['https://site.local/admin/', '*', false], ['https://site.local/static/', '*', false],
  ['https://site.local/admin/', 'UnicödeBöt', true], ['https://site.local/wiki/K%C3%A4ytt%C3%A4j%C3%A4:', '*', false],
  ['https://site.local/wiki/Käyttäjä:', '*', false], ['https://site.local/wiki/Keskustelu_k%C3%A4ytt%C3%A4j%C3%A4st%C3%A4:', '*', false],
  ['https://site.local/wiki/Keskustelu_käyttäjästä:', '*', false], ['https://site.local/some/randome/page.html', '*', true],
  ['https://site.local/some/randome/page.html', 'UnicödeBöt', false],
]);
add('test_unicode_url_and_useragent', `
        # robots.txt for http://www.example.com/

        User-Agent: Jävla-Foobot
        Disallow: /

        User-Agent: \u041b\u044c\u0432\u0456\u0432-bot
        Disallow: /totalitarianism/

        `, [
  ['/foo/bar.html', 'jävla-fanbot', true], ['/foo/bar.html', 'jävla-foobot', false], ['/', 'foobot', true],
  ['/', 'Mozilla/5.0 (compatible; Львів-bot/1.1)', true], ['/totalitarianism/foo.htm', 'Mozilla/5.0 (compatible; Львів-bot/1.1)', false],
]);
add('test_no_leading_user_agent', `
        Disallow: /withoutUA
        Allow: /withoutUA/exception
        Crawl-delay: 5.2
        User-Agent: testbot
        Disallow: /withUA
        `, [
  ['https://site.local/withoutUA', 'mybot', true], ['https://site.local/withoutUA', 'testbot', true], ['https://site.local/withoutUA', '*', true],
  ['https://site.local/withUA', 'mybot', true], ['https://site.local/withUA', 'testbot', false],
]);
add('test_default_user_agent', `
        User-Agent: robot
        Disallow: /ro-bot

        User-Agent: *
        Disallow: /default-UA

        User-Agent: testbot
        Disallow: /testbot
        `, [['https://site.local/default-UA', 'mybot', false], ['https://site.local/default-UA', 'testbot', true], ['https://site.local/default-UA', 'robot', true]]);
add('test_user_agent_case_insensitivity', `
        User-Agent: testbot
        Disallow: /testbot

        User-Agent: *
        Disallow: /default-UA
        `, ['TESTbot', 'testbot', 'tEStbOt'].flatMap((a): Check[] => [['https://site.local/testbot', a, false], ['https://site.local/default-UA', a, true]]));
add('test_user_agent_grouping', `
        User-Agent: one
        User-Agent: two
        Disallow: /success
        User-Agent: *
        Disallow: /failure
        `, [['https://site.local/success', 'one', false], ['https://site.local/success', 'two', false], ['https://site.local/failure', 'one', true], ['https://site.local/failure', 'two', true]]);
add('test_user_agent_grouping', 'allow: /foo/bar/\n\nuser-agent: FooBot\ndisallow: /\nallow: /x/\nuser-agent: BarBot\ndisallow: /\nallow: /y/\n\n\nallow: /w/\nuser-agent: BazBot\n\nuser-agent: FooBot\nallow: /z/\ndisallow: /\n', [
  [`${F}/x/b`, 'FooBot', true], [`${F}/z/d`, 'FooBot', true], [`${F}/y/c`, 'FooBot', false], [`${F}/y/c`, 'BarBot', true], [`${F}/w/a`, 'BarBot', true],
  [`${F}/z/d`, 'BarBot', false], [`${F}/z/d`, 'BazBot', true], [`${F}/foo/bar/`, 'FooBot', false], [`${F}/foo/bar/`, 'BarBot', false], [`${F}/foo/bar/`, 'BazBot', false],
]);
add('test_comments', `
        # comment 1
        User-Agent: one # comment 2
        # comment 3
        User-Agent: two
        Disallow: /one-two-bot
        # Disallow: /commented
        # comment 4
        User-Agent: *
        Disallow: /default-ua
        `, ['one', 'two'].flatMap((a): Check[] => [['https://site.local/one-two-bot', a, false], ['https://site.local/commented', a, true], ['https://site.local/default-ua', a, true]]));
add('test_comments', 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n', [[`${F}/foo/bar`, 'FooBot', true], [`${F}/foo/quz`, 'FooBot', false]]);
for (const [test, line] of [['test_skip_unknown_directives', 'Harry: Potter'], ['test_skip_malformed_line', 'Harry Potter']]) {
  add(test, `\n        User-Agent: one\n        Disallow: /bot-one\n        ${line}\n        User-Agent: two\n        Disallow: /bot-two\n        `, [
    ['https://site.local/bot-one', 'one', false], ['https://site.local/bot-two', 'one', true], ['https://site.local/bot-two', 'two', false], ['https://site.local/bot-one', 'two', true],
  ]);
}
add('test_empty_disallow_allow_directives', '\n        User-Agent: one\n        Disallow:\n\n        User-Agent: two\n        Allow:\n        ',
  ['one', 'two'].flatMap((a): Check[] => [['https://site.local/path1', a, true], ['https://site.local/path2', a, true]]));
add('test_empty_record_group', '\n        User-Agent: harrybot\n        Disallow: /\n        User-Agent: testbot\n        ', [['https://site.local/path1', 'testbot', true], ['https://site.local/path2', 'testbot', true]]);
add('test_1994rfc_example', `
        # robots.txt for http://www.example.com/
        User-agent: *
        Disallow: /cyberworld/map/ # This is an infinite virtual URL space
        Disallow: /tmp/ # these will soon disappear
        Disallow: /foo.html
        `, ([
  ['/', true], ['/foo.html', false], ['/foo.htm', true], ['/foo.shtml', true], ['/foo.htmlx', false], ['/cyberworld/index.html', true], ['/tmp/foo.html', false],
  ['http://example.com/foo.html', false], ['http://www.example.com/foo.html', false], ['http://www.example.org/foo.html', false],
  ['https://www.example.org/foo.html', false], ['ftp://example.net/foo.html', false],
] as [string, boolean][]).map(([u, ok]): Check => [u, 'CrunchyFrogBot', ok]));
add('test_1996rfc_examples', `
        # robots.txt for http://www.example.com/

        User-agent: 1bot
        Allow: /tmp
        Disallow: /

        User-agent: 2bot
        Allow: /tmp/
        Disallow: /

        User-agent: 3bot
        Allow: /a%3cd.html
        Disallow: /

        User-agent: 4bot
        Allow: /a%3Cd.html
        Disallow: /

        User-agent: 5bot
        Allow: /a%2fb.html
        Disallow: /

        User-agent: 6bot
        Allow: /a/b.html
        Disallow: /

        User-agent: 7bot
        Allow: /%7ejoe/index.html
        Disallow: /

        User-agent: 8bot
        Allow: /~joe/index.html
        Disallow: /
        `, [
  ['/tmp.html', '1bot', true], ['/tmp', '1bot', true], ['/tmp/a.html', '1bot', true], ['/tmp', '2bot', false], ['/tmp/', '2bot', true], ['/tmp/a.html', '2bot', true],
  ['/a%3cd.html', '3bot', true], ['/a%3Cd.html', '3bot', true], ['/a%3cd.html', '4bot', true], ['/a%3Cd.html', '4bot', true],
  ['/a%2fb.html', '5bot', true], ['/a/b.html', '5bot', false], ['/a%2fb.html', '6bot', false], ['/a/b.html', '6bot', true],
  ['/~joe/index.html', '7bot', true], ['/%7Ejoe/index.html', '8bot', true],
]);

export const protegoCases = cases;

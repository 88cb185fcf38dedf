// RobotsTxt.usage(): what a crawler may do with a URL's content, per purpose,
// from Content-Usage (draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab-08)
// and Content-Signal (Cloudflare's Content Signals Policy) lines and a page's
// headers. The drafts' own examples, Cloudflare's managed robots.txt, one case
// per rule that fails when the rule is broken, and two properties: the paths a
// Content-Usage rule covers are those a Disallow of the same pattern covers
// (both profiles), and usage() agrees with a plain reference written from the
// rules on random files, agents and headers.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, type Preference, type Purpose, type Usage } from '../../src/index.js';
import { readRecords } from '../../src/engine/parse/records.js';
import { patternOf } from '../../src/engine/parse/pattern.js';
import { CLOUDFLARE } from '../helpers/cloudflare-robots.js';

const PROFILES = ['google', 'rfc'] as const;
const NONE = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };
const purposes = (p: Partial<Usage['purposes']>): Usage['purposes'] => ({ ...NONE, ...p }) as Usage['purposes'];
const url = (path: string) => `https://example.com${path}`;

describe('the drafts’ examples', () => {
  it('attach-05 section 3.4: the example file and its table of paths, both profiles', () => {
    const body = 'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: / train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\nContent-Usage: / train-ai=y\n';
    for (const profile of PROFILES) {
      const robots = parse(body, { profile });
      expect(robots.usage(url('/test'), 'FooBot')).toEqual({
        allowed: true,
        line: 2,
        purposes: purposes({ 'train-ai': 'disallowed' }),
        signals: [{ field: 'content-usage', value: 'train-ai=n', line: 4, path: '/', purpose: 'train-ai', preference: 'disallowed' }],
      });
      // "N/A": a path that may not be crawled has no preference.
      expect(robots.usage(url('/never/test'), 'FooBot')).toEqual({ allowed: false, line: 3, purposes: NONE, signals: [] });
      expect(robots.usage(url('/ai-ok/test'), 'FooBot').purposes).toEqual(purposes({ 'train-ai': 'allowed' }));
      // ExampleBot uses its own group: everything may be crawled, with train-ai=y.
      for (const p of ['/test', '/never/test', '/ai-ok/test']) {
        expect(robots.usage(url(p), 'ExampleBot')).toMatchObject({ allowed: true, purposes: purposes({ 'train-ai': 'allowed' }) });
      }
    }
  });

  it('attach-05 section 1.2: the same preference in a header and in robots.txt', () => {
    const robots = parse('User-Agent: *\nAllow: /\nContent-Usage: / train-ai=n\n');
    expect(robots.usage(url('/page'), 'FooBot').purposes['train-ai']).toBe('disallowed');
    const headerOnly = parse('').usage(url('/page'), 'FooBot', { headers: { 'Content-Type': 'text/plain', 'Content-Usage': 'train-ai=n' } });
    expect(headerOnly).toEqual({
      allowed: true,
      line: 0,
      purposes: purposes({ 'train-ai': 'disallowed' }),
      signals: [{ field: 'content-usage', value: 'train-ai=n', line: 0, purpose: 'train-ai', preference: 'disallowed', header: true }],
    });
  });

  it('vocab-07 section 6: the serialisation examples', () => {
    const of = (pref: string) => parse(`User-agent: *\nContent-Usage: ${pref}\n`).usage(url('/'), 'FooBot').purposes;
    expect(of('train-ai=y, search=n')).toEqual(purposes({ 'train-ai': 'allowed', search: 'disallowed' }));
    // 6.5.1: the last value of a key stands; a Boolean and a String are not the Tokens y/n.
    expect(of('train-ai=y, train-ai, search=n, search="n"')).toEqual(NONE);
    // 6.5.2: parameters are ignored, and the last member stands.
    expect(of('train-ai;allow=n, train-ai=y')).toEqual(purposes({ 'train-ai': 'allowed' }));
    expect(of('train-ai;has;parameters="?";')).toEqual(NONE);
    // "If the parsing of the Dictionary fails, preferences are unknown. This includes where keys include uppercase characters."
    expect(of('Train-AI=n')).toEqual(NONE);
    expect(of('search=y, Train-ai=n')).toEqual(NONE); // (the whole dictionary fails, search=y too)
    expect(of('search=y, train-AI=n')).toEqual(NONE);
  });
});

describe('Cloudflare’s managed robots.txt', () => {
  const line = (text: string) => CLOUDFLARE.split('\n').indexOf(text) + 1;
  for (const profile of PROFILES) {
    const robots = parse(CLOUDFLARE, { profile });

    it(`${profile}: the two "*" groups merge: the signal and the site's own rules both apply`, () => {
      expect(robots.usage(url('/blog/post'), 'FooBot')).toEqual({
        allowed: true,
        line: line('Allow: /'),
        purposes: purposes({ search: 'allowed', 'train-ai': 'disallowed' }),
        signals: [
          { field: 'content-signal', value: 'search=yes', line: line('Content-Signal: search=yes,ai-train=no'), purpose: 'search', preference: 'allowed' },
          { field: 'content-signal', value: 'ai-train=no', line: line('Content-Signal: search=yes,ai-train=no'), purpose: 'train-ai', preference: 'disallowed' },
        ],
      });
      // The site's Disallow (of the second "*" group) decides the fetch: nothing is implied there.
      expect(robots.usage(url('/admin/users'), 'FooBot')).toEqual({ allowed: false, line: line('Disallow: /admin/'), purposes: NONE, signals: [] });
    });

    it(`${profile}: a crawler its own group names gets that group alone: blocked AI crawlers and Googlebot have no signal`, () => {
      for (const bot of ['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended']) {
        expect(robots.usage(url('/blog/post'), bot)).toMatchObject({ allowed: false, purposes: NONE, signals: [] });
      }
      // Googlebot's own group allows everything, /admin/ too, and says nothing of use; Google-Extended's
      // group (a control token: test/engine/operator-usage.test.ts) disallows Google's train-ai and ai-use.
      const extended = CLOUDFLARE.split('\n').indexOf('User-agent: Google-Extended') + 2;
      expect(robots.usage(url('/admin/users'), 'Googlebot')).toMatchObject({ allowed: true, line: CLOUDFLARE.split('\n').lastIndexOf('Allow: /') + 1, purposes: purposes({ 'train-ai': 'disallowed', 'ai-use': 'disallowed' }) });
      expect(robots.usage(url('/admin/users'), 'Googlebot').signals.map((s) => [s.field, s.line])).toEqual([['control-token', extended], ['control-token', extended]]);
      expect(robots.usage(url('/blog'), ['Googlebot-News', 'Googlebot']).purposes).toEqual(purposes({ 'train-ai': 'disallowed', 'ai-use': 'disallowed' }));
      expect(robots.usage(url('/blog'), 'Googlebot', { operators: [] }).purposes).toEqual(NONE);
    });

    it(`${profile}: usages() and verdicts() for a list of crawlers, crawler by crawler`, () => {
      const crawlers = ['FooBot', 'GPTBot', 'Googlebot', 'BarBot'];
      const all = robots.usages(url('/x'), crawlers);
      expect(all).toEqual(crawlers.map((c) => robots.usage(url('/x'), c)));
      expect(all.map((u) => u.allowed)).toEqual(robots.verdicts(url('/x'), crawlers).map((v) => v.allowed));
      // Crawlers that share groups share the answer, but each gets its own copy.
      all[0].purposes.search = 'disallowed';
      expect(all[3].purposes.search).toBe('allowed');
    });

    it(`${profile}: a site whose own "*" group disallows everything: merged with Cloudflare's "Allow: /", the allow wins the tie, and the signal applies`, () => {
      const site = parse(`${CLOUDFLARE}\nUser-agent: *\nDisallow: /\n`, { profile });
      const allow = CLOUDFLARE.split('\n').indexOf('Allow: /') + 1;
      expect(site.usage(url('/anything'), 'FooBot')).toMatchObject({ allowed: true, line: allow, purposes: purposes({ search: 'allowed', 'train-ai': 'disallowed' }) });
      // (A site group that names the crawler is its alone: no signal.)
      expect(parse(`${CLOUDFLARE}\nUser-agent: FooBot\nDisallow: /private\n`, { profile }).usage(url('/x'), 'FooBot')).toMatchObject({ allowed: true, purposes: NONE, signals: [] });
    });
  }
});

describe('which Content-Usage rule decides', () => {
  const of = (body: string, path: string, profile: 'google' | 'rfc' = 'rfc', agent = 'FooBot') => parse(body, { profile }).usage(url(path), agent);

  it('the longest matching pattern alone: what it does not name is unknown, not inherited from a shorter rule', () => {
    const body = 'User-agent: *\nContent-Usage: / train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n';
    expect(of(body, '/blog/post').purposes).toEqual(purposes({ 'train-ai': 'allowed' }));
    expect(of(body, '/blog/post').signals.map((s) => s.line)).toEqual([3]);
    expect(of(body, '/shop').purposes).toEqual(purposes({ 'train-ai': 'disallowed', search: 'allowed' }));
  });

  it('rules of the same pattern combine: any n wins, then y (not the last, not the first)', () => {
    const body = 'User-agent: *\nContent-Usage: /a train-ai=y, search=y\nContent-Usage: /a train-ai=n\nContent-Usage: /a search=y\n';
    expect(of(body, '/a/1').purposes).toEqual(purposes({ 'train-ai': 'disallowed', search: 'allowed' }));
    const reversed = 'User-agent: *\nContent-Usage: /a train-ai=n\nContent-Usage: /a train-ai=y\n';
    expect(of(reversed, '/a/1').purposes['train-ai']).toBe('disallowed');
    // In two groups that merge, too.
    const merged = 'User-agent: *\nContent-Usage: /a train-ai=y\nAllow: /\n\nUser-agent: *\nContent-Usage: /a train-ai=n\nAllow: /\n';
    expect(of(merged, '/a/1').purposes['train-ai']).toBe('disallowed');
  });

  it('no pattern is every path, and shorter than any pattern (even "/")', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / train-ai=y\n';
    expect(of(body, '/x').purposes['train-ai']).toBe('allowed');
    expect(of('User-agent: *\nContent-Usage: train-ai=n\n', '/any/path?q=1').purposes['train-ai']).toBe('disallowed');
    expect(of('User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /x search=y\n', '/x').purposes).toEqual(purposes({ search: 'allowed' }));
  });

  it('the pattern ends at the first space or tab; the value at "#"', () => {
    expect(of('User-agent: *\nContent-Usage: /a\ttrain-ai=n\n', '/a').purposes['train-ai']).toBe('disallowed');
    expect(of('User-agent: *\nContent-Usage: /a   search=n   # no search\n', '/a').purposes.search).toBe('disallowed');
    // A '#' inside a String ends the value: what is left is not a Dictionary.
    expect(of('User-agent: *\nContent-Usage: /a search=n, x="a#b"\n', '/a')).toMatchObject({ purposes: NONE, signals: [{ value: 'search=n, x="a', invalid: true, path: '/a' }] });
    // A pattern and no preference: an empty Dictionary, which still decides for its paths.
    expect(of('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /x\n', '/x/1').purposes).toEqual(NONE);
  });

  it('a Dictionary that fails to parse says nothing, and still decides for its paths (no fallback to a shorter rule)', () => {
    const body = 'User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /x Train-ai=y\n';
    expect(of(body, '/x/1')).toMatchObject({ purposes: NONE, signals: [{ field: 'content-usage', value: 'Train-ai=y', line: 3, path: '/x', invalid: true }] });
    for (const bad of ['search=y,', 'search=y train-ai=n', 'search=y,,train-ai=n', 'search=(y', 'search=y;', 'search=y, =n', 'search=1.2345', 'search=:@@:', 'search=%"%C3"', 'search=%"%c3"', 'search=é']) {
      expect(of(`User-agent: *\nContent-Usage: / ${bad}\n`, '/').signals, bad).toEqual([{ field: 'content-usage', value: bad, line: 2, path: '/', invalid: true }]);
    }
    // Values that parse but are not y/n: that key is unknown, the others stand.
    for (const other of ['yes', 'no', '"n"', '?0', '?1', '1', 'Y', 'N', '(n)', ':bg==:', '@1', '%"n"']) {
      expect(of(`User-agent: *\nContent-Usage: / train-ai=${other}, search=n\n`, '/').purposes, other).toEqual(purposes({ search: 'disallowed' }));
    }
  });

  it('a repeated key: the last value stands (within one rule)', () => {
    expect(of('User-agent: *\nContent-Usage: train-ai=n, train-ai=y\n', '/').purposes['train-ai']).toBe('allowed');
    expect(of('User-agent: *\nContent-Usage: train-ai=y, search=n, train-ai=n\n', '/').purposes).toEqual(purposes({ 'train-ai': 'disallowed', search: 'disallowed' }));
  });

  it('unknown keys are ignored (reported); the labels of earlier drafts are reported as legacy and map to nothing', () => {
    const legacy = ['ai', 'genai', 'tdm', 'train-genai', 'inference', 'bots', 'ai-output', 'all'];
    const u = of(`User-agent: *\nContent-Usage: ${legacy.map((l) => `${l}=n`).join(', ')}, foo=n, search=y\n`, '/');
    expect(u.purposes).toEqual(purposes({ search: 'allowed' }));
    expect(u.signals.filter((s) => s.legacy).map((s) => s.value)).toEqual(legacy.map((l) => `${l}=n`));
    expect(u.signals.find((s) => s.value === 'foo=n')).toEqual({ field: 'content-usage', value: 'foo=n', line: 2 });
    // ai-input is Content-Signal's key, not an AIPREF label: in Content-Usage it says nothing.
    expect(of('User-agent: *\nContent-Usage: ai-input=n\n', '/').purposes['ai-use']).toBe('unknown');
  });

  it('percent-encoded patterns match as an Allow/Disallow of the same pattern does, per profile', () => {
    const cases: [string, string, Record<'google' | 'rfc', boolean>][] = [
      ['/%7Ea/', '/~a/x', { google: false, rfc: true }],
      ['/%7Ea/', '/%7Ea/x', { google: true, rfc: true }],
      ['/~a/', '/%7ea/x', { google: false, rfc: true }],
      ['/caf%C3%A9/', '/caf%c3%a9/x', { google: false, rfc: true }],
      ['/café/', '/caf%C3%A9/x', { google: true, rfc: true }],
      ['/a%2Fb', '/a/b', { google: false, rfc: false }],
      ['/dollar%24', '/dollar$', { google: false, rfc: true }],
    ];
    for (const [pattern, path, applies] of cases) {
      for (const profile of PROFILES) {
        const u = of(`User-agent: *\nContent-Usage: ${pattern} train-ai=n\n`, path, profile);
        const blocked = !parse(`User-agent: *\nDisallow: ${pattern}\n`, { profile }).isAllowed(url(path), 'FooBot');
        expect(u.purposes['train-ai'] === 'disallowed', `${profile} ${pattern} ${path}`).toBe(applies[profile]);
        expect(blocked, `${profile} ${pattern} ${path} as a Disallow`).toBe(applies[profile]);
      }
    }
  });

  it('wildcards and "$" as in Allow/Disallow, with their lengths, in both profiles', () => {
    const body = 'User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /docs/*/draft search=n\n';
    for (const profile of PROFILES) {
      expect(of(body, '/a/b.pdf', profile).purposes['train-ai'], profile).toBe('disallowed');
      expect(of(body, '/a/b.pdf?x=1', profile).purposes['train-ai'], profile).toBe('allowed');
      // "/docs/*/draft" (13) is longer than "/*.pdf$" (7): it decides, and says nothing of train-ai.
      expect(of(body, '/docs/v1/draft.pdf', profile).purposes, profile).toEqual(purposes({ search: 'disallowed' }));
    }
  });
});

describe('the rules above hold in both profiles (ASCII patterns, which neither escapes nor normalises)', () => {
  const cases: [string, string, string, Partial<Usage['purposes']>][] = [
    ['longest match, not inheritance', 'User-agent: *\nContent-Usage: / train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n', '/blog/post', { 'train-ai': 'allowed' }],
    ['a shorter rule where the longer does not match', 'User-agent: *\nContent-Usage: / train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\n', '/shop', { 'train-ai': 'disallowed', search: 'allowed' }],
    ['the same pattern combines: n wins', 'User-agent: *\nContent-Usage: /a train-ai=y\nContent-Usage: /a train-ai=n, search=y\n', '/a/1', { 'train-ai': 'disallowed', search: 'allowed' }],
    ['the same pattern in two "*" groups that merge', 'User-agent: *\nContent-Usage: /a train-ai=y\nAllow: /\n\nUser-agent: *\nContent-Usage: /a train-ai=n\n', '/a/1', { 'train-ai': 'disallowed' }],
    ['no pattern is the shortest', 'User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: / search=y\n', '/x', { search: 'allowed' }],
    ['a failed Dictionary decides, saying nothing', 'User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /x train-ai=y,\n', '/x/1', {}],
    ['a legacy label says nothing', 'User-agent: *\nContent-Usage: tdm=n, ai=n, train-genai=n\n', '/', {}],
    ['a wildcard and "$", longer than "/"', 'User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /*.pdf$ train-ai=n\n', '/a/b.pdf', { 'train-ai': 'disallowed' }],
    ['outside any group: nothing', 'Content-Signal: ai-train=no\nContent-Usage: train-ai=n\nUser-agent: *\nAllow: /\n', '/', {}],
    ['merged "*" groups: every Content-Signal line', 'User-agent: *\nContent-Signal: search=yes\nAllow: /\n\nUser-agent: *\nContent-Signal: ai-input=no\n', '/', { search: 'allowed', 'ai-use': 'disallowed' }],
  ];
  for (const profile of PROFILES) {
    it(profile, () => {
      for (const [name, body, path, expected] of cases) expect(parse(body, { profile }).usage(url(path), 'FooBot').purposes, name).toEqual(purposes(expected));
    });
  }
});

describe('Content-Signal', () => {
  const of = (body: string, path = '/', agent = 'FooBot') => parse(body).usage(url(path), agent);

  it('its three signals (ai-train is train-ai), every line of the crawler’s groups, for every path it may fetch', () => {
    const body = 'User-agent: *\nContent-Signal: search=yes\nDisallow: /private\n\nUser-agent: *\nContent-Signal: ai-input=no\nContent-Signal: ai-train=yes\n';
    expect(of(body, '/a/b').purposes).toEqual({ search: 'allowed', 'train-ai': 'allowed', 'ai-use': 'disallowed' });
    expect(of(body, '/private/x').purposes).toEqual(NONE);
  });

  it('other keys and values are reported and map to nothing; keys and values are read case aside', () => {
    const u = of('User-agent: *\nContent-Signal: use=reference, search=maybe, ai-train, AI-Train=No, Search = Yes ,\n');
    expect(u.purposes).toEqual(purposes({ 'train-ai': 'disallowed', search: 'allowed' }));
    expect(u.signals.map((s) => [s.value, s.purpose ?? null])).toEqual([
      ['use=reference', null], ['search=maybe', null], ['ai-train', null], ['AI-Train=No', 'train-ai'], ['Search = Yes', 'search'],
    ]);
  });

  it('combines with Content-Usage per purpose: any disallowed wins, then allowed', () => {
    const body = 'User-agent: *\nContent-Usage: train-ai=y, search=y\nContent-Signal: ai-train=no, search=yes\n';
    expect(of(body).purposes).toEqual(purposes({ 'train-ai': 'disallowed', search: 'allowed' }));
    expect(of('User-agent: *\nContent-Signal: search=no, search=yes\n').purposes.search).toBe('disallowed');
  });
});

describe('what counts and what does not', () => {
  it('lines outside any group count for nothing (kept for lint)', () => {
    const body = 'Content-Signal: ai-train=no\nContent-Usage: train-ai=n\nLicense: https://example.com/license.xml\n\nUser-agent: *\nAllow: /\n';
    expect(parse(body).usage(url('/'), 'FooBot')).toEqual({ allowed: true, line: 6, purposes: NONE, signals: [] });
    expect(readRecords(new TextEncoder().encode(body), 'rfc').outsideUsage.map((u) => [u.field, u.line, u.value])).toEqual([
      ['content-signal', 1, 'ai-train=no'],
      ['content-usage', 2, 'train-ai=n'],
    ]);
    // No diagnostic: the keys are known.
    expect(parse(body).diagnostics).toEqual([]);
  });

  it('a URL its rules disallow: all unknown, allowed false with the deciding line; the page’s headers still count', () => {
    const robots = parse('User-agent: *\nDisallow: /private\nContent-Usage: train-ai=y\nContent-Signal: search=yes\n');
    expect(robots.usage(url('/private/a'), 'FooBot')).toEqual({ allowed: false, line: 2, purposes: NONE, signals: [] });
    expect(robots.usage(url('/private/a'), 'FooBot', { headers: { 'content-signal': 'ai-input=no' } }).purposes).toEqual(purposes({ 'ai-use': 'disallowed' }));
    // rfc: /robots.txt is always allowed, and its preferences apply.
    expect(robots.usage(url('/robots.txt'), 'FooBot').allowed).toBe(true);
  });

  it('the crawler’s groups: a group naming it, else "*" (an agent of several names: any of them), as its verdicts', () => {
    const body = 'User-agent: FooBot\nContent-Signal: search=no\nAllow: /\n\nUser-agent: BarBot\nContent-Signal: ai-input=no\nAllow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\n';
    const robots = parse(body);
    expect(robots.usage(url('/'), 'FooBot').purposes).toEqual(purposes({ search: 'disallowed' }));
    expect(robots.usage(url('/'), ['FooBot', 'BarBot']).purposes).toEqual(purposes({ search: 'disallowed', 'ai-use': 'disallowed' }));
    expect(robots.usage(url('/'), 'Other').purposes).toEqual(purposes({ 'train-ai': 'disallowed' }));
    // Under rfc the agent must be a product token, as for isAllowed; under google it is compared whole.
    expect(() => robots.usage(url('/'), 'FooBot/1.0')).toThrow(TypeError);
    expect(parse(body, { profile: 'google' }).usage(url('/'), 'FooBot/1.0').purposes).toEqual(purposes({ 'train-ai': 'disallowed' }));
  });

  it('headers: Content-Usage (a Dictionary) and Content-Signal, from a Headers or a plain object, combine with robots.txt', () => {
    const robots = parse('User-agent: *\nContent-Usage: train-ai=y, search=y\n');
    const fetchHeaders = new Headers([['Content-Usage', 'train-ai=n'], ['Content-Signal', 'ai-input=yes']]);
    expect(robots.usage(url('/'), 'FooBot', { headers: fetchHeaders }).purposes).toEqual({ search: 'allowed', 'train-ai': 'disallowed', 'ai-use': 'allowed' });
    // Node's IncomingHttpHeaders: lower-case names, a repeated header as an array (its field lines joined with ", ").
    const node = { 'content-usage': 'search=y', 'content-signal': ['search=no', 'ai-train=yes'] };
    const u = robots.usage(url('/'), 'FooBot', { headers: node });
    expect(u.purposes).toEqual(purposes({ search: 'disallowed', 'train-ai': 'allowed' }));
    expect(u.signals.filter((s) => s.header).map((s) => [s.field, s.value, s.line])).toEqual([
      ['content-usage', 'search=y', 0], ['content-signal', 'search=no', 0], ['content-signal', 'ai-train=yes', 0],
    ]);
    // A header that is not a Dictionary says nothing; a capitalised key fails it.
    expect(robots.usage(url('/'), 'FooBot', { headers: { 'Content-Usage': 'Train-ai=n' } }).purposes['train-ai']).toBe('allowed');
    // Repeated Content-Usage field lines are one Dictionary: the last value of a key stands.
    expect(parse('').usage(url('/'), 'FooBot', { headers: { 'content-usage': ['train-ai=n', 'train-ai=y'] } }).purposes['train-ai']).toBe('allowed');
  });

  it('License and LLM-Policy: every line, in file order, inside groups or not; none: empty lists', () => {
    const body = 'License: https://example.com/a.xml\nUser-agent: *\nLLM-Policy: https://example.com/llm.txt\nDisallow: /x\nlicense: https://example.com/b.xml # comment\nLicense: https://example.com/a.xml\n';
    const robots = parse(body);
    expect(robots.licenses).toEqual(['https://example.com/a.xml', 'https://example.com/b.xml', 'https://example.com/a.xml']);
    expect(robots.llmPolicies).toEqual(['https://example.com/llm.txt']);
    expect(robots.diagnostics).toEqual([]);
    // They do not end a group: the Disallow after LLM-Policy is the `*` group's.
    expect(robots.isAllowed(url('/x'), 'FooBot')).toBe(false);
    expect(parse('User-agent: *\nDisallow: /\n').licenses).toEqual([]);
    expect(parse('User-agent: *\nDisallow: /\n').llmPolicies).toEqual([]);
  });

  it('the keys are read as Google reads every key: case aside, a longer key as a typo', () => {
    const robots = parse('User-agent: *\nCONTENT-SIGNAL: search=no\nContent-Signals: ai-input=no\nLicenses: https://example.com/l.xml\n');
    expect(robots.usage(url('/'), 'FooBot').purposes).toEqual(purposes({ search: 'disallowed', 'ai-use': 'disallowed' }));
    expect(robots.licenses).toEqual(['https://example.com/l.xml']);
    expect(robots.diagnostics.map((d) => [d.line, d.code, d.message])).toEqual([
      [3, 'typo', '"Content-Signals" accepted as content-signal'],
      [4, 'typo', '"Licenses" accepted as license'],
    ]);
  });

  it('contentUsage(path, agent), the raw string, as before', () => {
    const robots = parse('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /blog/ train-ai=y\nContent-Signal: search=yes\n');
    expect(robots.contentUsage('/blog/x', 'FooBot')).toBe('train-ai=y');
    expect(robots.contentUsage('/x', 'FooBot')).toBe('train-ai=n');
  });
});

// The paths a Content-Usage rule covers are those a Disallow of the same pattern covers, and
// the lengths compared are the same: the rule of two that decides is the one whose Disallow
// beats the other's Allow; on a tie (where an Allow would win), the same pattern (as the
// profile reads it) combines, n winning, and of two different patterns the first written decides.
const piece = fc.constantFrom('/', 'a', 'b', 'A', '*', '$', '.', '?', '=', '%', '%41', '%61', '%2a', '%2A', '%24', '%2F', '%7e', '%7E', 'é', '%C3%A9', '~', '-', '//');
const pattern = fc.array(piece, { maxLength: 6 }).map((p) => '/' + p.join(''));
const path = fc.array(piece, { maxLength: 8 }).map((p) => '/' + p.join(''));

/** Two patterns the profile reads as one (the reference's reading: its tokens, anchoring and length). */
function samePattern(a: string, b: string, profile: 'google' | 'rfc'): boolean {
  const [x, y] = [a, b].map((p) => patternOf(new TextEncoder().encode(p), profile));
  return x.anchored === y.anchored && x.priority === y.priority && x.tokens.join() === y.tokens.join();
}

describe('property: a Content-Usage pattern covers what a Disallow of it covers, and ranks as it does', () => {
  for (const profile of PROFILES) {
    it(profile, () => {
      fc.assert(
        fc.property(pattern, pattern, path, fc.boolean(), (p1, p2, p, yFirst) => {
          const lines = [`Content-Usage: ${p1} train-ai=n`, `Content-Usage: ${p2} train-ai=y`];
          const u = parse(`User-agent: *\n${(yFirst ? lines.reverse() : lines).join('\n')}\n`, { profile }).usage(url(p), 'FooBot');
          const blocks = (d: string, a?: string) => !parse(`User-agent: *\nDisallow: ${d}\n${a === undefined ? '' : `Allow: ${a}\n`}`, { profile }).isAllowed(url(p), 'FooBot');
          const m1 = blocks(p1);
          const m2 = blocks(p2);
          let expected: Preference = 'unknown';
          if (m1 && !m2) expected = 'disallowed';
          else if (m2 && !m1) expected = 'allowed';
          else if (m1 && m2) expected = blocks(p1, p2) ? 'disallowed' : blocks(p2, p1) ? 'allowed' : samePattern(p1, p2, profile) || !yFirst ? 'disallowed' : 'allowed';
          expect(u.purposes['train-ai']).toBe(expected);
        }),
        { numRuns: 1500 },
      );
    });
  }
});

// Ties, which the property above meets rarely: patterns of `a`, `b` and `*` of one length, most of which match the path.
describe('property: of different patterns of the longest length that match, the first written decides; the same pattern combines', () => {
  const tied = (n: number) => fc.array(fc.constantFrom('a', '*', 'b'), { minLength: n, maxLength: n }).map((p) => '/' + p.join(''));
  for (const profile of PROFILES) {
    it(profile, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(tied(n), tied(n))), fc.stringMatching(/^[ab]{0,6}$/), fc.boolean(), ([p1, p2], rest, yFirst) => {
          const p = `/${rest}`;
          const lines = [`Content-Usage: ${p1} train-ai=n`, `Content-Usage: ${p2} train-ai=y`];
          const u = parse(`User-agent: *\n${(yFirst ? lines.reverse() : lines).join('\n')}\n`, { profile }).usage(url(p), 'FooBot');
          const blocks = (d: string) => !parse(`User-agent: *\nDisallow: ${d}\n`, { profile }).isAllowed(url(p), 'FooBot');
          const [m1, m2] = [blocks(p1), blocks(p2)];
          let expected: Preference = 'unknown';
          if (m1 && m2) expected = samePattern(p1, p2, profile) ? 'disallowed' : yFirst ? 'allowed' : 'disallowed';
          else if (m1) expected = 'disallowed';
          else if (m2) expected = 'allowed';
          expect(u.purposes['train-ai']).toBe(expected);
        }),
        { numRuns: 1000 },
      );
    });
  }
});

// A plain reference of the rules, on files built from parts whose meaning is known: ASCII
// patterns (a '*' and a final '$' only), Content-Usage values and Content-Signal values
// with what each says, random groups (merged as robots.txt merges them), agents and headers.
type Says = Partial<Record<Purpose, 'y' | 'n'>>;
const CONTENT_USAGE: [string, Says][] = [
  ['train-ai=n', { 'train-ai': 'n' }], ['train-ai=y', { 'train-ai': 'y' }], ['search=y, train-ai=n', { search: 'y', 'train-ai': 'n' }],
  ['search=n', { search: 'n' }], ['train-ai=y, train-ai=n', { 'train-ai': 'n' }], ['train-ai=n, train-ai=y', { 'train-ai': 'y' }],
  ['Train-ai=n', {}], ['search=y,', {}], ['ai=n, tdm=n, genai=n', {}], ['train-ai=yes', {}], ['search=?1', {}], ['train-ai="n"', {}],
  ['foo=n, search=y', { search: 'y' }], ['train-ai=n;p=1', { 'train-ai': 'n' }], ['', {}], ['ai-input=n', {}],
  ['ai-use=n', { 'ai-use': 'n' }], ['ai-use=y, search=n', { 'ai-use': 'y', search: 'n' }],
];
const CONTENT_SIGNAL: [string, Says][] = [
  ['search=yes, ai-train=no', { search: 'y', 'train-ai': 'n' }], ['ai-input=no', { 'ai-use': 'n' }], ['ai-input=yes,search=no', { 'ai-use': 'y', search: 'n' }],
  ['use=reference', {}], ['ai-train=yes', { 'train-ai': 'y' }], ['Search=Yes', { search: 'y' }], ['search=maybe', {}], ['train-ai=no', {}], ['ai-use=no', {}],
];
const PATTERNS = ['', '/', '/a', '/a/', '/a/b', '/b', '/a*', '/*.pdf', '/a/$', '/*b'];
const PATHS = ['/', '/a', '/a/', '/a/b', '/a/b/c.pdf', '/b/x', '/c.pdf', '/ab', '/x/b'];
const AGENTS = ['FooBot', 'foobot', 'BarBot', '*', 'FooBot/2', 'Other', '* x'];
const CRAWLERS: (string | string[])[] = ['FooBot', 'BarBot', 'Nobody', ['FooBot', 'BarBot']];

type Line = { kind: 'agent'; value: string } | { kind: 'rule'; text: string } | { kind: 'cu'; pattern: string; says: number } | { kind: 'cs'; says: number };
const lineArb: fc.Arbitrary<Line> = fc.oneof(
  fc.constantFrom(...AGENTS).map((value): Line => ({ kind: 'agent', value })),
  fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.constantFrom('/a/b', '/b', '/c', '/*.pdf$')).map(([k, p]): Line => ({ kind: 'rule', text: `${k}: ${p}` })),
  fc.tuple(fc.constantFrom(...PATTERNS), fc.nat(CONTENT_USAGE.length - 1)).map(([pattern, says]): Line => ({ kind: 'cu', pattern, says })),
  fc.nat(CONTENT_SIGNAL.length - 1).map((says): Line => ({ kind: 'cs', says })),
);
const text = (l: Line) =>
  l.kind === 'agent' ? `User-agent: ${l.value}` : l.kind === 'rule' ? l.text : l.kind === 'cu' ? `Content-Usage: ${l.pattern === '' ? '' : l.pattern + ' '}${CONTENT_USAGE[l.says][0]}` : `Content-Signal: ${CONTENT_SIGNAL[l.says][0]}`;

/** The expected purposes, from the rules as the issue states them, computed plainly (the
 * same in both profiles: the patterns are ASCII, which neither escapes nor normalises, so
 * the same pattern is the same string). */
function referenceUsage(lines: Line[], agent: string | string[], path: string, allowed: boolean, headers: { cu?: number; cs?: number }, profile: (typeof PROFILES)[number]): Record<Purpose, Preference> {
  // Groups: user-agent lines, and the lines up to a user-agent line that follows a rule (under rfc a Content-Usage line is one).
  type RefGroup = { agents: string[]; lines: Line[]; ruled: boolean };
  const groups: RefGroup[] = [];
  let current: RefGroup | null = null;
  for (const l of lines) {
    if (l.kind === 'agent') {
      if (current === null || current.ruled) groups.push((current = { agents: [], lines: [], ruled: false }));
      current.agents.push(l.value);
    } else if (current !== null) {
      current.lines.push(l);
      if (l.kind === 'rule' || (l.kind === 'cu' && profile === 'rfc')) current.ruled = true;
    }
  }
  const names = (typeof agent === 'string' ? [agent] : agent).map((a) => a.toLowerCase());
  // A line names the crawler by its leading [A-Za-z_-] run (google compares the agent whole: "FooBot/2" names no line).
  const token = (v: string) => /^[A-Za-z_-]*/.exec(v)![0].toLowerCase();
  const named = groups.filter((g) => g.agents.some((a) => !a.startsWith('*') && names.includes(token(a))));
  const applying = named.length > 0 ? named : groups.filter((g) => g.agents.some((a) => a === '*' || a.startsWith('* ')));
  const result: Record<Purpose, Preference> = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };
  const add = (says: Says) => {
    for (const [p, v] of Object.entries(says) as [Purpose, 'y' | 'n'][]) {
      if (v === 'n') result[p] = 'disallowed';
      else if (result[p] !== 'disallowed') result[p] = 'allowed';
    }
  };
  if (allowed) {
    const rules = applying.flatMap((g) => g.lines.filter((l): l is Extract<Line, { kind: 'cu' }> => l.kind === 'cu'));
    const length = (pattern: string) => {
      if (pattern === '') return 0;
      const anchored = pattern.endsWith('$');
      const re = new RegExp('^' + (anchored ? pattern.slice(0, -1) : pattern).replace(/[.?]/g, '\\$&').replace(/\*/g, '.*') + (anchored ? '$' : ''));
      return re.test(path) ? pattern.length : -1;
    };
    // The longest matching pattern; of different patterns of that length, the first in file order; its rules combine.
    const best = Math.max(-1, ...rules.map((r) => length(r.pattern)));
    const deciding = rules.find((r) => length(r.pattern) === best)?.pattern;
    for (const r of rules) if (best >= 0 && r.pattern === deciding) add(CONTENT_USAGE[r.says][1]);
    for (const g of applying) for (const l of g.lines) if (l.kind === 'cs') add(CONTENT_SIGNAL[l.says][1]);
  }
  if (headers.cu !== undefined) add(CONTENT_USAGE[headers.cu][1]);
  if (headers.cs !== undefined) add(CONTENT_SIGNAL[headers.cs][1]);
  return result;
}

describe('property: usage() against the plain reference of the rules', () => {
  for (const profile of PROFILES) {
    it(profile, () => {
      fc.assert(
        fc.property(
          fc.array(lineArb, { maxLength: 14 }),
          fc.constantFrom(...CRAWLERS),
          fc.constantFrom(...PATHS),
          fc.option(fc.nat(CONTENT_USAGE.length - 1)),
          fc.option(fc.nat(CONTENT_SIGNAL.length - 1)),
          (lines, agent, p, cu, cs) => {
            const robots = parse(lines.map(text).join('\n'), { profile });
            const headers: Record<string, string> = {};
            if (cu !== null) headers['content-usage'] = CONTENT_USAGE[cu][0];
            if (cs !== null) headers['content-signal'] = CONTENT_SIGNAL[cs][0];
            const u = robots.usage(url(p), agent, { headers });
            expect(u.allowed).toBe(robots.isAllowed(url(p), agent));
            expect(u.purposes).toEqual(referenceUsage(lines, agent, p, u.allowed, { cu: cu ?? undefined, cs: cs ?? undefined }, profile));
            robots.dispose();
          },
        ),
        { numRuns: 1500 },
      );
    });
  }
});

// Group n: names, a rule only it has (Disallow: /gn), a Content-Usage only it has (/un search=n)
// and a Content-Signal only it has (gn=yes, reported, mapping to nothing): the groups usage()
// reads are those whose rules the verdicts apply, for random files and agents.
const names = fc.constantFrom('Agent1', 'Agent2', 'agent', 'FooBot', 'foobot', 'FooBot/1.0', '*', '* x', 'Bar_Bot', 'Agent1 extra', '*bot');
const groupsArb = fc.array(fc.array(names, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 5 });
// (Under rfc an agent must be product tokens; google compares any name whole: "Agent1" names no group.)
const agentsArb = (profile: 'google' | 'rfc') =>
  fc.constantFrom<string | string[]>('Agent', 'FooBot', 'Bar_Bot', 'Nobody', ['FooBot', 'Agent'], ['Nobody', 'Bar_Bot'], ...(profile === 'google' ? ['Agent1', 'FooBot/1.0'] : []));

describe('property: usage() reads the groups whose rules the verdicts apply', () => {
  for (const profile of PROFILES) {
    it(profile, () => {
      fc.assert(
        fc.property(groupsArb, agentsArb(profile), fc.boolean(), (gs, agent, signalFirst) => {
          const body = gs
            .map((agents, i) => {
              const n = i + 1;
              const usage = [`Content-Usage: /u${n} search=n`, `Content-Signal: g${n}=yes`];
              return [...agents.map((a) => `User-agent: ${a}`), ...(signalFirst ? usage : []), `Disallow: /g${n}`, ...(signalFirst ? [] : usage)].join('\n');
            })
            .join('\n\n');
          const robots = parse(body, { profile });
          const all = gs.map((_, i) => i + 1);
          const byVerdict = all.filter((n) => !robots.isAllowed(url(`/g${n}`), agent));
          expect(all.filter((n) => robots.usage(url(`/u${n}`), agent).purposes.search === 'disallowed')).toEqual(byVerdict);
          const signals = robots.usage(url('/x'), agent).signals.filter((s) => s.field === 'content-signal').map((s) => s.value);
          expect(signals).toEqual(byVerdict.map((n) => `g${n}=yes`));
          // usages() for several crawlers gives each its own usage(), as verdicts() gives each its explain().
          const crawlers = [agent, 'Nobody', 'FooBot'];
          expect(robots.usages(url('/u1'), crawlers)).toEqual(crawlers.map((c) => robots.usage(url('/u1'), c)));
          robots.dispose();
        }),
        { numRuns: 1000 },
      );
    });
  }
});

// Other records and diagnostics (DESIGN.md 3.3): sitemaps, crawl-delay,
// Content-Usage, and one diagnostic per ignored or bent line.
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/index.js';

describe('diagnostics', () => {
  const body = new Uint8Array([
    ...new TextEncoder().encode(
      [
        'Disallow: /before-any-group', // 1 rule-outside-group
        'User-agent: *', // 2
        'Dissallow: /typo', // 3 typo
        'Disallow /missing-colon', // 4 missing-colon
        'just some words here', // 5 invalid-line
        'Unicorns: /extinct', // 6 unknown-key
        'Crawl-delay: soon', // 7 invalid-crawl-delay
        'Disallow: /' + 'x'.repeat(17_000), // 8 line-too-long
        '# a comment, and an empty line next', // 9
        '', // 10
        'Allow: /ok', // 11
      ].join('\n') + '\nDisallow: /caf',
    ),
    0xe9, // 12 invalid-utf8 (Latin-1 é)
    0x0a,
  ]);
  const r = parse(body);

  it('reports each bent or ignored line with its number and code', () => {
    const got = r.diagnostics.map((d) => [d.line, d.code]);
    expect(got).toEqual([
      [1, 'rule-outside-group'],
      [3, 'typo'],
      [4, 'missing-colon'],
      [5, 'invalid-line'],
      [6, 'unknown-key'],
      [7, 'invalid-crawl-delay'],
      [8, 'line-too-long'],
      [12, 'invalid-utf8'],
    ]);
    for (const d of r.diagnostics) expect(d.message.length).toBeGreaterThan(10);
    expect(r.diagnostics[1].message).toContain('"Dissallow" accepted as disallow');
  });

  it('still applies the bent lines as Google does', () => {
    expect(r.isAllowed('http://x/typo', 'Bot')).toBe(false);
    expect(r.isAllowed('http://x/missing-colon', 'Bot')).toBe(false);
    expect(r.isAllowed('http://x/before-any-group', 'Bot')).toBe(true);
    expect(r.isAllowed('http://x/caf%E9', 'Bot')).toBe(false);
  });

  it('reports the size limit once, on the last line parsed', () => {
    const big = parse('User-agent: *\n' + 'Disallow: /a\n'.repeat(50_000));
    expect(big.diagnostics.filter((d) => d.code === 'size-limit')).toHaveLength(1);
    expect(parse('User-agent: *\nDisallow: /a\n').diagnostics).toEqual([]);
  });
});

describe('sitemaps', () => {
  const body = 'Sitemap: https://a/s.xml\nUser-agent: *\nDisallow: /\nsitemap: https://a/s.xml\nSite-map: https://a/t.xml\n';
  it('rfc: in order, each once', () => expect(parse(body).sitemaps).toEqual(['https://a/s.xml', 'https://a/t.xml']));
  it('google: every line, as Google reports them', () =>
    expect(parse(body, { profile: 'google' }).sitemaps).toEqual(['https://a/s.xml', 'https://a/s.xml', 'https://a/t.xml']));
});

describe('crawl-delay', () => {
  const body = ['Crawl-delay: 9', 'User-agent: Slow', 'Crawl-delay: 2.5', 'User-agent: Quiet', 'Disallow: /x', 'User-agent: *', 'Crawl-delay: 1'].join('\n');
  const r = parse(body);
  it('the named group first, then *, then the file default', () => {
    expect(r.crawlDelay('Slow')).toBe(2.5);
    expect(r.crawlDelay('Quiet')).toBe(9); // named, without a delay of its own: the file's default
    expect(parse('User-agent: Quiet\nDisallow: /x\nUser-agent: *\nCrawl-delay: 1').crawlDelay('Quiet')).toBeUndefined();
    expect(r.crawlDelay('Other')).toBe(1);
    expect(parse('Crawl-delay: 9\nUser-agent: *\nDisallow: /').crawlDelay('Other')).toBe(9);
    expect(r.crawlDelay(['Nobody', 'Slow'])).toBe(2.5);
  });
});

describe('Content-Usage (AIPREF)', () => {
  const r = parse('User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Usage: /public/ train-ai=y\n\nUser-agent: Special\nContent-Usage: search=y\nDisallow: /x\n');
  it('the longest matching path wins, within the group that applies', () => {
    expect(r.contentUsage('/public/page', 'Bot')).toBe('train-ai=y');
    expect(r.contentUsage('/private', 'Bot')).toBe('train-ai=n');
    expect(r.contentUsage('/public/page', 'Special')).toBe('search=y');
    expect(parse('User-agent: *\nDisallow: /').contentUsage('/', 'Bot')).toBeUndefined();
  });
});

// The reports scripts read: check and explain as JSON, `robots fetch` against
// real HTTP servers on 127.0.0.1, and the defaults a user sees in --help.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUsageError, robots } from '../helpers/cli-run.js';
import { serve, startServer, type TestServer } from '../helpers/http-servers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FILE = path.join(dir, 'robots.txt');
writeFileSync(FILE, 'User-agent: *\nDisallow: /a\nAllow: /a/b\n');

describe('check and explain --format json', () => {
  it('check: one object per URL, with the deciding rule or null', async () => {
    const r = await robots(['check', FILE, 'FooBot', 'http://x/a', 'http://x/a/b', 'http://x/c', '--format', 'json']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([
      { url: 'http://x/a', allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/a', line: 2 }, purposes: { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' }, signals: [] },
      { url: 'http://x/a/b', allowed: true, line: 3, rule: { kind: 'allow', pattern: '/a/b', line: 3 }, purposes: { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' }, signals: [] },
      { url: 'http://x/c', allowed: true, line: 0, rule: null, purposes: { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' }, signals: [] },
    ]);
  });

  it('explain: the path compared, the groups, every matching rule with its length, the verdict and why', async () => {
    const r = await robots(['explain', FILE, 'FooBot', 'http://x/a/b%63', '--format', 'json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      url: 'http://x/a/b%63', path: '/a/bc', crawler: ['FooBot'], profile: 'rfc',
      groups: [{ line: 1, global: true }],
      matches: [
        { line: 2, kind: 'disallow', pattern: '/a', length: 2, viaIndexHtm: false },
        { line: 3, kind: 'allow', pattern: '/a/b', length: 4, viaIndexHtm: false },
      ],
      allowed: true, line: 3, rule: { kind: 'allow', pattern: '/a/b', line: 3 },
      why: 'Line 3 (Allow: /a/b) decides: the longest matching rule wins (length 4).',
      purposes: { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' }, signals: [],
    });
    expectUsageError(await robots(['check', FILE, 'FooBot', 'http://x/a', '--format', 'yaml']), /--format must be text or json/);
  });
});

describe('robots fetch', () => {
  let ok: TestServer;
  let moved: TestServer;
  let missing: TestServer;
  let down: TestServer;
  beforeAll(async () => {
    ok = await startServer(serve('User-agent: *\nDisallow: /private\n'));
    moved = await startServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(301, { location: `${ok.origin}/robots.txt` }).end();
      else res.writeHead(404).end();
    });
    missing = await startServer(serve('not here', {}, 404));
    down = await startServer(serve('busy', { 'retry-after': '120' }, 503));
  });
  afterAll(async () => {
    for (const s of [ok, moved, missing, down]) await s.close();
  });

  it('says what it got and what it means, with the User-Agent given; writes the body with --out', async () => {
    const out = path.join(dir, 'got.txt');
    const r = await robots(['fetch', `${moved.origin}/some/page?x=1`, '--user-agent', 'FooBot/1.0 (+https://foo.example/bot)', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`robots.txt:  ${moved.origin}/robots.txt`);
    expect(r.stdout).toContain('outcome:     ok (http 200): its rules apply');
    expect(r.stdout).toContain(`redirects:   1, to ${ok.origin}/robots.txt`);
    expect(readFileSync(out, 'utf8')).toBe('User-agent: *\nDisallow: /private\n');
    expect(ok.requests.at(-1)!.headers['user-agent']).toBe('FooBot/1.0 (+https://foo.example/bot)');
  });

  it('a 404 is unavailable (all allowed), a 503 unreachable (all disallowed): exit 1; JSON on request', async () => {
    const a = await robots(['fetch', missing.origin]);
    expect(a.status).toBe(1);
    expect(a.stdout).toContain('outcome:     unavailable (http 404): no robots.txt: every URL is allowed');
    const b = await robots(['fetch', down.origin, '--format', 'json']);
    expect(b.status).toBe(1);
    expect(JSON.parse(b.stdout)).toMatchObject({ robotsUrl: `${down.origin}/robots.txt`, status: 'unreachable', httpStatus: 503, retryAfterMs: 120_000, octets: null });
    expectUsageError(await robots(['fetch', 'not a url']), /not an absolute URL/);
    expectUsageError(await robots(['fetch', ok.origin, '--timeout-ms', '0']), /--timeout-ms/);
  });

  it('a scheme it cannot fetch (ftp, file) is a usage error, exit 2 (it was an unreachable robots.txt, exit 1)', async () => {
    expectUsageError(await robots(['fetch', 'ftp://example.com/pub/x']), /fetch takes an http or https URL, got "ftp:"/);
    expectUsageError(await robots(['fetch', 'file:///etc/passwd']), /fetch takes an http or https URL, got "file:"/);
  });
});

describe('robots fetch: what it means for the URL given', () => {
  let site: TestServer;
  let page: TestServer;
  let missing: TestServer;
  let down: TestServer;
  beforeAll(async () => {
    site = await startServer(serve('User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nCrawl-delay: 5\nDisallow: /private\n\nSitemap: https://a.example/sitemap.xml\nSitemap: https://a.example/news.xml\n'));
    page = await startServer(serve('<!DOCTYPE html>\n<html><head><title>Welcome</title></head>\n<body><p>Our shop</p></body></html>\n', { 'content-type': 'text/html' }));
    missing = await startServer(serve('not here', {}, 404));
    down = await startServer(serve('busy', {}, 503));
  });
  afterAll(async () => {
    for (const s of [site, page, missing, down]) await s.close();
  });

  it('the verdict for the URL, the sitemaps and the crawl-delay, for --agent', async () => {
    const r = await robots(['fetch', `${site.origin}/private/x`, '--agent', 'FooBot']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`verdict:     disallowed for FooBot: ${site.origin}/private/x (line 6: Disallow: /private)\n`);
    expect(r.stdout).toContain('sitemaps:    https://a.example/sitemap.xml\n             https://a.example/news.xml\n');
    expect(r.stdout).toContain('crawl-delay: 5 s for FooBot\n');
    // The path a fetch of the URL requests (WHATWG: '\\' is '/'), not the string as written.
    const backslash = await robots(['fetch', `${site.origin}\\private/x`, '--agent', 'FooBot']);
    expect(backslash.stdout).toContain('verdict:     disallowed for FooBot');
    const other = await robots(['fetch', `${site.origin}/public`, '--agent', 'BarBot', '--format', 'json']);
    expect(JSON.parse(other.stdout)).toMatchObject({
      url: `${site.origin}/public`, agent: 'BarBot', allowed: false, line: 2, rule: { kind: 'disallow', pattern: '/', line: 2 },
      sitemaps: ['https://a.example/sitemap.xml', 'https://a.example/news.xml'], crawlDelay: null,
    });
  });

  it('without --agent: the product token of --user-agent, else Googlebot', async () => {
    const foo = await robots(['fetch', `${site.origin}/public`, '--user-agent', 'FooBot/1.0 (+https://foo.example/bot)']);
    expect(foo.stdout).toContain(`verdict:     allowed for FooBot: ${site.origin}/public (no rule matched)\n`);
    const google = await robots(['fetch', site.origin, '--format', 'json']);
    expect(JSON.parse(google.stdout)).toMatchObject({ url: site.origin, agent: 'Googlebot', allowed: false, line: 2 });
  });

  it('no robots.txt: allowed; unreachable: disallowed; both say why', async () => {
    expect((await robots(['fetch', `${missing.origin}/a`, '--agent', 'FooBot'])).stdout).toContain(`verdict:     allowed for FooBot: ${missing.origin}/a (no robots.txt)\n`);
    const down1 = await robots(['fetch', `${down.origin}/a`, '--agent', 'FooBot', '--format', 'json']);
    expect(JSON.parse(down1.stdout)).toMatchObject({ url: `${down.origin}/a`, allowed: false, line: 0, rule: null, sitemaps: [], crawlDelay: null });
    expectUsageError(await robots(['fetch', site.origin, '--agent', '']), /agent/);
  });

  it('an HTML page served as robots.txt: a warning on stderr', async () => {
    const r = await robots(['fetch', `${page.origin}/a`]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`robots: warning: ${page.origin}/robots.txt: this is an HTML page, not a robots.txt (a server that answers /robots.txt with a page?): crawlers find no rules in it\n`);
    expect(r.stdout).toContain(`verdict:     allowed for Googlebot: ${page.origin}/a (no rule matched)\n`);
  });
});

describe('robots classify --robots URL', () => {
  let site: TestServer;
  let down: TestServer;
  let gone: TestServer;
  beforeAll(async () => {
    site = await startServer(serve('User-agent: *\nDisallow: /private\n'));
    down = await startServer(serve('busy', {}, 503));
    gone = await startServer(serve('no', {}, 404));
  });
  afterAll(async () => {
    for (const s of [site, down, gone]) await s.close();
  });
  const urls = path.join(dir, 'classify-urls.txt');
  writeFileSync(urls, '/private/x\n/public\n');

  it('fetches the robots.txt as a crawler does, says what it got, and classifies by it', async () => {
    for (const threads of ['1', '2']) {
      const r = await robots(['classify', '--robots', `${site.origin}/any/page`, '--user-agent', 'FooBot/2.0', '--threads', threads, urls]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('disallowed\t2\t/private/x\nallowed\t0\t/public\n');
      expect(r.stderr).toContain(`robots classify: ${site.origin}/robots.txt: ok (http 200)\n`);
    }
    expect(site.requests.every((q) => q.path === '/robots.txt' && q.headers['user-agent'] === 'FooBot/2.0')).toBe(true);
    expect(site.requests).toHaveLength(2); // once per run, whatever the threads
  });

  it('unreachable (5xx): every URL disallowed; unavailable (4xx): every URL allowed', async () => {
    const a = await robots(['classify', '--robots', down.origin, '--format', 'jsonl', urls]);
    expect(a.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([
      { url: '/private/x', robots: 'unreachable', allowed: false, line: 0, rule: null },
      { url: '/public', robots: 'unreachable', allowed: false, line: 0, rule: null },
    ]);
    expect(a.stderr).toContain('unreachable (http 503): every URL disallowed');
    const b = await robots(['classify', '--robots', gone.origin, urls]);
    expect(b.stdout).toBe('allowed\t0\t/private/x\nallowed\t0\t/public\n');
    expect(b.stderr).toContain('unavailable (http 404): every URL allowed');
  });
});

describe('--help shows the defaults', () => {
  it('classify: the agent Googlebot and the profile rfc, and what rfc is', async () => {
    const help = (await robots(['classify', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('default: Googlebot');
    expect(help).toMatch(/--profile <profile> rfc \(RFC 9309, URLs and rules normalised as RFC 3986 says\) or google \(Googlebot's own parser, bit for bit\) \(default: "rfc"\)/);
  });
});

describe('exit codes, as --help says them', () => {
  it('explain: 0 allowed, 1 disallowed, 2 usage error, as check', async () => {
    for (const command of ['check', 'explain']) {
      const help = (await robots([command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help, command).toMatch(/Exit 0: (all )?allowed; 1: (any )?disallowed; 2: usage error/);
    }
    expect((await robots(['explain', FILE, 'FooBot', 'http://x/a/b'])).status).toBe(0);
    expect((await robots(['explain', FILE, 'FooBot', 'http://x/a'])).status).toBe(1);
    expect((await robots(['explain', FILE, 'FooBot', 'http://x/a', '--format', 'json'])).status).toBe(1);
  });
});

// lint(): the parser's diagnostics plus the mistakes webmasters make that parse
// fine; `robots lint` on a file, a directory, and as JSON.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../../dist/index.js';
import { expectUsageError, robots } from '../helpers/cli-run.js';

/** n random octets from a fixed generator (xorshift32): the same octets every run. */
function randomOctets(n: number): Uint8Array {
  let x = 0x2545f491;
  return Uint8Array.from({ length: n }, () => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return x & 0xff;
  });
}

const codes = (body: string) => lint(body).findings.map((f) => [f.line, f.code, f.severity]);

describe('lint()', () => {
  it('an HTML page served as robots.txt is one finding, not one per line', () => {
    const page = '<!DOCTYPE html>\n<html>\n<head><title>Not found</title></head>\n<body>\n' + '<p>text</p>\n'.repeat(70) + '</body>\n</html>\n';
    const r = lint(page);
    expect(r.findings.map((f) => f.code)).toEqual(['html']);
    expect(r.errors).toBe(1);
    // Markup that does not say it is HTML, but whose lines are mostly not records.
    expect(lint('<div>\n<p>a</p>\n<p>b</p>\n</div>\n').findings.map((f) => f.code)).toEqual(['html']);
    // A robots.txt with a stray tag is linted line by line.
    expect(codes('<br>\nUser-agent: *\nDisallow: /a\n')).toEqual([[1, 'invalid-line', 'error']]);
  });

  it('flags what parses but does not do what was meant', () => {
    const body = [
      'User-agent: Googlebot/2.1', // 1: only "googlebot" is matched
      'Crawl-delay: 10', //            Google ignores it
      'Disallow: private/', //        3: never matches
      'Disallow: /x', //              4
      'Allow: /x', //                 5: both
      'Allow: *.css', //              6: fine (a pattern may start with *)
      'Sitemap: /sitemap.xml', //     7: relative
      'Sitemap: https://example.com/sitemap.xml',
      'User-agent: *',
      'Crawl-delay: 3', //            fine: not Googlebot's
      'Disallow: /y',
    ].join('\n');
    expect(codes(body)).toEqual([
      [1, 'agent-with-version', 'warning'],
      [1, 'crawl-delay-ignored-by-google', 'warning'],
      [3, 'path-without-slash', 'error'],
      [5, 'allowed-and-disallowed', 'warning'],
      [7, 'relative-sitemap', 'warning'],
    ]);
    const r = lint(body);
    expect(r.sitemaps).toEqual(['/sitemap.xml', 'https://example.com/sitemap.xml']);
    expect(r.crawlDelays).toEqual([{ line: 1, agents: 'googlebot', delay: 10 }, { line: 9, agents: '*', delay: 3 }]);
    expect(r.findings[2].message).toBe('"private/" never matches: a path starts with "/" (write "/private/")');
  });

  it('binary octets (random, compressed, UTF-16) are one finding, not one per line; text in any 8-bit encoding is not binary', () => {
    const r = lint(randomOctets(200 * 1024));
    expect(r.findings.map((f) => [f.line, f.code, f.severity])).toEqual([[1, 'binary', 'error']]);
    expect(r.findings[0].message).toMatch(/not a robots\.txt/);
    expect(lint(gzipSync('User-agent: *\nDisallow: /\n'.repeat(50))).findings.map((f) => f.code)).toEqual(['binary']);
    expect(lint(Buffer.from('User-agent: *\nDisallow: /private\n', 'utf16le')).findings.map((f) => f.code)).toEqual(['binary']);
    // Latin-1 and invalid UTF-8 are text (their lines are linted), and so is a stray control octet.
    const latin1 = Buffer.from('# Pr\xfcfung \xe0 \xe9t\xe9\nUser-agent: *\nDisallow: /f\xfcr-\xc4rger\n', 'latin1');
    expect(lint(latin1).findings.map((f) => f.code)).toEqual(['invalid-utf8']);
    expect(lint('User-agent: *\nDisallow: /a\x00\nDisallow: /b\x1b\nDisallow: /c\n# a long enough file for two stray octets to be few of them\n').findings).toEqual([]);
    // A robots.txt with a hole of NULs (the corpus's sgppto: 7,700 of them) is still linted line by line.
    const holed = lint(`User-agent: *\nDisallow: /a\n${'\x00'.repeat(7700)}\nDisallow: b\n`).findings.map((f) => f.code);
    expect(holed).not.toContain('binary');
    expect(holed).toContain('path-without-slash');
  });

  it('a rule written as an absolute URL: the fix is its path (the site unknown, or its own); another site\'s rule says so', () => {
    const body = 'User-agent: *\nDisallow: https://case.edu/studentlife/services-info/*\nDisallow: http://case.edu\nAllow: HTTPS://www.case.edu/a?b=1$\nDisallow: private/\n';
    const msgs = (o = {}) => lint(body, o).findings.map((f) => [f.line, f.code, f.message]);
    expect(msgs()).toEqual([
      [2, 'path-without-slash', '"https://case.edu/studentlife/services-info/*" never matches: a rule is a path, not a URL (write "/studentlife/services-info/*")'],
      [3, 'path-without-slash', '"http://case.edu" never matches: a rule is a path, not a URL (write "/")'],
      [4, 'path-without-slash', '"HTTPS://www.case.edu/a?b=1$" never matches: a rule is a path, not a URL (write "/a?b=1$")'],
      [5, 'path-without-slash', '"private/" never matches: a path starts with "/" (write "/private/")'],
    ]);
    // The file's own host (any case, a port, a trailing dot) gets the same fix.
    expect(msgs({ host: 'CASE.edu.' })[0][2]).toBe(msgs()[0][2]);
    // Another site's URL: a rule here cannot reach it.
    expect(msgs({ host: 'www.case.edu' })[0][2]).toBe('"https://case.edu/studentlife/services-info/*" never matches: a rule is a path of this site, and case.edu is another (for a path of this site, write "/studentlife/services-info/*")');
    expect(msgs({ host: 'www.case.edu' })[2][2]).toBe('"HTTPS://www.case.edu/a?b=1$" never matches: a rule is a path, not a URL (write "/a?b=1$")');
  });

  it('agent-with-version keeps the name as written', () => {
    const f = lint('User-agent: Googlebot/2.1\nUser-agent: AdsBot-Google-Mobile (+http://x)\nDisallow: /\n').findings;
    expect(f.map((x) => x.message)).toEqual([
      'only the product token "Googlebot" of this user-agent is matched: write "User-agent: Googlebot"',
      'only the product token "AdsBot-Google-Mobile" of this user-agent is matched: write "User-agent: AdsBot-Google-Mobile"',
    ]);
  });

  it('a clean file has no findings; the parser\'s diagnostics keep their codes and severities', () => {
    expect(lint('User-agent: *\nDisallow: /private\nAllow: /private/ok\n').findings).toEqual([]);
    expect(codes('Disallow: /early\nUser-agent: *\nDissallow: /typo\nFoo: bar\n')).toEqual([
      [1, 'rule-outside-group', 'error'], [3, 'typo', 'warning'], [4, 'unknown-key', 'warning'],
    ]);
  });
});

describe('robots lint', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-lint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sites = path.join(dir, 'sites');
  mkdirSync(sites);
  writeFileSync(path.join(sites, 'a.example'), 'User-agent: *\nDisallow: /a\n');
  writeFileSync(path.join(sites, 'b.example'), 'User-agent: *\nDisallow: b\n');
  mkdirSync(path.join(sites, 'not-a-file'));

  it('lints every file of a directory, each finding with its file and line; exit 1 when any has errors', async () => {
    const r = await robots(['lint', sites]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${path.join(sites, 'a.example')}: 0 errors, 0 warnings`);
    expect(r.stdout).toContain(`${path.join(sites, 'b.example')}:2: error: "b" never matches`);
    expect((await robots(['lint', path.join(sites, 'a.example')])).status).toBe(0);
    expect(r.stdout).toMatch(/\ntotal: 2 files, 1 error, 0 warnings\n$/);
    expect(r.stderr).toBe('');
  });

  it('a directory with entries that cannot be read (a loop of symbolic links, a dangling link, a FIFO): a warning each, the rest linted, a total; exit 1', async () => {
    const odd = path.join(dir, 'odd');
    mkdirSync(odd);
    writeFileSync(path.join(odd, 'good.example'), 'User-agent: *\nDisallow: /a\nCrawl-delay: 2\n');
    symlinkSync('loop.example', path.join(odd, 'loop.example'));
    symlinkSync('nowhere', path.join(odd, 'dangling.example'));
    const fifo = spawnSync('mkfifo', [path.join(odd, 'fifo.example')]).status === 0;
    const r = await robots(['lint', odd]);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `robots: warning: cannot read ${path.join(odd, 'dangling.example')}: no such file or directory; not linted`,
      ...(fifo ? [`robots: warning: cannot read ${path.join(odd, 'fifo.example')}: not a regular file; not linted`] : []),
      `robots: warning: cannot read ${path.join(odd, 'loop.example')}: too many levels of symbolic links; not linted`,
    ]);
    expect(r.stdout).toContain(`${path.join(odd, 'good.example')}: 0 errors, 0 warnings`);
    expect(r.stdout).toMatch(new RegExp(`\\ntotal: 1 file, 0 errors, 0 warnings; ${fifo ? 3 : 2} entries not read\\n$`));
    // As JSON: the reports of the files read (the warnings on stderr alike).
    const json = await robots(['lint', '--format', 'json', odd]);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).map((x: { file: string }) => path.basename(x.file))).toEqual(['good.example']);
    // A loop given as the file itself is a usage error, not an internal one.
    expectUsageError(await robots(['lint', path.join(odd, 'loop.example')]), /cannot read robots file .*loop\.example: too many levels of symbolic links/);
  });

  it('--format json: one report for a file, a list for a directory', async () => {
    const one = JSON.parse((await robots(['lint', '--format', 'json', path.join(sites, 'b.example')])).stdout);
    expect(one).toMatchObject({ file: path.join(sites, 'b.example'), errors: 1, warnings: 0, findings: [{ line: 2, code: 'path-without-slash', severity: 'error' }] });
    const all = JSON.parse((await robots(['lint', '--format', 'json', sites])).stdout);
    expect(all.map((r: { file: string; errors: number }) => [path.basename(r.file), r.errors])).toEqual([['a.example', 0], ['b.example', 1]]);
    expectUsageError(await robots(['lint', '--format', 'xml', sites]), /--format must be text or json/);
    expectUsageError(await robots(['lint', path.join(dir, 'nope')]), /cannot read robots file/);
  });
});

describe('a file that is not a robots.txt', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-notrobots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const binary = path.join(dir, 'random.bin');
  writeFileSync(binary, randomOctets(200 * 1024));
  const page = path.join(dir, 'page.html');
  writeFileSync(page, '<!DOCTYPE html>\n<html><body>\n<p>Not found</p>\n</body></html>\n');

  it('lint: one finding for 200 KiB of random octets (it printed 3,464 lines)', async () => {
    const r = await robots(['lint', binary]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(`${binary}:1: error: this is binary data, not a robots.txt (compressed, an image, UTF-16, or another file?): crawlers find no rules in it [binary]\n1 error, 0 warnings\n`);
  });

  it('check and explain: a warning on stderr, then the verdicts of a file without rules', async () => {
    for (const [file, what] of [[binary, 'binary data'], [page, 'an HTML page']]) {
      const check = await robots(['check', file, 'Googlebot', 'https://example.com/a']);
      expect(check.status).toBe(0);
      expect(check.stdout).toMatch(/^allowed\t0\thttps:\/\/example\.com\/a\t/);
      expect(check.stderr).toBe(`robots: warning: ${file}: this is ${what}, not a robots.txt ${what === 'binary data' ? '(compressed, an image, UTF-16, or another file?)' : '(a server that answers /robots.txt with a page?)'}: crawlers find no rules in it\n`);
      const explain = await robots(['explain', file, 'Googlebot', 'https://example.com/a']);
      expect(explain.status).toBe(0);
      expect(explain.stderr).toBe(check.stderr);
    }
    // From stdin, named so; and a robots.txt gets no warning.
    expect((await robots(['check', '-', 'Googlebot', 'https://example.com/a'], randomOctets(4096))).stderr).toMatch(/^robots: warning: stdin: this is binary data/);
    expect((await robots(['check', '-', 'Googlebot', 'https://example.com/a'], 'User-agent: *\nDisallow: /b\n')).stderr).toBe('');
  });
});

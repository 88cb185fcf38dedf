// lint(): the parser's diagnostics plus the mistakes webmasters make that parse
// fine; `robots lint` on a file, a directory, and as JSON.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lint } from '../dist/index.js';
import { expectUsageError, robots } from './cli-run.js';

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

  it('lints every file of a directory, each finding with its file and line; exit 1 when any has errors', () => {
    const r = robots(['lint', sites]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${path.join(sites, 'a.example')}: 0 errors, 0 warnings`);
    expect(r.stdout).toContain(`${path.join(sites, 'b.example')}:2: error: "b" never matches`);
    expect(robots(['lint', path.join(sites, 'a.example')]).status).toBe(0);
    expect(r.stdout).toMatch(/\ntotal: 2 files, 1 error, 0 warnings\n$/);
    expect(r.stderr).toBe('');
  });

  it('a directory with entries that cannot be read (a loop of symbolic links, a dangling link, a FIFO): a warning each, the rest linted, a total; exit 1', () => {
    const odd = path.join(dir, 'odd');
    mkdirSync(odd);
    writeFileSync(path.join(odd, 'good.example'), 'User-agent: *\nDisallow: /a\nCrawl-delay: 2\n');
    symlinkSync('loop.example', path.join(odd, 'loop.example'));
    symlinkSync('nowhere', path.join(odd, 'dangling.example'));
    const fifo = spawnSync('mkfifo', [path.join(odd, 'fifo.example')]).status === 0;
    const r = robots(['lint', odd]);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      `robots: warning: cannot read ${path.join(odd, 'dangling.example')}: no such file or directory; not linted`,
      ...(fifo ? [`robots: warning: cannot read ${path.join(odd, 'fifo.example')}: not a regular file; not linted`] : []),
      `robots: warning: cannot read ${path.join(odd, 'loop.example')}: too many levels of symbolic links; not linted`,
    ]);
    expect(r.stdout).toContain(`${path.join(odd, 'good.example')}: 0 errors, 0 warnings`);
    expect(r.stdout).toMatch(new RegExp(`\\ntotal: 1 file, 0 errors, 0 warnings; ${fifo ? 3 : 2} entries not read\\n$`));
    // As JSON: the reports of the files read (the warnings on stderr alike).
    const json = robots(['lint', '--format', 'json', odd]);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).map((x: { file: string }) => path.basename(x.file))).toEqual(['good.example']);
    // A loop given as the file itself is a usage error, not an internal one.
    expectUsageError(robots(['lint', path.join(odd, 'loop.example')]), /cannot read robots file .*loop\.example: too many levels of symbolic links/);
  });

  it('--format json: one report for a file, a list for a directory', () => {
    const one = JSON.parse(robots(['lint', '--format', 'json', path.join(sites, 'b.example')]).stdout);
    expect(one).toMatchObject({ file: path.join(sites, 'b.example'), errors: 1, warnings: 0, findings: [{ line: 2, code: 'path-without-slash', severity: 'error' }] });
    const all = JSON.parse(robots(['lint', '--format', 'json', sites]).stdout);
    expect(all.map((r: { file: string; errors: number }) => [path.basename(r.file), r.errors])).toEqual([['a.example', 0], ['b.example', 1]]);
    expectUsageError(robots(['lint', '--format', 'xml', sites]), /--format must be text or json/);
    expectUsageError(robots(['lint', path.join(dir, 'nope')]), /cannot read robots file/);
  });
});

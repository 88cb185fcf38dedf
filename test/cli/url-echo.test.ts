// A URL holding control characters (tab, CR, LF, ESC…) is echoed percent-encoded
// (%09, %0D, %0A, %1B: C0 controls as WHATWG's percent-encoding writes them) by
// every command and format, so line-oriented output keeps one line per URL and
// TSV keeps its columns; the verdict is still the URL's as given.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-url-echo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROBOTS = path.join(dir, 'robots.txt');
writeFileSync(ROBOTS, 'User-agent: *\nDisallow: /a\n');

// Inside a line: tab, CR, ESC, NUL, VT; a tab and a CR at the ends are trimmed, as
// is a CRLF's CR. (LF ends an input line, so it cannot be inside one.)
const INPUT = 'https://x.example/a\tb\nhttps://x.example/b\rc\r\n\thttps://x.example/c\x1b[31mred\x00\x0bz\t\r\nhttps://x.example/plain\n';
const ECHOED = ['https://x.example/a%09b', 'https://x.example/b%0Dc', 'https://x.example/c%1B[31mred%00%0Bz', 'https://x.example/plain'];
const VERDICTS = [['disallowed', '2'], ['allowed', '0'], ['allowed', '0'], ['allowed', '0']];

describe('classify', () => {
  for (const threads of ['1', '2']) {
    it(`TSV: three columns a line, the URL escaped (--threads ${threads})`, async () => {
      const r = await robots(['classify', '--robots', ROBOTS, '--threads', threads, '-q', '-'], INPUT);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(ECHOED.map((u, i) => `${VERDICTS[i].join('\t')}\t${u}\n`).join(''));
    });

    it(`JSON lines: the url field escaped alike (--threads ${threads})`, async () => {
      const r = await robots(['classify', '--robots', ROBOTS, '--threads', threads, '-q', '--format', 'jsonl', '-'], INPUT);
      const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.url, l.allowed])).toEqual(ECHOED.map((u, i) => [u, VERDICTS[i][0] === 'allowed']));
    });

    it(`--crawlers: TSV and JSON lines escape the URL too (--threads ${threads})`, async () => {
      const tsv = await robots(['classify', '--robots', ROBOTS, '--crawlers', 'FooBot,BarBot', '--threads', threads, '-q', '-'], INPUT);
      expect(tsv.stdout).toBe(['url\tFooBot\tBarBot', ...ECHOED.map((u, i) => `${u}\t${VERDICTS[i][0]}\t${VERDICTS[i][0]}`)].join('\n') + '\n');
      const json = await robots(['classify', '--robots', ROBOTS, '--crawlers', 'FooBot,BarBot', '--threads', threads, '-q', '--format', 'jsonl', '-'], INPUT);
      expect(json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).url)).toEqual(ECHOED);
    });
  }

  it('--robots-dir: among 5,000 URLs, the one with a tab is escaped and the others are as written', async () => {
    const hosts = path.join(dir, 'hosts');
    mkdirSync(hosts);
    writeFileSync(path.join(hosts, 'x.example'), 'User-agent: *\nDisallow: /a\n');
    const many = Array.from({ length: 5000 }, (_, i) => `https://x.example/${i % 2 ? 'a' : 'b'}/${i}`);
    const input = [...many.slice(0, 2500), 'https://x.example/a\tz', ...many.slice(2500)].join('\n') + '\n';
    const r = await robots(['classify', '--robots-dir', hosts, '-q', '-'], input);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5001);
    expect(lines.every((l) => l.split('\t').length === 3)).toBe(true);
    expect(lines[2500]).toBe('disallowed\t2\thttps://x.example/a%09z');
    expect(lines[0]).toBe('allowed\t0\thttps://x.example/b/0');
    expect(lines[5000]).toBe('disallowed\t2\thttps://x.example/a/4999');
  });
});

describe('check, explain, fetch', () => {
  const url = 'https://x.example/a\r\nSet-Cookie: x\tb';
  const shown = 'https://x.example/a%0D%0ASet-Cookie: x%09b';

  it('check: text and JSON', async () => {
    const r = await robots(['check', ROBOTS, 'FooBot', url, 'https://x.example/ok']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe(`disallowed\t2\t${shown}\tDisallow: /a\nallowed\t0\thttps://x.example/ok\t(no rule matched)\n`);
    // A rule with a tab in it (its last column) keeps the row's four columns too.
    const tabbed = path.join(dir, 'tabbed.txt');
    writeFileSync(tabbed, 'User-agent: *\nDisallow: /x\ty\n');
    expect((await robots(['check', tabbed, 'FooBot', 'https://x.example/x\ty'])).stdout).toBe('disallowed\t2\thttps://x.example/x%09y\tDisallow: /x%09y\n');
    const json = await robots(['check', ROBOTS, 'FooBot', url, '--format', 'json']);
    expect(JSON.parse(json.stdout)[0].url).toBe(shown);
  });

  it('explain: text and JSON', async () => {
    const r = await robots(['explain', ROBOTS, 'FooBot', url]);
    expect(r.stdout.split('\n')[0]).toBe(`URL:      ${shown}`);
    expect(r.stdout).not.toMatch(/[\r\t]/);
    expect(r.stdout.trimEnd().split('\n').every((l) => /^(URL|Path|Crawler|Group|Verdict|Purposes): |^Rules|^ {2}line \d+: /.test(l))).toBe(true);
    expect(JSON.parse((await robots(['explain', ROBOTS, 'FooBot', url, '--format', 'json'])).stdout).url).toBe(shown);
    // A use preference with a tab inside its value keeps the line one line, as a URL does.
    const signal = path.join(dir, 'signal.txt');
    writeFileSync(signal, 'User-agent: *\nContent-Signal: search =\tyes, a\tb=no\n');
    const s = await robots(['explain', signal, 'FooBot', 'https://x.example/']);
    expect(s.stdout).not.toMatch(/\t/);
    expect(s.stdout).toContain('  line 2: Content-Signal: search =%09yes  (search allowed)\n  line 2: Content-Signal: a%09b=no  (speaks to no purpose: ignored)\n');
  });

  it('fetch: the verdict line (the robots.txt URL is WHATWG\'s, which drops them)', async () => {
    const r = await robots(['fetch', 'http://127.0.0.1:9/a\tb', '--timeout-ms', '2000']);
    expect(r.stdout).toContain('verdict:     disallowed for Googlebot: http://127.0.0.1:9/a%09b (robots.txt unreachable)\n');
    expect(r.stdout).toContain('robots.txt:  http://127.0.0.1:9/robots.txt\n');
    const json = await robots(['fetch', 'http://127.0.0.1:9/a\tb', '--timeout-ms', '2000', '--format', 'json']);
    expect(JSON.parse(json.stdout).url).toBe('http://127.0.0.1:9/a%09b');
  });
});

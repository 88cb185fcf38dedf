// Under rfc a Content-Usage line is a rule (draft-ietf-aipref-attach-05): it ends its
// group's user-agent lines; under google the groups are Google's parser's. The CLI says
// what the library says: `robots explain` on the example in both profiles, and
// `robots classify --crawlers` (verdicts, lines, purposes) on random files of groups of
// crawlers, control tokens, rules and use lines, in both profiles.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../dist/index.js';
import { robots } from '../helpers/cli-run.js';
import { writeSites } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-usage-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXAMPLE = 'User-agent: Googlebot\nContent-Usage: search=y, train-ai=n\n\nUser-agent: *\nDisallow: /x\nContent-Usage: search=n\n';
const example = path.join(dir, 'example.txt');

// Random files: groups of crawlers and control tokens, rules, Content-Usage and Content-Signal lines in any order.
const line = fc.constantFrom(
  'User-agent: Googlebot', 'User-agent: GPTBot', 'User-agent: Google-Extended', 'User-agent: Applebot-Extended', 'User-agent: *', 'User-agent: FooBot',
  'Disallow: /a', 'Allow: /a/b', 'Disallow: /x', 'Disallow:',
  'Content-Usage: train-ai=n', 'Content-Usage: /a search=n', 'Content-Usage: search=y, train-ai=y', 'content-usage: /x train-ai=n',
  'Content-Signal: search=no', 'Content-Signal: ai-train=yes', 'Crawl-delay: 1', '',
);
const files: Record<string, string> = Object.fromEntries(
  fc.sample(fc.array(line, { maxLength: 16 }), { numRuns: 60, seed: 40 }).map((ls, i) => [`h${i}.example`, ls.join('\n') + '\n']),
);
files['example.example'] = EXAMPLE;
const PATHS = ['/', '/a', '/a/b', '/x', '/y'];
const URLS = Object.keys(files).flatMap((h) => PATHS.map((p) => `https://${h}${p}`));
const CRAWLERS = ['Googlebot', 'GPTBot', 'FooBot', 'Applebot'];
const urlsFile = path.join(dir, 'urls.txt');

beforeAll(async () => {
  writeFileSync(example, EXAMPLE);
  await writeSites(dir, files, URLS, urlsFile);
});

describe('a Content-Usage line ends its group under rfc, not under google: the CLI', () => {
  it('robots explain on the issue\'s example: rfc gives Googlebot its own group (/x allowed, search allowed, train-ai disallowed); google one group with `*`', async () => {
    const rfc = await robots(['explain', example, 'Googlebot', 'https://e.example/x', '--profile', 'rfc']);
    expect(rfc.status, rfc.stderr).toBe(0);
    expect(rfc.stdout).toContain('Group:    the group for Googlebot at line 1 applies');
    expect(rfc.stdout).toContain('Verdict:  ALLOWED');
    expect(rfc.stdout).toMatch(/Purposes: search allowed, train-ai disallowed/);
    const google = await robots(['explain', example, 'Googlebot', 'https://e.example/x', '--profile', 'google']);
    expect(google.status, google.stderr).toBe(1);
    expect(google.stdout).toContain('Verdict:  DISALLOWED');
    const googleY = await robots(['explain', example, 'Googlebot', 'https://e.example/y', '--profile', 'google']);
    expect(googleY.stdout).toMatch(/Purposes: search disallowed, train-ai disallowed/);
  });

  for (const profile of ['rfc', 'google'] as const) {
    it(`robots classify --crawlers on random files: each crawler's verdict, line and purposes are the library's (${profile})`, async () => {
      const parsed = new Map(Object.entries(files).map(([h, body]) => [h, parse(body, { profile })]));
      for (const threads of ['1', '2']) {
        const r = await robots(['classify', '--robots-dir', path.join(dir, 'robots'), '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', '--threads', threads, '-q', urlsFile]);
        expect(r.status, r.stderr).toBe(0);
        const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; crawlers: Record<string, { allowed: boolean; line: number; usage: unknown }> });
        expect(lines.map((l) => l.url)).toEqual(URLS);
        for (const l of lines) {
          const robotsTxt = parsed.get(new URL(l.url).host)!;
          for (const c of CRAWLERS) {
            const u = robotsTxt.usage(l.url, c);
            expect(l.crawlers[c], `${threads} ${c} ${l.url}`).toEqual({ allowed: u.allowed, line: u.line, usage: u.purposes });
          }
        }
      }
      // The example's boundary, as the CLI gives it.
      const googlebot = parsed.get('example.example')!.usage('https://example.example/x', 'Googlebot');
      expect([googlebot.allowed, googlebot.purposes.search]).toEqual(profile === 'rfc' ? [true, 'allowed'] : [false, 'unknown']);
    });
  }
});

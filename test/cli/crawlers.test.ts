// robots classify --crawlers A,B,C: one verdict per crawler for each URL, equal
// to what a run for that crawler alone says (verdict and line), whatever the
// source of robots.txt (--robots, --robots-dir, --robots-warc), the format and
// the threads; and RobotsTxt.verdicts, the library's way to the same.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../dist/index.js';
import { robots } from '../helpers/cli-run.js';
import { writeSites } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-crawlers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CRAWLERS = ['GPTBot', 'CCBot', 'ClaudeBot', 'Googlebot', 'Google-Extended'];

/** Files where the crawlers have groups of their own, share one, or fall to `*`. */
const FILES: Record<string, string> = {
  'a.example': 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nUser-agent: ClaudeBot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /admin\n',
  'b.example': 'User-agent: *\nDisallow: /x\nAllow: /x/y$\n',
  'c.example': 'User-agent: Googlebot\nAllow: /\nDisallow: /nogoogle\n\nUser-agent: Google-Extended\nDisallow: /\n',
  'd.example': '',
};
const PATHS = ['/', '/private', '/private/open/a', '/admin/x', '/x', '/x/y', '/x/y/z', '/nogoogle', '/robots.txt', '/a?q=%41'];
const URLS = Object.keys(FILES).flatMap((h) => PATHS.map((p) => `https://${h}${p}`)).concat(['https://none.example/admin', 'not a url']);
const urlsFile = path.join(dir, 'urls.txt');

beforeAll(async () => {
  await writeSites(dir, FILES, URLS, urlsFile);
});

const sources = () => [
  ['--robots-dir', path.join(dir, 'robots')],
  ['--robots-warc', path.join(dir, 'r.warc.gz')],
];

type Alone = { url: string; allowed: boolean; line: number; robots: string }[];
/** Each crawler's own run (one thread) by profile and source: the same runs for either thread count of --crawlers, made once. */
const aloneRuns = new Map<string, Promise<Alone[]>>();

describe('robots classify --crawlers', () => {
  for (const profile of ['rfc', 'google']) {
    for (const threads of ['1', '2']) {
      it(`each crawler's verdicts and lines are its own run's (${profile}, ${threads} thread(s), --robots-dir and --robots-warc, TSV and JSON)`, async () => {
        for (const source of sources()) {
          // Each crawler's own run, all at once (independent runs: a busy machine shares its cores among them).
          const key = `${profile} ${source[0]}`;
          if (!aloneRuns.has(key)) {
            aloneRuns.set(key, Promise.all(CRAWLERS.map(async (c) => {
              const r = await robots(['classify', ...source, '--agent', c, '--profile', profile, '--format', 'jsonl', '-q', urlsFile]);
              expect(r.status).toBe(0);
              return r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Alone[number]);
            })));
          }
          const alone = await aloneRuns.get(key)!;
          const all = await robots(['classify', ...source, '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', '--threads', threads, urlsFile]);
          expect(all.status).toBe(0);
          const lines = all.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
          expect(lines.map((l) => l.url)).toEqual(URLS);
          lines.forEach((l, i) => {
            expect(Object.keys(l.crawlers)).toEqual(CRAWLERS);
            expect(l.robots).toBe(alone[0][i].robots);
            // (No Content-Usage or Content-Signal line in these files: every purpose unknown but what Google-Extended
            // states for Googlebot (usage()'s; test/cli/usage.test.ts has files with use lines).)
            const host = /^https:\/\/([^/]+)/.exec(l.url)?.[1];
            const usage = (c: string) => (host !== undefined && FILES[host] !== undefined ? parse(FILES[host], { profile: profile as 'rfc' }).usage(l.url, c).purposes : { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' });
            CRAWLERS.forEach((c, j) => expect(l.crawlers[c], `${c} ${l.url}`).toEqual({ allowed: alone[j][i].allowed, line: alone[j][i].line, usage: usage(c) }));
          });
          // The summary counts each crawler's verdicts.
          CRAWLERS.forEach((c, j) => {
            const allowed = alone[j].filter((v) => v.allowed).length;
            expect(all.stderr).toContain(`${c}: ${allowed.toLocaleString('en-US')} allowed, ${(URLS.length - allowed).toLocaleString('en-US')} disallowed`);
          });
          const tsv = await robots(['classify', ...source, '--crawlers', CRAWLERS.join(','), '--profile', profile, '--threads', threads, '-q', urlsFile]);
          const rows = tsv.stdout.trimEnd().split('\n');
          expect(rows[0]).toBe(['url', ...CRAWLERS].join('\t'));
          expect(rows.slice(1)).toEqual(lines.map((l) => [l.url, ...CRAWLERS.map((c) => (l.crawlers[c].allowed ? 'allowed' : 'disallowed'))].join('\t')));
        }
      });
    }
  }

  it('with one robots.txt (--robots), from stdin, into --out', async () => {
    const file = path.join(dir, 'robots', 'a.example');
    const out = path.join(dir, 'out.tsv');
    const r = await robots(['classify', '--robots', file, '--crawlers', 'GPTBot', '--crawlers', 'CCBot', '--out', out], 'https://a.example/private\nhttps://a.example/admin\n');
    expect(r.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('url\tGPTBot\tCCBot\nhttps://a.example/private\tdisallowed\tdisallowed\nhttps://a.example/admin\tdisallowed\tallowed\n');
  });

  it('names are one crawler case aside, as the groups compare them: one column each, under the first spelling given', async () => {
    const file = path.join(dir, 'robots', 'a.example');
    const r = await robots(['classify', '--robots', file, '--crawlers', 'GPTBot,gptbot,CCBot', '--crawlers', 'GPTBOT,ccbot', '--format', 'jsonl'], 'https://a.example/admin\n');
    expect(r.status).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).crawlers)).toEqual(['GPTBot', 'CCBot']);
    expect(r.stderr).toMatch(/GPTBot: 0 allowed, 1 disallowed; CCBot: 1 allowed, 0 disallowed/);
    const tsv = await robots(['classify', '--robots', file, '--crawlers', 'gptbot,GPTBot', '-q'], 'https://a.example/admin\n');
    expect(tsv.stdout).toBe('url\tgptbot\nhttps://a.example/admin\tdisallowed\n');
  });

  it('usage errors: --crawlers with --agent, a name that is no product token under rfc, too many, none', async () => {
    const base = ['classify', '--robots-dir', path.join(dir, 'robots')];
    for (const [args, message] of [
      [['--crawlers', 'A', '--agent', 'B'], /--agent .* or --crawlers .*not both/],
      [['--crawlers', 'GPTBot/1.0'], /invalid agent "GPTBot\/1.0"/],
      [['--crawlers', Array.from({ length: 257 }, (_, k) => `Bot${String.fromCharCode(97 + (k % 26))}${'x'.repeat(k)}`).join(',')], /at most 256 crawlers/],
      [['--crawlers', ','], /--crawlers needs a crawler name/],
    ] as [string[], RegExp][]) {
      const r = await robots([...base, ...args], 'https://a.example/\n');
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('RobotsTxt.verdicts', () => {
  it('gives each crawler explain()’s verdict, in order, for any rules and URL (both profiles)', () => {
    const name = fc.constantFrom('GPTBot', 'CCBot', 'ClaudeBot', 'FooBot', 'Googlebot');
    const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.constantFrom('/', '/a', '/a*', '/b$', '/a/b', '')).map(([k, p]) => `${k}: ${p}`);
    const group = fc.tuple(fc.array(fc.oneof(name, fc.constant('*')), { minLength: 1, maxLength: 2 }), fc.array(rule, { maxLength: 4 }))
      .map(([agents, rules]) => agents.map((a) => `User-agent: ${a}`).concat(rules).join('\n'));
    fc.assert(
      fc.property(fc.array(group, { maxLength: 4 }), fc.array(name, { minLength: 1, maxLength: 5 }), fc.constantFrom('/', '/a', '/a/b', '/b', '/c'), fc.constantFrom('rfc', 'google'), (groups, crawlers, p, profile) => {
        const r = parse(groups.join('\n\n'), { profile: profile as 'rfc' | 'google' });
        expect(r.verdicts(`https://e.com${p}`, crawlers)).toEqual(crawlers.map((c) => r.explain(`https://e.com${p}`, c)));
      }),
      { numRuns: 400 },
    );
    const r = parse('User-agent: *\nDisallow: /\n');
    const [a, b] = r.verdicts('/x', ['FooBot', 'BarBot']);
    expect(a).not.toBe(b); // copies: one may be changed without the other
    expect(() => r.verdicts('/x', 'FooBot' as never)).toThrow(TypeError);
  });
});

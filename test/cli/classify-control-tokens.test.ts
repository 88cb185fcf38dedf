// robots classify --crawlers with purposes counts control tokens as usage()
// does by default (src/engine/usage/control-tokens.ts): Googlebot's train-ai and
// ai-use follow Google-Extended's verdict, Applebot's train-ai
// Applebot-Extended's, a crawler no operator lists none. Files where the
// control token has a group of its own (disallowing all, some paths, or
// nothing), where only `*` speaks for it, where the crawler's own group differs
// from `*`, and where Content-Usage lines combine with it; every source
// (--robots, --robots-dir, --robots-warc, --robots-warc-list, --robots-index),
// JSON lines and TSV, 1 and 2 threads, both profiles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from '../../dist/index.js';
import { robots } from '../helpers/cli-run.js';
import { writeEverySource } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-control-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PURPOSES = ['search', 'train-ai', 'ai-use'] as const;
const CRAWLERS = ['Googlebot', 'GoogleOther', 'Applebot', 'GPTBot', 'Google-Extended'];

const FILES: Record<string, string> = {
  // The case: a file that names Google-Extended alone.
  'extended-only.example': 'User-agent: Google-Extended\nDisallow: /\n',
  'extended-some.example': 'User-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow: /private\nAllow: /private/ok\n',
  'extended-allows.example': 'User-agent: Google-Extended\nAllow: /\n\nUser-agent: *\nDisallow: /x\n',
  // No group for the control tokens: `*` disallows /x for them, Googlebot's own group allows it.
  'star-only.example': 'User-agent: Googlebot\nUser-agent: Applebot\nAllow: /\n\nUser-agent: *\nDisallow: /x\n',
  'with-usage.example': 'User-agent: Googlebot\nContent-Usage: train-ai=y, search=y\nContent-Usage: /x ai-use=y\nAllow: /\n\nUser-agent: Google-Extended\nDisallow: /x/no\n',
  'same-group.example': 'User-agent: Googlebot\nUser-agent: Google-Extended\nDisallow: /x\n',
  'plain.example': 'User-agent: *\nDisallow: /private\n',
};
const PATHS = ['/', '/x', '/x/no', '/private', '/private/ok', '/y'];
const URLS = Object.keys(FILES).flatMap((h) => PATHS.map((p) => `https://${h}${p}`));
const urlsFile = path.join(dir, 'urls.txt');

interface CrawlerLine {
  allowed: boolean;
  line: number;
  usage: Record<(typeof PURPOSES)[number], string>;
}

/** Each source's arguments: the same sites as a folder, a WARC, a WARC list and an index. */
let sources: string[][] = [];
beforeAll(async () => {
  sources = await writeEverySource(dir, FILES, URLS, urlsFile);
});

/** usage() with the shipped operators (the default), per URL and crawler. */
function expected(files: Record<string, string>, profile: 'rfc' | 'google'): CrawlerLine[][] {
  const parsed = new Map(Object.entries(files).map(([h, body]) => [h, parse(body, { profile })]));
  return URLS.map((url) => CRAWLERS.map((c) => {
    const u = parsed.get(new URL(url).host)!.usage(url, c);
    return { allowed: u.allowed, line: u.line, usage: u.purposes };
  }));
}

describe('robots classify --crawlers: control tokens count as in usage()', () => {
  it("a file naming Google-Extended alone: Googlebot's train-ai and ai-use disallowed, as usage() says", async () => {
    const r = await robots(['classify', '--robots', path.join(dir, 'robots', 'extended-only.example'), '--crawlers', 'Googlebot,GPTBot', '--usage'], 'https://e.example/a\n');
    expect(r.status, r.stderr).toBe(0);
    const u = parse(FILES['extended-only.example']).usage('https://e.example/a', 'Googlebot');
    expect(u.purposes).toEqual({ search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'disallowed' });
    expect(r.stdout.split('\n')[1]).toBe('https://e.example/a\tallowed\tunknown\tdisallowed\tdisallowed\tallowed\tunknown\tunknown\tunknown');
    expect(r.stderr).toContain('robots classify: Googlebot: purposes (URLs): search 0 disallowed, 0 allowed; train-ai 1 disallowed, 0 allowed; ai-use 1 disallowed, 0 allowed\n');
  });

  for (const profile of ['rfc', 'google'] as const) {
    it(`every source, JSON lines and TSV, 1 and 2 threads: each crawler's verdict and purposes are usage()'s (${profile})`, async () => {
      const want = expected(FILES, profile);
      // The control tokens change answers here: a test that can fail.
      const without = URLS.map((url) => CRAWLERS.map((c) => parse(FILES[new URL(url).host], { profile }).usage(url, c, { operators: [] }).purposes));
      expect(want.map((w) => w.map((x) => x.usage))).not.toEqual(without);
      for (const source of sources) {
        for (const threads of ['1', '2']) {
          const what = `${source[0]} --threads ${threads}`;
          const json = await robots(['classify', ...source, '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', '--threads', threads, '-q', urlsFile]);
          expect(json.status, json.stderr).toBe(0);
          const lines = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; crawlers: Record<string, CrawlerLine> });
          expect(lines.map((l) => l.url)).toEqual(URLS);
          lines.forEach((l, i) => CRAWLERS.forEach((c, j) => expect(l.crawlers[c], `${what} ${c} ${l.url}`).toEqual(want[i][j])));
          const tsv = await robots(['classify', ...source, '--crawlers', CRAWLERS.join(','), '--usage', '--profile', profile, '--threads', threads, '-q', urlsFile]);
          expect(tsv.status, tsv.stderr).toBe(0);
          expect(tsv.stdout.trimEnd().split('\n').slice(1), what).toEqual(URLS.map((u, i) => [u, ...want[i].flatMap((w) => [w.allowed ? 'allowed' : 'disallowed', ...PURPOSES.map((p) => w.usage[p])])].join('\t')));
        }
      }
      // One robots.txt for all, each file in turn.
      for (const host of Object.keys(FILES)) {
        const one = await robots(['classify', '--robots', path.join(dir, 'robots', host), '--crawlers', CRAWLERS.join(','), '--profile', profile, '--format', 'jsonl', '-q', urlsFile]);
        expect(one.status, one.stderr).toBe(0);
        const lib = parse(FILES[host], { profile });
        one.stdout.trimEnd().split('\n').forEach((text, i) => {
          const l = JSON.parse(text) as { url: string; crawlers: Record<string, CrawlerLine> };
          expect(l.url).toBe(URLS[i]);
          for (const c of CRAWLERS) {
            const u = lib.usage(l.url, c);
            expect(l.crawlers[c], `--robots ${host} ${c} ${l.url}`).toEqual({ allowed: u.allowed, line: u.line, usage: u.purposes });
          }
        });
      }
    });
  }
});

// robots classify --shard i/N: N runs, each keeping the URLs of its hosts,
// together give the unsharded run: every line in exactly one shard, each
// shard in input order, all URLs of a host in one shard; with one robots.txt
// or a directory, --crawlers, 1 and 2 threads.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CORPUS = path.join(path.dirname(new URL(import.meta.url).pathname), '../..', 'corpus');
const rulesFile = path.join(dir, 'robots.txt');
writeFileSync(rulesFile, 'User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: GPTBot\nDisallow: /\n');
// 600 hosts, URLs interleaved (a crawl log is not sorted by host), some without a host.
const urls: string[] = [];
for (let k = 0; k < 3000; k++) {
  const h = (k * 7919) % 600;
  urls.push(k % 97 === 0 ? 'not a url' : `https://h${h}.example${['/private/x', '/private/open/y', '/page', '/'][k % 4]}?k=${k}`);
}
const urlsFile = path.join(dir, 'urls.txt');
writeFileSync(urlsFile, urls.join('\n') + '\n');

const hostOf = (line: string) => /https:\/\/([^/]+)/.exec(line)?.[1] ?? '';

// The shard counts run at each thread count: 1 (all), 3 and 7 with one thread; with two, 7 alone (more shards than
// the directory's hosts, so some empty, and the hosts spread); two crawlers share the one file's sharding, so 3 shows
// their header in each shard. A run is a start of the command: fewer, where another count shows nothing new.
const SHARDS: Record<string, number[]> = { '1': [1, 3, 7], '2': [7] };
const CRAWLER_SHARDS: Record<string, number[]> = { '1': [3], '2': [3] };

describe('robots classify --shard', () => {
  for (const [label, source, counts] of [
    ['one robots.txt', ['--robots', rulesFile], SHARDS],
    ['a directory', ['--robots-dir', path.join(CORPUS, 'robots')], SHARDS],
    ['one robots.txt, two crawlers', ['--robots', rulesFile, '--crawlers', 'GPTBot,CCBot'], CRAWLER_SHARDS],
  ] as [string, string[], Record<string, number[]>][]) {
    for (const threads of ['1', '2']) {
      it(`the shards' union is the whole run (${label}, ${threads} thread(s))`, async () => {
        const input = label === 'a directory' ? path.join(CORPUS, 'urls.txt') : urlsFile;
        const whole = await robots(['classify', ...source, '--threads', threads, '-q', input]);
        expect(whole.status).toBe(0);
        const all = whole.stdout.trimEnd().split('\n');
        const header = source.includes('--crawlers') ? all.shift() : undefined;
        for (const n of counts[threads]) {
          const seen = new Map<string, number>(); // host -> shard
          const merged: { line: string; shard: number }[] = [];
          for (let i = 0; i < n; i++) {
            const r = await robots(['classify', ...source, '--shard', `${i}/${n}`, '--threads', threads, '-q', input]);
            expect(r.status).toBe(0);
            const lines = r.stdout === '' ? [] : r.stdout.trimEnd().split('\n');
            if (header !== undefined) expect(lines.shift()).toBe(header);
            // In input order: a subsequence of the whole run.
            let at = 0;
            for (const line of lines) {
              while (at < all.length && all[at] !== line) at++;
              expect(at, `shard ${i}/${n} keeps input order`).toBeLessThan(all.length);
              at++;
              const host = hostOf(line);
              expect(seen.get(host) ?? i, `host ${host} in one shard`).toBe(i);
              seen.set(host, i);
              merged.push({ line, shard: i });
            }
          }
          expect(merged.map((m) => m.line).sort()).toEqual([...all].sort());
          if (n > 1 && label !== 'a directory') expect(new Set(merged.map((m) => m.shard)).size).toBe(n); // the hosts spread
        }
      }, 60_000);
    }
  }

  it('usage errors', async () => {
    for (const bad of ['3/3', '-1/2', 'a/b', '1', '0/0', '1/2/3']) {
      const r = await robots(['classify', '--robots', rulesFile, '--shard', bad], 'https://e.com/\n');
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toMatch(/--shard must be i\/N/);
    }
  });
});

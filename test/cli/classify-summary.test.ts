// robots classify's summary and guards: counts a person can trust, the cache
// per thread (a split cache thrashed), a warning when it thrashes anyway, an
// ETA from the average rate, and stdin asked for twice.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { remaining } from '../../src/cli/progress.js';
import { expectUsageError, robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sites = path.join(dir, 'robots');
mkdirSync(sites);
// 600 hosts whose compiled rules weigh more than 1 MiB per thread of 2 (each keeps its share).
const HOSTS = 600;
for (let h = 0; h < HOSTS; h++) {
  writeFileSync(path.join(sites, `h${h}.example`), 'User-agent: *\n' + Array.from({ length: 60 }, (_, i) => `Disallow: /p${i}/*/x${h}`).join('\n') + '\n');
}
/** Every host's URLs spread over the input, as a crawl log is. */
const urls = Array.from({ length: 4 * HOSTS }, (_, i) => `http://h${(i * 7) % HOSTS}.example/p${i % 60}/a/x${(i * 7) % HOSTS}`);
const input = path.join(dir, 'urls.txt');
writeFileSync(input, [...urls, '/no/host', 'not a url'].join('\n') + '\n');

describe('robots classify: summary', () => {
  it('counts one load per host with a robots.txt (a URL without a host loads nothing), in words that agree', async () => {
    const r = await robots(['classify', '--robots-dir', sites, '--threads', '1', '--out', path.join(dir, 'out.tsv'), input]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^robots classify: 2,402 URLs, 600 hosts, 2 allowed, 2,400 disallowed in [\d.]+ s \([\d,]+ URLs\/s\); host cache: 600 loads, 0 evictions\n/);
    // The two lines without a host have no robots.txt: missing.
    expect(r.stderr).toMatch(/\nrobots classify: URLs by their host's robots.txt: 2,400 ok, 0 unavailable \(all allowed\), 0 unreachable \(all disallowed\), 2 missing\n$/);
    const one = await robots(['classify', '--robots-dir', sites, '--threads', '1'], 'http://h1.example/p0/a/x1\n');
    expect(one.stderr).toMatch(/^robots classify: 1 URL, 1 host, 0 allowed, 1 disallowed .*host cache: 1 load, 0 evictions\nrobots classify: URLs by their host.s robots.txt: 1 ok, 0 unavailable/);
  });

  it('--cache-mb is per thread, and a cache too small for the input says so and what to set', async () => {
    const r = await robots(['classify', '--robots-dir', sites, '--threads', '2', '--cache-mb', '1', '--out', path.join(dir, 'out2.tsv'), input]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/host cache: [\d,]+ loads, [\d,]+ evictions( over 2 threads \(each loads and keeps its share of the hosts\))?\n/);
    expect(r.stderr).toMatch(/\nrobots classify: the host cache was too small for this input's hosts .*raise --cache-mb \(now 1 MiB per thread\), or sort the URLs by host\n$/);
    expect((await robots(['classify', '--help'])).stdout).toMatch(/memory for compiled hosts per\s+thread/);
  });

  it('without --threads: one thread for an input file under 32 MiB, one per 32 MiB up to the cores for a longer one', async () => {
    const small = await robots(['classify', '--robots-dir', sites, '--out', path.join(dir, 'small.tsv'), input]);
    expect(small.status).toBe(0);
    expect(small.stderr).toMatch(/host cache: 600 loads, 0 evictions\n/); // (one thread: not "over N threads")
    // 33 MiB of URLs: two threads where there are two cores.
    const big = path.join(dir, 'big.txt');
    const line = 'http://h1.example/p0/a/x1/' + 'a'.repeat(100) + '\n';
    writeFileSync(big, line.repeat(Math.ceil((33 << 20) / line.length)));
    const r = await robots(['classify', '--robots-dir', sites, '--out', path.join(dir, 'big.tsv'), big]);
    expect(r.status).toBe(0);
    const threads = Math.min(availableParallelism(), 2);
    expect(r.stderr).toMatch(threads === 1 ? /host cache: 1 load, 0 evictions\n/ : /host cache: \d load(s)?, 0 evictions over 2 threads/);
  });

  it('the ETA is the average rate so far, shown once a second and 2% have passed', () => {
    expect(remaining(0.5, 50, 100)).toBe('…');
    expect(remaining(2, 1, 100)).toBe('…');
    expect(remaining(2, 50, 100)).toBe('2s');
    expect(remaining(2.8, 100, 100)).toBe('0s');
    expect(remaining(10, 10, 100)).toBe('1m30s');
  });
});

describe('robots classify: stdin asked for twice', () => {
  it('--robots - with the URLs on stdin too is refused', async () => {
    expectUsageError(await robots(['classify', '--robots', '-'], 'User-agent: *\nDisallow: /\n'), /--robots - reads the robots.txt from stdin, so the URLs cannot come from there too/);
    expectUsageError(await robots(['classify', '--robots', '-', '-'], 'x'), /cannot come from there too/);
    // The robots.txt from stdin is read once, by the main thread: the threads had read an empty stdin again.
    for (const threads of ['1', '2']) {
      const ok = await robots(['classify', '--robots', '-', '-q', '--threads', threads, input], 'User-agent: *\nDisallow: /p1/\n');
      expect(ok.status).toBe(0);
      const lines = ok.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(4 * HOSTS + 2);
      expect(lines.filter((l) => l.startsWith('disallowed\t2\t')).length).toBe(urls.filter((u) => u.includes('/p1/')).length);
    }
  });
});

// `robots classify` with a robots.txt per host spreads the hosts over threads
// (each host loaded by one thread) and puts their output back in input order:
// any number of threads writes the same octets as one, whatever the order of
// the hosts in the input (grouped, interleaved, one long run), the format, the
// input (a file read by ranges, or stdin), --crawlers and --shard.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { shuffled } from '../../bench/synthetic.mjs';
import { HAVE_SHARED, readJsonLinesGz, SHARED, type GoogleVerdict } from '../helpers/shared-data.js';
import { propertySeed } from '../helpers/seed.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs classify with each of `counts` threads (1, 2 and 3 unless said); each run's output must be the first's
 * (one thread's), octet for octet. `killAfterMs`: each command's own hang guard, for a run whose work is large. */
async function sameForAnyThreads(args: string[], input?: string, counts = ['1', '2', '3'], killAfterMs?: number): Promise<{ stdout: string; stderr: string[] }> {
  const runs = [];
  for (const threads of counts) runs.push(await robots(['classify', ...args, '--threads', threads], input, { killAfterMs }));
  for (const r of runs) expect(r.status, r.stderr).toBe(0);
  const [one, ...more] = runs;
  for (const r of more) expect(r.stdout === one.stdout, 'the output differs from one thread\'s').toBe(true);
  return { stdout: one.stdout, stderr: runs.map((r) => r.stderr) };
}

/** For a variant of a case already run with 1, 2 and 3 threads: one thread against three (more threads than cores,
 * hosts spread unevenly), each a start of the command on 70,000 lines. */
const ONE_AND_THREE = ['1', '3'];

describe('robots classify --robots-dir: hosts routed to threads, output in input order', () => {
  const sites = path.join(dir, 'sites');
  mkdirSync(sites);
  const HOSTS = 300;
  for (let h = 0; h < HOSTS; h++) {
    if (h % 10 === 9) continue; // no robots.txt
    writeFileSync(path.join(sites, `h${h}.example`), `User-agent: *\nDisallow: /p${h % 7}/\nAllow: /p${h % 7}/open\n`);
  }
  mkdirSync(path.join(sites, 'bad.example')); // a directory where a robots.txt should be: unreachable
  // Hosts interleaved line by line, a run of one host long enough to be cut into pieces
  // (10,000 lines), lines without a host, blank lines; several 1 MiB blocks in all.
  const lines: string[] = [];
  for (let i = 0; i < 40_000; i++) lines.push(`https://h${(i * 7) % HOSTS}.example/p${i % 9}/${i % 3 === 0 ? 'open' : 'x'}/${'q'.repeat(i % 40)}`);
  for (let i = 0; i < 10_000; i++) lines.push(`https://h5.example/p5/${i}`);
  for (let i = 0; i < 100; i++) lines.push(i % 2 === 0 ? `https://bad.example/${i}` : i % 3 === 0 ? '' : `/no/host/${i}`);
  const input = path.join(dir, 'mixed.txt');
  writeFileSync(input, shuffled(lines, propertySeed()).join('\n') + '\n' + lines.slice(0, 20_000).join('\n') + '\n');

  it('TSV: the same octets with 1, 2 and 3 threads, each host loaded once, one warning for the unreadable file', async () => {
    const { stdout, stderr } = await sameForAnyThreads(['--robots-dir', sites, input]);
    expect(stdout.split('\n')).toHaveLength(lines.filter((l) => l !== '').length + 20_000 + 1);
    stderr.forEach((e, k) => {
      // 270 files, 30 hosts without one, bad.example: 301 hosts looked up; the long run of h5 is
      // cut into pieces that any thread may take, so each thread may load h5 too.
      const loads = Number(/host cache: ([\d,]+) loads, 0 evictions/.exec(e)![1]);
      expect(loads).toBeGreaterThanOrEqual(301);
      expect(loads).toBeLessThanOrEqual(301 + k);
      expect(e.split('\n').filter((l) => l.startsWith('robots: warning:'))).toHaveLength(1);
    });
  });

  // 300 files of 300 rules, evicted and compiled again, at each thread count: 8.3 s on 2 cores loaded by other runs,
  // over 60 s at load 20-27 (seven helpers' suites and builds on 2 cores); 180 s, a hang guard (each command has its own).
  it('a cache that evicts (--cache-mb 1, 300 hosts each of 300 rules) gives the same octets', async () => {
    const big = path.join(dir, 'big-sites');
    mkdirSync(big);
    for (let h = 0; h < HOSTS; h++) {
      if (h % 10 === 9) continue;
      writeFileSync(path.join(big, `h${h}.example`), 'User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /p${(h + i) % 9}/*/q${i}$`).join('\n') + `\nDisallow: /p${h % 7}/\nAllow: /p${h % 7}/open\n`);
    }
    // (A run that compiles the files again and again took over the command's default 60 s at load 20.)
    const roomy = await robots(['classify', '--robots-dir', big, '--threads', '1', input], undefined, { killAfterMs: 170_000 });
    const { stdout, stderr } = await sameForAnyThreads(['--robots-dir', big, '--cache-mb', '1', input], undefined, ONE_AND_THREE, 170_000);
    expect(stdout === roomy.stdout).toBe(true);
    expect(Number(/host cache: [\d,]+ loads, ([\d,]+) evictions/.exec(stderr[0])![1].replaceAll(',', ''))).toBeGreaterThan(0);
  }, 180_000);

  it('JSON lines, --missing disallow, and from stdin: the same octets', async () => {
    await sameForAnyThreads(['--robots-dir', sites, '--format', 'jsonl', '--missing', 'disallow', input], undefined, ONE_AND_THREE);
    const text = shuffled(lines, propertySeed()).join('\n');
    await sameForAnyThreads(['--robots-dir', sites, '--format', 'jsonl', '-'], text, ONE_AND_THREE);
  });

  // Four runs at each thread count and one more: 5.4 s on 2 cores loaded by other runs, over 60 s at load 20-27; 180 s,
  // a hang guard.
  it('--crawlers and --shard: the same octets', async () => {
    await sameForAnyThreads(['--robots-dir', sites, '--crawlers', 'Googlebot,GPTBot', input], undefined, ONE_AND_THREE);
    await sameForAnyThreads(['--robots-dir', sites, '--crawlers', 'Googlebot,GPTBot', '--format', 'jsonl', input], undefined, ONE_AND_THREE);
    const parts: string[] = [];
    for (const shard of ['0/2', '1/2']) parts.push((await sameForAnyThreads(['--robots-dir', sites, '--shard', shard, input], undefined, ONE_AND_THREE)).stdout);
    expect(parts.join('').split('\n').sort()).toEqual((await robots(['classify', '--robots-dir', sites, input])).stdout.split('\n').sort());
  }, 180_000);
});

describe.skipIf(!HAVE_SHARED)('robots classify --robots-dir on the corpus probes: any number of threads', () => {
  const verdicts = HAVE_SHARED ? readJsonLinesGz<GoogleVerdict>('corpus/google-verdicts-seed1.jsonl.gz').filter((v) => v.agent === 'Googlebot') : [];
  const robotsDir = path.join(SHARED, 'corpus', 'robots');

  // The corpus probes in two orders at each thread count: 6.3 s on 2 cores loaded by other runs, over 60 s at load
  // 20-27; 180 s, a hang guard.
  it('grouped by host (as the probes come) and interleaved: the same octets, each host loaded once', async () => {
    const grouped = path.join(dir, 'probes.txt');
    writeFileSync(grouped, verdicts.map((v) => v.url).join('\n') + '\n');
    const interleaved = path.join(dir, 'probes-interleaved.txt');
    writeFileSync(interleaved, shuffled(verdicts.map((v) => v.url), propertySeed()).join('\n') + '\n');
    const args = ['--robots-dir', robotsDir, '--profile', 'google', '--max-bytes', 'Infinity'];
    // As the probes come, with 3 threads: 1 and 2 give Google's verdicts in test/cli/corpus.test.ts.
    const a = await sameForAnyThreads([...args, grouped], undefined, ['3']);
    const want = verdicts.map((v) => `${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${v.url}\n`).join('');
    expect(a.stdout === want).toBe(true);
    const b = await sameForAnyThreads([...args, interleaved]);
    for (const e of [...a.stderr, ...b.stderr]) expect(e).toMatch(/169,640 URLs, 4,241 hosts, .*host cache: 4,241 loads, 0 evictions/);
  }, 180_000);
});

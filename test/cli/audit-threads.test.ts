// robots audit --threads N (the built command): the sites audited in blocks by
// worker threads (src/bulk/threads/audit-pool.ts), the output and the summary
// byte for byte one thread's, from the corpus as a directory and as a WARC of
// it written by warcio (its captures shared with the threads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { robots } from '../helpers/cli-run.js';
import { corpusWarcs } from '../helpers/corpus-warcs.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CORPUS = path.join(SHARED, 'corpus', 'robots');

/** The run's stdout and its summary file, for --threads n. */
async function audit(args: string[], threads: number, name: string): Promise<{ stdout: string; summary: string }> {
  const summary = path.join(dir, `${name}-${threads}.json`);
  // 4,241 sites, threads started: minutes on a loaded machine (a hang guard only).
  const r = await robots(['audit', ...args, '--threads', String(threads), '--summary', summary, '-q'], undefined, { killAfterMs: 600_000 });
  // (Three files of the corpus are longer than --max-octets, said once; @ai's note says which names the profile refuses.)
  expect(r.stderr.replace(/^robots audit: (warning: 3 captures are longer than --max-octets|note: @ai)[^\n]*\n/gm, '')).toBe('');
  expect(r.status).toBe(0);
  return { stdout: r.stdout, summary: readFileSync(summary, 'utf8') };
}

describe.skipIf(!HAVE_SHARED)('audit --threads: one thread\'s output and summary', () => {
  let warc: string;
  // (The corpus's WARC, written once a run by warcio: test/helpers/corpus-warcs.ts.)
  beforeAll(async () => {
    warc = (await corpusWarcs()).all;
  }, 600_000);

  // (Half the sites, every capture of the WARC read and shared with the threads: blocks enough for both.)
  it('--robots-warc, JSON lines with every operator, a shard: 1 and 2 threads byte for byte', { timeout: 900_000 }, async () => {
    const args = ['--robots-warc', warc, '--shard', '0/2', '--operators', '@ai', '--format', 'jsonl'];
    const one = await audit(args, 1, 'warc');
    const two = await audit(args, 2, 'warc');
    expect(one.stdout.split('\n').length).toBeGreaterThan(8 * 256);
    expect(two.stdout === one.stdout).toBe(true);
    expect(two.summary).toBe(one.summary);
  });

  it('--robots-dir, TSV, 3 threads on a shard: byte for byte', { timeout: 900_000 }, async () => {
    const args = ['--robots-dir', CORPUS, '--shard', '1/2', '--crawlers', '@ai', '--profile', 'google'];
    const one = await audit(args, 1, 'dir');
    const three = await audit(args, 3, 'dir');
    expect(one.stdout.split('\n').length).toBeGreaterThan(1000);
    expect(three.stdout === one.stdout).toBe(true);
    expect(three.summary).toBe(one.summary);
  });

  it('two crawls (the WARC, the folder) with --ranks and --changes: the main thread adds crawl and rank to the threads\' records, byte for byte', { timeout: 900_000 }, async () => {
    const ranks = path.join(dir, 'ranks.csv');
    writeFileSync(ranks, readdirSync(CORPUS).sort().slice(0, 3000).map((host, i) => `${i * 7 + 1},${host}`).join('\n') + '\n');
    const changesOf = (n: number) => path.join(dir, `changes-${n}.tsv`);
    // (A quarter of the sites: blocks enough for both threads.)
    const args = (n: number) => ['--crawl', `2025-01=${warc}`, '--crawl', `2026-01=${CORPUS}`, '--shard', '0/4', '--ranks', ranks, '--changes', changesOf(n), '--format', 'jsonl', '--crawlers', 'GPTBot,CCBot'];
    const one = await audit(args(1), 1, 'crawls');
    const two = await audit(args(2), 2, 'crawls');
    expect(one.stdout.split('\n').length).toBeGreaterThan(2 * 3 * 256);
    expect(one.stdout).toContain('"crawl":"2026-01"');
    expect(one.stdout).toMatch(/"rank":\d+/);
    expect(two.stdout === one.stdout).toBe(true);
    expect(two.summary).toBe(one.summary);
    expect(readFileSync(changesOf(2), 'utf8')).toBe(readFileSync(changesOf(1), 'utf8'));
  });
});

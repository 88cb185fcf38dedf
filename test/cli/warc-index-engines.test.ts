// The map and reduce steps on batch engines that exist (docs/bulk.md): GNU
// parallel (a job per slice of the WARC list, then a job per shard), and a
// Spark / Hadoop Streaming task (URL lines on stdin, verdicts on stdout, one
// shard per partition, partitions cut by `robots shard`'s host hash), run here
// as such a task runs, by `sh -c` with the partition's number in the
// environment. Either way: the lines of one --robots-warc run over all WARCs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-engines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(dir, ...p);
const N = 3;
const WARCS = 6;
const warcFiles = Array.from({ length: WARCS }, (_, k) => at(`crawl-${k}.warc.gz`));
const urlsFile = at('urls.txt');
const ROBOTS = `${process.execPath} ${CLI}`;

// Under CI (CI=true) .ci/run installs it, so there the test runs and fails if it is missing.
const hasParallel = spawnSync('parallel', ['--version'], { stdio: 'ignore' }).status === 0 || process.env.CI === 'true';

function captures(k: number): Capture[] {
  const out: Capture[] = [];
  for (let h = k; h < 60; h += WARCS) out.push({ url: `http://h${h}.example/robots.txt`, body: `User-agent: *\nDisallow: /no-${h}\n`, date: '2024-01-10T00:00:00Z' });
  // A second, later capture of some hosts in the next WARC; redirects to another WARC's capture.
  for (let h = (k + WARCS - 1) % WARCS; h < 60; h += 4 * WARCS) out.push({ url: `http://h${h}.example/robots.txt`, status: 503, date: '2024-02-10T00:00:00Z' });
  out.push({ url: `http://go${k}.example/robots.txt`, status: 301, headers: { Location: `http://h${(k + 1) % WARCS}.example/robots.txt` } });
  return out;
}

const lines = (text: string) => (text === '' ? [] : text.trimEnd().split('\n'));

async function sh(command: string, env: Record<string, string> = {}, input?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', command], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { status, stdout, stderr };
}

let whole: string[];

describe('the map and reduce steps on a batch engine', () => {
  beforeAll(async () => {
    for (let k = 0; k < WARCS; k++) await writeWarc(warcFiles[k], captures(k));
    const urls: string[] = [];
    for (let i = 0; i < 500; i++) {
      const h = (i * 13) % 66;
      urls.push(h < 60 ? `http://h${h}.example/no-${h}/${i}` : `http://go${h - 60}.example/no-${(h - 59) % WARCS}`);
    }
    writeFileSync(urlsFile, urls.join('\n') + '\n');
    const r = await robots(['classify', ...warcFiles.flatMap((f) => ['--robots-warc', f]), '-q', urlsFile]);
    expect(r.status).toBe(0);
    whole = lines(r.stdout);
    expect(whole).toHaveLength(500);
  });

  it.skipIf(!hasParallel)(`GNU parallel: a job per slice of the WARC list, then a job per shard${hasParallel ? '' : ' (skipped: GNU parallel is not installed; apt-get install parallel)'}`, async () => {
    writeFileSync(at('warcs.txt'), warcFiles.join('\n') + '\n');
    // Map: two WARCs a job, each job its own index directory.
    const map = await sh(`parallel --will-cite --halt now,fail=1 -j 2 -N 2 ${ROBOTS} index --shards ${N} --out ${at('idx')}/{#} -q {} :::: ${at('warcs.txt')}`);
    expect(map.stderr).toBe('');
    expect(map.status).toBe(0);
    const indexes = [1, 2, 3].map((j) => `--robots-index ${at('idx', String(j))}`).join(' ');
    mkdirSync(at('out'), { recursive: true });
    // Reduce: a job per shard, each reading shard i of every index.
    const reduce = await sh(`parallel --will-cite --halt now,fail=1 -j 2 '${ROBOTS} classify ${indexes} --shard {}/${N} -q ${urlsFile} > ${at('out')}/{}.tsv' ::: $(seq 0 ${N - 1})`);
    expect(reduce.stderr).toBe('');
    expect(reduce.status).toBe(0);
    const shards = Array.from({ length: N }, (_, i) => lines(readFileSync(at('out', `${i}.tsv`), 'utf8')));
    for (const s of shards) expect(s).toEqual(whole.filter((l) => s.includes(l))); // each shard in input order
    expect(shards.flat().sort()).toEqual([...whole].sort());
  });

  it('a Spark / Hadoop Streaming task: stdin -> stdout, one shard per partition, partitions cut by robots shard', async () => {
    // Map, on any engine: one index per WARC here (as K machines would each write theirs).
    for (let k = 0; k < WARCS; k++) expect((await robots(['index', '--shards', String(N), '--out', at('sidx', String(k)), '-q', warcFiles[k]])).status).toBe(0);
    // The engine's partitioner: the key robots shard puts before each line.
    const labelled = await robots(['shard', '--shards', String(N), urlsFile]);
    expect(labelled.status).toBe(0);
    const partitions: string[][] = Array.from({ length: N }, () => []);
    for (const line of lines(labelled.stdout)) {
      const [key, url] = [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)];
      partitions[Number(key)].push(`${key}\t${url}`); // (as a reducer gets key<TAB>value lines)
    }
    // The task, as Hadoop Streaming runs it: a shell command, the partition number in its environment.
    const indexes = Array.from({ length: WARCS }, (_, k) => `--robots-index ${at('sidx', String(k))}`).join(' ');
    const task = `cut -f2- | ${ROBOTS} classify ${indexes} --shard "$mapreduce_task_partition/${N}" -q`;
    const outputs: string[][] = [];
    for (let p = 0; p < N; p++) {
      const r = await sh(task, { mapreduce_task_partition: String(p) }, partitions[p].join('\n') + '\n');
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const out = lines(r.stdout);
      // Every line of the partition classified (none belonged to another shard), in its order.
      expect(out).toHaveLength(partitions[p].length);
      outputs.push(out);
    }
    // Each partition's verdicts are its shard's lines of the one run over all WARCs, in input order.
    for (const out of outputs) expect(out).toEqual(whole.filter((l) => out.includes(l)));
    expect(outputs.flat().sort()).toEqual([...whole].sort());
  });

  it('robots shard: the key of every line, by classify --shard\'s hash (every spelling of a host alike); a bad --shards refused', async () => {
    const input = 'http://a.example/x\n\nHTTP://A.EXAMPLE./y\nhttp://0x7f.1/z\nhttp://127.0.0.1/w\nnot a url\n';
    const r = await robots(['shard', '--shards', '7'], input);
    const got = lines(r.stdout).map((l) => l.split('\t'));
    expect(got.map(([, u]) => u)).toEqual(['http://a.example/x', 'HTTP://A.EXAMPLE./y', 'http://0x7f.1/z', 'http://127.0.0.1/w', 'not a url']);
    expect(got[0][0]).toBe(got[1][0]);
    expect(got[2][0]).toBe(got[3][0]);
    expect(got[4][0]).toBe('0');
    for (const [key, url] of got) {
      const kept = await robots(['classify', '--robots', urlsFile, '--shard', `${key}/7`, '-q'], url + '\n');
      expect(lines(kept.stdout), url).toHaveLength(1);
    }
    const bad = await robots(['shard', '--shards', '0'], input);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--shards must be a whole number/);
  });
});

// What each worker thread of `robots classify` costs in CPU, not in wall clock:
// on 2 cores two threads cannot show a speed-up (V8's helper threads take much of
// the second core), but the CPU-seconds of the whole process can show whether the
// threads duplicate work. Runs `classify --robots-dir` (and --robots-index) on the
// corpus probes ×N (N renamed copies of the corpus, `k.<host>`: as many hosts, each
// loaded once; ×30, the default, is a run of ~5 s on one thread: issue 31 asks for at least 5 s) with each thread
// count, alternating round by round, and gives the medians of: the whole process's
// CPU (user + system, /usr/bin/time), the main thread's, the worker threads'
// (read from /proc/<pid>/task/<tid>/stat, each thread naming its tid through
// thread-tid.mjs), and the rest (V8's compiler and GC threads, libuv; by
// difference). Runs on the probes ×1 and on one URL give what a thread costs
// fixed and per URL. Then the ratio to the first thread count; with several
// DISTs (builds to compare), their runs alternate too and each gets its lines.
//   node bench/tools/thread-cpu.mjs [--rounds 5] [--threads 1,2] [--source dir,index] [--copies 30] [--node '--v8-flag …'] [DIST …]
// Needs the probes file `npm run bench -- --only classify-dir` leaves in the temp
// folder (robots-bench-probes.txt); makes the copies from it once (the folder of
// links, the URL file, the WARC of the corpus ×N written by warcio), and the index
// of that WARC afresh at each start, by the first DIST's `robots index` (an index
// left by an older build could be of another format, or wrong).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { WARCRecord, WARCSerializer } from 'warcio';
import { SHARED } from '../corpus.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    threads: { type: 'string', default: '1,2' },
    source: { type: 'string', default: 'dir,index' },
    copies: { type: 'string', default: '30' },
    node: { type: 'string', default: '' },
  },
});
const dists = positionals.length > 0 ? positionals : [fileURLToPath(new URL('../../dist', import.meta.url))];
const preload = fileURLToPath(new URL('./thread-tid.mjs', import.meta.url));
const tmp = os.tmpdir();
const copies = Number(values.copies);
if (!Number.isInteger(copies) || copies < 1) throw new Error(`--copies: a whole number from 1, got ${values.copies}`);
const ROBOTS = path.join(SHARED, 'corpus', 'robots');
/** The probes once (copy 0: the hosts as they are): a shorter run, for the part per URL. */
const short = path.join(tmp, 'robots-bench-probes.txt');
if (!existsSync(short)) throw new Error('run npm run bench -- --only classify-dir once first (it writes the probes file)');
const urls = path.join(tmp, `robots-bench-probes-x${copies}.txt`);
const dir = path.join(tmp, `robots-bench-dir-x${copies}`);
const warc = path.join(tmp, `robots-bench-corpus-x${copies}.warc.gz`);
const index = path.join(tmp, `robots-bench-thread-cpu-index-x${copies}`);
const one = path.join(tmp, 'robots-bench-thread-cpu-one-url.txt');
const wanted = values.source.split(',');

/** Copy k of a probe URL: its host renamed k.<host> (copy 0 as it is), as the bench's workloads name them. */
const renamed = (/** @type {string} */ url, /** @type {number} */ k) => (k === 0 ? url : url.replace('https://', `https://${k}.`));

if (!existsSync(urls)) {
  const lines = readFileSync(short, 'utf8').split('\n').filter(Boolean);
  writeFileSync(`${urls}.partial`, '');
  for (let k = 0; k < copies; k++) appendFileSync(`${urls}.partial`, `${lines.map((u) => renamed(u, k)).join('\n')}\n`);
  renameSync(`${urls}.partial`, urls);
}
if (wanted.includes('dir') && !existsSync(path.join(dir, '.complete'))) {
  mkdirSync(dir, { recursive: true });
  for (const host of readdirSync(ROBOTS)) {
    for (let k = 0; k < copies; k++) {
      const link = path.join(dir, k === 0 ? host : `${k}.${host}`);
      if (!existsSync(link)) symlinkSync(path.join(ROBOTS, host), link);
    }
  }
  writeFileSync(path.join(dir, '.complete'), '');
}
if (wanted.includes('index')) {
  if (!existsSync(warc)) await writeCorpusWarc();
  rmSync(index, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [path.join(dists[0], 'cli.js'), 'index', '--robots-warc', warc, '--out', index], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`robots index: ${r.stderr}`);
}
writeFileSync(one, `${readFileSync(short, 'utf8').split('\n', 1)[0]}\n`);

/** The corpus files as the 200 captures of https://<host>/robots.txt, gzip per record, `copies` times over (copy k's hosts k.<host>), as the classify-warc workload writes its WARCs. */
async function writeCorpusWarc() {
  const out = createWriteStream(`${warc}.partial`);
  const hosts = readdirSync(ROBOTS);
  for (let k = 0; k < copies; k++) {
    for (const host of hosts) {
      const body = readFileSync(path.join(ROBOTS, host));
      const record = await WARCRecord.create(
        { url: `https://${k === 0 ? '' : `${k}.`}${host}/robots.txt`, date: '2024-01-01T00:00:00Z', type: 'response', httpHeaders: { 'Content-Type': 'text/plain' }, statusline: 'HTTP/1.1 200 OK' },
        (async function* () { yield body; })(),
      );
      if (!out.write(await WARCSerializer.serialize(record, { gzip: true }))) await new Promise((resolve) => out.once('drain', () => resolve(undefined)));
    }
  }
  await new Promise((resolve, reject) => out.end((/** @type {Error | undefined} */ e) => (e ? reject(e) : resolve(undefined))));
  renameSync(`${warc}.partial`, warc);
}

const sources = {
  dir: ['--robots-dir', dir],
  index: ['--robots-index', index],
};

const HZ = 100; // clock ticks a second in /proc's stat (USER_HZ)
/** utime + stime of each thread of pid, seconds. */
function threadTimes(pid) {
  const times = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(Number(tid), (Number(f[11]) + Number(f[12])) / HZ);
    } catch {
      /* the thread ended */
    }
  }
  return times;
}

/** One run: the process's CPU, its main thread's, its worker threads', and the URLs/s it says. */
async function run(dist, source, threads, input) {
  const tidFile = path.join(tmp, `robots-bench-thread-cpu-${process.pid}.tids`);
  writeFileSync(tidFile, '');
  const cli = path.join(dist, 'cli.js');
  const command = ['-f', 'cpu %U %S', process.execPath, ...values.node.split(' ').filter(Boolean), '--import', preload, cli, 'classify', ...sources[source], '--agent', 'Googlebot', '--profile', 'google', input, '--threads', String(threads), '--out', '/dev/null'];
  const child = spawn('/usr/bin/time', command, { env: { ...process.env, THREAD_CPU_TIDS: tidFile }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const last = new Map();
  let node = 0;
  const poll = setInterval(() => {
    if (node === 0) {
      try {
        node = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0]) || 0;
      } catch {
        /* not yet */
      }
    }
    if (node !== 0) for (const [tid, s] of threadTimes(node)) last.set(tid, s);
  }, 20);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
  const cpu = /^cpu ([\d.]+) ([\d.]+)$/m.exec(stderr);
  if (code !== 0 || cpu === null) throw new Error(`robots classify exited with ${code}: ${stderr}`);
  const workers = new Set(readFileSync(tidFile, 'utf8').split('\n').filter(Boolean).map(Number));
  const total = Number(cpu[1]) + Number(cpu[2]);
  const main = last.get(node) ?? NaN;
  let classifying = 0;
  for (const [tid, s] of last) if (workers.has(tid)) classifying += s;
  const rate = /\(([\d,]+) URLs\/s\)/.exec(stderr);
  return { total, main, workers: classifying, rest: total - main - classifying, rate: rate ? Number(rate[1].replaceAll(',', '')) : NaN };
}

const counts = values.threads.split(',').map(Number);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const lines = (file) => readFileSync(file, 'utf8').split('\n').length - 1;
const sizes = { long: lines(urls), short: lines(short) };
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average ${load()} at the start; ${os.availableParallelism()} cores`);
for (const source of wanted) {
  /** @typedef {Awaited<ReturnType<typeof run>>} Run */
  /** @typedef {{ long: Run[], short: Run[], start: Run[] }} Runs */
  /** @type {Map<string, Runs>} by DIST and thread count */
  const runs = new Map();
  const of = (/** @type {string} */ dist, /** @type {number} */ t) => {
    const key = `${dist}\n${t}`;
    if (!runs.has(key)) runs.set(key, { long: [], short: [], start: [] });
    return /** @type {Runs} */ (runs.get(key));
  };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const t of counts) {
      for (const dist of dists) {
        of(dist, t).long.push(await run(dist, source, t, urls));
        of(dist, t).short.push(await run(dist, source, t, short));
        of(dist, t).start.push(await run(dist, source, t, one));
      }
    }
  }
  const mid = (rs, k) => median(rs.map((r) => r[k]));
  console.log(`classify --robots-${source}, ${values.rounds} round(s), medians of CPU seconds (user + system) on the probes ×${copies} (${sizes.long.toLocaleString('en')} URLs); load average ${load()}:`);
  for (const dist of dists) {
    if (dists.length > 1) console.log(` ${dist}:`);
    const first = of(dist, counts[0]);
    for (const t of counts) {
      const { long, short: shorter, start } = of(dist, t);
      console.log(
        `  --threads ${String(t).padStart(2)}: ${mid(long, 'total').toFixed(2)} s, ${(mid(long, 'total') / mid(first.long, 'total')).toFixed(2)}× --threads ${counts[0]} ` +
          `(main ${mid(long, 'main').toFixed(2)}, worker threads ${mid(long, 'workers').toFixed(2)}, rest ${mid(long, 'rest').toFixed(2)}; ${(mid(long, 'rate') / 1e3).toFixed(0)}k URLs/s) [${long.map((r) => r.total.toFixed(2)).join(' ')}]; ` +
          `×1 (${sizes.short.toLocaleString('en')} URLs) ${mid(shorter, 'total').toFixed(2)} s; one URL ${mid(start, 'total').toFixed(2)} s`,
      );
    }
    // What each thread over the first adds: a fixed part F (its start, its JIT's warm-up, its own
    // V8 helpers' work) and a part per URL R (routing, gathering, merging), from the two lengths.
    for (const t of counts.slice(1)) {
      const extra = (/** @type {'long' | 'short'} */ k) => mid(of(dist, t)[k], 'total') - mid(first[k], 'total');
      const perUrl = (extra('long') - extra('short')) / (sizes.long - sizes.short);
      const fixed = (extra('short') - perUrl * sizes.short) / (t - counts[0]);
      console.log(`  --threads ${t} over ${counts[0]}: +${fixed.toFixed(3)} s a thread (fixed) + ${(perUrl * 1e6).toFixed(3)} µs a URL`);
    }
  }
  for (const dist of dists.slice(1)) {
    const ratios = counts.map((t) => `--threads ${t} ${(mid(of(dist, t).long, 'total') / mid(of(dists[0], t).long, 'total')).toFixed(2)}×`);
    console.log(`  ${dist} against ${dists[0]}: ${ratios.join(', ')}`);
  }
}

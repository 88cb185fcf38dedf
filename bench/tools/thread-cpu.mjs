// What each worker thread of `robots classify` costs in CPU, not in wall clock:
// on 2 cores two threads cannot show a speed-up (V8's helper threads take much of
// the second core), but the CPU-seconds of the whole process can show whether the
// threads duplicate work. Runs `classify --robots-dir` (and --robots-index) on the
// corpus probes ×10 (hosts renamed: a run of some seconds) with each thread count,
// alternating round by round, and gives the medians of: the whole process's CPU
// (user + system, /usr/bin/time), the main thread's, the classification threads'
// (read from /proc/<pid>/task/<tid>/stat, each thread naming its tid through
// thread-tid.mjs), and the rest (V8's compiler and GC threads, libuv; by difference).
// A run on one URL gives what a thread costs to start. Then the ratio to one thread.
//   node bench/tools/thread-cpu.mjs [--rounds 5] [--threads 1,2] [--source dir,index] [--node '--v8-flag …'] [DIST]
// Uses the files `npm run bench -- --only classify-dir` and `--only classify-warc`
// leave in the temp folder (the index is made from the WARC of the corpus ×10 once).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, threads: { type: 'string', default: '1,2' }, source: { type: 'string', default: 'dir,index' }, node: { type: 'string', default: '' } },
});
const dist = positionals[0] ?? fileURLToPath(new URL('../../dist', import.meta.url));
const cli = path.join(dist, 'cli.js');
const preload = fileURLToPath(new URL('./thread-tid.mjs', import.meta.url));
const tmp = os.tmpdir();
const urls = path.join(tmp, 'robots-bench-probes-x10.txt');
const warc = path.join(tmp, 'robots-bench-corpus-x10.warc.gz');
const index = path.join(tmp, 'robots-bench-index-x10');
const one = path.join(tmp, 'robots-bench-thread-cpu-one-url.txt');
/** The probes once (the hosts of copy 0 of the ×10 folder or index): a shorter run, for the fixed part. */
const short = path.join(tmp, 'robots-bench-probes.txt');
const sources = {
  dir: ['--robots-dir', path.join(tmp, 'robots-bench-dir-x10')],
  index: ['--robots-index', index],
};
if (!existsSync(urls) || !existsSync(short) || !existsSync(sources.dir[1])) throw new Error('run npm run bench -- --only classify-dir once first (it writes the URL file and the folder of ×10)');
const wanted = values.source.split(',');
if (wanted.includes('index') && !existsSync(path.join(index, 'index.json'))) {
  if (!existsSync(warc)) throw new Error('run npm run bench -- --only classify-warc once first (it writes the WARC of the corpus ×10)');
  const r = spawnSync(process.execPath, [cli, 'index', '--robots-warc', warc, '--out', index], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`robots index: ${r.stderr}`);
}
writeFileSync(one, `${readFileSync(urls, 'utf8').split('\n', 1)[0]}\n`);

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

/** One run: the process's CPU, its main thread's, its classification threads', and the URLs/s it says. */
async function run(source, threads, input) {
  const tidFile = path.join(tmp, `robots-bench-thread-cpu-${process.pid}.tids`);
  writeFileSync(tidFile, '');
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
for (const source of wanted) {
  /** @typedef {Awaited<ReturnType<typeof run>>} Run */
  /** @type {Map<number, { long: Run[], short: Run[], start: Run[] }>} */
  const runs = new Map(counts.map((t) => [t, { long: [], short: [], start: [] }]));
  const of = (/** @type {number} */ t) => /** @type {{ long: Run[], short: Run[], start: Run[] }} */ (runs.get(t));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const t of counts) {
      of(t).long.push(await run(source, t, urls));
      of(t).short.push(await run(source, t, short));
      of(t).start.push(await run(source, t, one));
    }
  }
  const mid = (rs, k) => median(rs.map((r) => r[k]));
  const first = of(counts[0]);
  console.log(`classify --robots-${source}, ${values.rounds} round(s), medians of CPU seconds (user + system) on the probes ×10 (${sizes.long.toLocaleString('en')} URLs):`);
  for (const t of counts) {
    const { long, short: shorter, start } = of(t);
    console.log(
      `  --threads ${String(t).padStart(2)}: ${mid(long, 'total').toFixed(2)} s, ${(mid(long, 'total') / mid(first.long, 'total')).toFixed(2)}× --threads ${counts[0]} ` +
        `(main ${mid(long, 'main').toFixed(2)}, classification threads ${mid(long, 'workers').toFixed(2)}, rest ${mid(long, 'rest').toFixed(2)}; ${(mid(long, 'rate') / 1e3).toFixed(0)}k URLs/s) [${long.map((r) => r.total.toFixed(2)).join(' ')}]; ` +
        `×1 (${sizes.short.toLocaleString('en')} URLs) ${mid(shorter, 'total').toFixed(2)} s; one URL ${mid(start, 'total').toFixed(2)} s`,
    );
  }
  // What each thread over the first adds: a fixed part F (its start, its JIT's warm-up, its own
  // V8 helpers' work) and a part per URL R (routing, gathering, merging), from the two lengths.
  for (const t of counts.slice(1)) {
    const extra = (/** @type {'long' | 'short'} */ k) => mid(of(t)[k], 'total') - mid(first[k], 'total');
    const perUrl = (extra('long') - extra('short')) / (sizes.long - sizes.short);
    const fixed = (extra('short') - perUrl * sizes.short) / (t - counts[0]);
    console.log(`  --threads ${t} over ${counts[0]}: +${fixed.toFixed(3)} s a thread (fixed) + ${(perUrl * 1e6).toFixed(3)} µs a URL`);
  }
}

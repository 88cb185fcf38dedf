// A/B of `robots classify --robots-dir --threads 1` builds by the classifying thread's CPU: the command alone (what
// classify-vs-library.mjs's command() runs, TSV to /dev/null) at real-time priority (chrt -f 1), the builds
// alternating round by round in both orders; per build the medians of its main thread's CPU seconds
// (/proc/thread-self/schedstat at exit, up to date: main-thread-cpu.mjs), the process's CPU (user + system) and the command's own URLs/s, and with
// two builds the paired differences of the main thread's CPU (B − A). Uses the probes ×30 that
// `node bench/tools/thread-cpu.mjs --source dir` makes (AB_URLS, AB_DIR to change them; AB_ARGS for more flags).
//   node bench/tools/classify-thread-ab.mjs ROUNDS DIST_A DIST_B
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
const [rounds, ...dists] = process.argv.slice(2);
const MAIN_CPU = fileURLToPath(new URL('./main-thread-cpu.mjs', import.meta.url));
/** @type {{ main: number[], cpu: number[], rate: number[] }[]} */
const rows = dists.map(() => ({ main: [], cpu: [], rate: [] }));
const extra = (process.env.AB_ARGS ?? '').split(' ').filter(Boolean);
for (let r = 0; r < Number(rounds); r++) {
  const order = r % 2 === 0 ? dists.map((_, i) => i) : dists.map((_, i) => dists.length - 1 - i);
  for (const i of order) {
    const p = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', 'chrt', '-f', '1', process.execPath, '--import', MAIN_CPU, `${dists[i]}/cli.js`, 'classify', '--robots-dir', process.env.AB_DIR ?? '/tmp/robots-bench-dir-x30', '--agent', 'Googlebot', '--profile', 'google', process.env.AB_URLS ?? '/tmp/robots-bench-probes-x30.txt', '--threads', '1', '--out', '/dev/null', ...extra], { encoding: 'utf8' });
    const rate = /\(([\d,]+) URLs\/s\)/.exec(p.stderr);
    const cpu = /^cpu ([\d.]+) ([\d.]+)$/m.exec(p.stderr);
    const main = /^main thread cpu ([\d.e-]+)$/m.exec(p.stderr);
    if (!rate || !cpu || !main) throw new Error(p.stderr);
    const ev = /host cache: ([\d,]+) loads, ([\d,]+) evictions/.exec(p.stderr); if (r === 0 && ev !== null) console.log(dists[i], ev[0]); // (the cache's work: alike in every build)
    rows[i].rate.push(Number(rate[1].replaceAll(',', '')) / 1e6);
    rows[i].cpu.push(Number(cpu[1]) + Number(cpu[2]));
    rows[i].main.push(Number(main[1]));
  }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const { loadavg } = await import('node:os');
for (let i = 0; i < dists.length; i++) {
  const r = rows[i];
  console.log(`${dists[i]}: main thread CPU ${med(r.main).toFixed(2)} s [${r.main.map((x) => x.toFixed(2)).join(' ')}], process CPU ${med(r.cpu).toFixed(2)} s, own rate ${med(r.rate).toFixed(2)}M URLs/s [${r.rate.map((x) => x.toFixed(2)).join(' ')}]`);
}
if (dists.length === 2) {
  const d = rows[0].main.map((x, k) => rows[1].main[k] - x).sort((a, b) => a - b);
  console.log(`paired main-thread differences (B - A): median ${d[d.length >> 1].toFixed(3)} s [${d.map((x) => x.toFixed(2)).join(' ')}]; load ${loadavg()[0].toFixed(1)}`);
}

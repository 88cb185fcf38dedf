// Issue 44's bound for `robots classify --robots-dir`: the command on one thread
// against the library's crawler mix (parse + compile a host's robots.txt, check
// each of its URLs, dispose; host after host) over the same hosts and the same
// URLs, in the same run. Uses the corpus probes ×N (N renamed copies of the
// corpus, `k.<host>`, as thread-cpu.mjs makes them: ×30 is 5.1M URLs over
// 127,230 hosts). Each round runs, for each DIST, the command (a process, TSV
// to /dev/null) and then the library (a process of this file: the URL file read
// and grouped by host, each host's file read, before its clock starts), so
// both start cold and meet the same stretch of a shared machine.
// Rates by wall clock (the command's own figure, from its threads ready to its
// last line written; the library's loop) and by CPU (user + system of the whole
// process: steadier when other processes take the cores; the command's less
// what a run of one URL costs it, its start-up), and the command's main thread's
// CPU (the classifying thread: /proc/thread-self/schedstat at its exit, up to date: main-thread-cpu.mjs).
// --rt runs both at real-time priority (chrt -f 1): on a shared machine the
// other processes wait, so the wall clock reads as on a quiet one.
//   node bench/tools/classify-vs-library.mjs [--rounds 5] [--copies 30] [--profile google|rfc] [--rt] [DIST…]
// DIST (default dist/): a copy of dist/ (say /tmp/dist-a), with its cli.js and index.js.
// Needs the probes file `npm run bench -- --only classify-dir` leaves in the
// temp folder, and the copies `node bench/tools/thread-cpu.mjs --source dir`
// makes from it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    copies: { type: 'string', default: '30' },
    profile: { type: 'string', default: 'google' },
    child: { type: 'boolean', default: false },
    rt: { type: 'boolean', default: false },
  },
});
const tmp = os.tmpdir();
const urls = path.join(tmp, `robots-bench-probes-x${values.copies}.txt`);
const dir = path.join(tmp, `robots-bench-dir-x${values.copies}`);
const AGENT = 'Googlebot';
/** The command run at real-time priority (--rt), or not. */
const rt = values.rt ? ['chrt', '-f', '1'] : [];
/** Prints the main thread's CPU seconds at its exit. */
const MAIN_CPU = fileURLToPath(new URL('./main-thread-cpu.mjs', import.meta.url));

if (values.child) {
  await library(positionals[0]);
} else {
  if (!existsSync(urls) || !existsSync(path.join(dir, '.complete'))) {
    throw new Error(`no ${urls} or ${dir}: run node bench/tools/thread-cpu.mjs --source dir --copies ${values.copies} once first (it makes them)`);
  }
  const dists = positionals.length > 0 ? positionals : [fileURLToPath(new URL('../../dist', import.meta.url))];
  const one = path.join(tmp, 'robots-bench-classify-vs-library-one-url.txt');
  writeFileSync(one, `${readFileSync(urls, 'utf8').slice(0, 4096).split('\n', 1)[0]}\n`);
  const rows = dists.map((dist) => ({ dist, command: /** @type {number[]} */ ([]), commandCpu: /** @type {number[]} */ ([]), mainCpu: /** @type {number[]} */ ([]), startCpu: /** @type {number[]} */ ([]), library: /** @type {number[]} */ ([]), libraryCpu: /** @type {number[]} */ ([]), urls: 0 }));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const r of rows) {
      const c = command(r.dist, urls);
      r.command.push(c.rate);
      r.commandCpu.push(c.cpu);
      r.mainCpu.push(c.mainCpu);
      r.urls = c.urls;
      r.startCpu.push(command(r.dist, one).cpu);
      const p = spawnSync(rt[0] ?? process.execPath, [...rt.slice(1), ...(rt.length > 0 ? [process.execPath] : []), fileURLToPath(import.meta.url), '--child', '--copies', values.copies, '--profile', values.profile, r.dist], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const m = /^library (\d+) URLs, \d+ allowed, wall ([\d.]+) s, cpu ([\d.]+) s$/m.exec(p.stdout);
      if (p.status !== 0 || m === null) throw new Error(`library child: exit ${p.status}: ${p.stderr}`);
      if (Number(m[1]) !== r.urls) throw new Error(`the library checked ${m[1]} URLs, the command ${r.urls}`);
      r.library.push(Number(m[1]) / Number(m[2]));
      r.libraryCpu.push(Number(m[1]) / Number(m[3]));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const k = (x) => `${(x / 1e6).toFixed(2)}M`;
  for (const r of rows) {
    const wall = median(r.command) / median(r.library);
    const commandCpuRate = r.urls / (median(r.commandCpu) - median(r.startCpu));
    console.log(`${r.dist} ${values.profile}, ${r.urls.toLocaleString('en')} URLs, ${values.rounds} rounds (load ${os.loadavg()[0].toFixed(1)}${values.rt ? ', real-time priority' : ''}):`);
    console.log(`  wall: command ${k(median(r.command))} URLs/s [${r.command.map(k).join(' ')}], library ${k(median(r.library))} [${r.library.map(k).join(' ')}]: ${wall.toFixed(2)}×`);
    console.log(`  CPU:  command ${k(commandCpuRate)} URLs per CPU s (${median(r.commandCpu).toFixed(2)} s less ${median(r.startCpu).toFixed(2)} s start-up), library ${k(median(r.libraryCpu))}: ${(commandCpuRate / median(r.libraryCpu)).toFixed(2)}×`);
    console.log(`  main thread: command ${k(r.urls / median(r.mainCpu))} URLs per CPU s of its classifying thread (${median(r.mainCpu).toFixed(2)} s [${r.mainCpu.map((x) => x.toFixed(2)).join(' ')}], start-up included), library ${k(median(r.libraryCpu))}: ${(r.urls / median(r.mainCpu) / median(r.libraryCpu)).toFixed(2)}×`);
  }
}


/** One run of `robots classify --robots-dir` on a URL file: its own rate, its URLs, its CPU seconds (and its main thread's). */
function command(dist, file) {
  const args = ['--import', MAIN_CPU, path.join(dist, 'cli.js'), 'classify', '--robots-dir', dir, '--agent', AGENT, '--profile', values.profile, file, '--threads', '1', '--out', '/dev/null'];
  const p = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', ...rt, process.execPath, ...args], { encoding: 'utf8' });
  const rate = /([\d,]+) URLs?, .* \(([\d,]+) URLs\/s\)/.exec(p.stderr);
  const cpu = /^cpu ([\d.]+) ([\d.]+)$/m.exec(p.stderr);
  const main = /^main thread cpu ([\d.e-]+)$/m.exec(p.stderr);
  if (p.status !== 0 || rate === null || cpu === null || main === null) throw new Error(`${dist}: exit ${p.status}: ${p.stderr}`);
  const n = (s) => Number(s.replaceAll(',', ''));
  return { urls: n(rate[1]), rate: n(rate[2]), cpu: Number(cpu[1]) + Number(cpu[2]), mainCpu: Number(main[1]) };
}

/** The library's crawler mix over the command's hosts and URLs: prints its URLs, wall and CPU seconds. */
async function library(dist) {
  const { parse } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  // The URL file's lines grouped by host, in the file's order (the probes come host after host).
  /** @type {{ host: string, urls: string[], body: Uint8Array }[]} */
  const hosts = [];
  let last = '';
  for (const url of readFileSync(urls, 'utf8').split('\n')) {
    if (url === '') continue;
    const host = url.slice(url.indexOf('//') + 2, url.indexOf('/', url.indexOf('//') + 2));
    if (host !== last) hosts.push({ host, urls: [], body: new Uint8Array(0) });
    hosts[hosts.length - 1].urls.push(url);
    last = host;
  }
  // Each host's file, read once per target (the copies are links to the corpus's files).
  const bodies = new Map();
  for (const h of hosts) {
    const target = readlinkSync(path.join(dir, h.host));
    if (!bodies.has(target)) bodies.set(target, readFileSync(target));
    h.body = bodies.get(target);
  }
  const cpu = process.cpuUsage();
  const t = performance.now();
  let checked = 0;
  let allowed = 0;
  for (const h of hosts) {
    const m = parse(h.body, { profile: values.profile }).compile(AGENT);
    for (const u of h.urls) allowed += m.isAllowed(u) ? 1 : 0;
    m.dispose();
    checked += h.urls.length;
  }
  const wall = (performance.now() - t) / 1000;
  const used = process.cpuUsage(cpu);
  if (allowed < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
  console.log(`library ${checked} URLs, ${allowed} allowed, wall ${wall.toFixed(3)} s, cpu ${((used.user + used.system) / 1e6).toFixed(3)} s`);
}

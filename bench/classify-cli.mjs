// End-to-end `robots classify` (issue 3's benchmark): the built command run as a
// user runs it, URLs per second with 1 and 2 threads,
//   - on N URLs (10 million; 1 million with --quick) against one real robots.txt,
//   - on the corpus probes over --robots-dir (one robots.txt per host).
// Wall time includes process start-up; the command's own figure (its summary) does not.
// Usage: node bench/classify-cli.mjs [--quick] [--host www.linkedin.com]
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCorpus, SHARED } from './corpus.mjs';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** A file of n URLs on host: the corpus probes' paths, over and over (made once, kept in the temp folder). */
async function urlFile(hosts, host, n) {
  const file = path.join(os.tmpdir(), `robots-bench-${host}-${n}.txt`);
  if (existsSync(file)) return file;
  const paths = hosts.flatMap((h) => h.urls.map((u) => u.slice(h.origin.length) || '/'));
  const out = createWriteStream(`${file}.partial`);
  const batch = 10_000;
  for (let i = 0; i < n; i += batch) {
    let text = '';
    for (let k = i; k < Math.min(n, i + batch); k++) text += `https://${host}${paths[k % paths.length]}\n`;
    if (!out.write(text)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
  renameSync(`${file}.partial`, file);
  return file;
}

/** Runs the command; returns the wall-clock and the command's own URLs per second. */
function run(args) {
  const began = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'classify', ...args, '--out', '/dev/null'], { encoding: 'utf8' });
  const seconds = (performance.now() - began) / 1000;
  if (r.status !== 0) throw new Error(`robots classify ${args.join(' ')} failed: ${r.stderr}`);
  const m = /^robots classify: ([\d,]+) URLs.* in ([\d.]+) s/m.exec(r.stderr);
  const urls = Number(m[1].replaceAll(',', ''));
  return { urls, wall: urls / seconds, own: urls / Number(m[2]) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Each thread count `repeat` times, interleaved (the machine's noise hits both alike). */
function measure(args, repeat) {
  const results = { 1: [], 2: [] };
  for (let i = 0; i < repeat; i++) for (const t of [1, 2]) results[t].push(run([...args, '--threads', String(t)]));
  return Object.fromEntries(Object.entries(results).map(([t, rs]) => [t, {
    urls: rs[0].urls, wall: median(rs.map((r) => r.wall)), own: median(rs.map((r) => r.own)),
    min: Math.min(...rs.map((r) => r.own)), max: Math.max(...rs.map((r) => r.own)),
  }]));
}

export async function benchClassifyCli({ quick = false, host = 'www.linkedin.com', log = console.error } = {}) {
  const hosts = loadCorpus();
  const n = quick ? 1_000_000 : 10_000_000;
  const repeat = quick ? 1 : 3;
  const robots = path.join(SHARED, 'corpus', 'robots', host);
  log(`classify-cli: writing/reusing ${n.toLocaleString('en-US')} URLs on ${host} ...`);
  const urls = await urlFile(hosts, host, n);
  const probes = path.join(os.tmpdir(), 'robots-bench-probes.txt');
  writeFileSync(probes, hosts.flatMap((h) => h.urls).join('\n') + '\n');
  const one = measure(['--robots', robots, '--agent', 'Googlebot', '--profile', 'google', urls], repeat);
  const dir = measure(['--robots-dir', path.join(SHARED, 'corpus', 'robots'), '--agent', 'Googlebot', '--profile', 'google', probes], repeat);
  return {
    [`classify ${n / 1e6}M URLs, one robots.txt (${host})`]: one,
    'classify corpus probes, --robots-dir': dir,
    inputBytes: statSync(urls).size,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--host');
  const results = await benchClassifyCli({ quick, host: at > 0 ? process.argv[at + 1] : undefined });
  const f = (x) => `${(x / 1e6).toFixed(2)} M/s`;
  for (const [name, r] of Object.entries(results)) {
    if (typeof r !== 'object') continue;
    console.log(`${name}\n  1 thread : ${f(r[1].own)} (wall ${f(r[1].wall)}, runs ${f(r[1].min)}..${f(r[1].max)})\n  2 threads: ${f(r[2].own)} (wall ${f(r[2].wall)}, runs ${f(r[2].min)}..${f(r[2].max)})  speed-up ${(r[2].own / r[1].own).toFixed(2)}x`);
  }
}

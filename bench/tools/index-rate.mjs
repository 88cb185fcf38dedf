// `robots index` against `gzip -dc` on the same WARC (issue 44: the index at two
// cores' inflate). The WARC is the corpus COPIES times over (hosts renamed, gzip
// per record, written by warcio once and kept in the temp folder, as the
// classify-warc workload writes it). Rounds alternate every command (gzip -dc,
// then each build, then the next round in the other order) so that a shared
// machine's noise falls on all alike; each row gives the median and range of the
// file's MiB/s by the wall clock (process start included, as gzip -dc's), of the
// reading pass by the command's own summary, CPU seconds (user + system) and
// peak RSS (/usr/bin/time). Each index is written into a fresh --out.
//   node bench/tools/index-rate.mjs [--rounds N] [--copies N] [--shards N] [--threads N] [DIST…]
// DIST: a copy of dist/ (say /tmp/dist-a); by default this checkout's dist/. DIST:N runs that copy with --threads N
// (one build's thread counts compared in the same rounds).
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { corpusWarc } from '../workloads/classify.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '7' }, copies: { type: 'string', default: '16' }, shards: { type: 'string', default: '16' }, threads: { type: 'string' } },
});
const warc = await corpusWarc(Number(values.copies));
const mib = statSync(warc).size / 2 ** 20;
const dists = positionals.length > 0 ? positionals : [fileURLToPath(new URL('../../dist', import.meta.url))];
const TIME = '/usr/bin/time';
const out = path.join(os.tmpdir(), `robots-bench-index-rate-${process.pid}`);
mkdirSync(out, { recursive: true });

/** One command under /usr/bin/time: wall seconds, CPU seconds, peak MiB, stderr.
 * @param {string[]} command */
function timed(command) {
  const began = performance.now();
  const r = spawnSync(TIME, ['-f', 'cpu %U %S peak-kib %M', ...command], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const seconds = (performance.now() - began) / 1000;
  const m = /^cpu ([\d.]+) ([\d.]+) peak-kib (\d+)$/m.exec(r.stderr);
  if (r.status !== 0 || m === null) throw new Error(`${command.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return { seconds, cpu: Number(m[1]) + Number(m[2]), peakMiB: Number(m[3]) / 1024, stderr: r.stderr };
}

const OWN = /\(([\d.]+) MiB in ([\d.]+) s, [\d.]+ MiB\/s read;/;
/** @typedef {{ seconds: number, cpu: number, peakMiB: number, wall: number, own: number }} Run */
/** @type {{ name: string, command: string[], runs: Run[] }[]} */
const rows = [{ name: 'gzip -dc', command: ['gzip', '-dc', warc], runs: [] }];
for (const given of dists) {
  const [dist, n = values.threads] = /** @type {RegExpExecArray} */ (/^(.*?)(?::(\d+))?$/.exec(given)).slice(1);
  const threads = n === undefined ? [] : ['--threads', n];
  rows.push({ name: `robots index (${given})`, command: [process.execPath, path.join(dist, 'cli.js'), 'index', '--robots-warc', warc, '--shards', values.shards, '--out', out, ...threads], runs: [] });
}
for (let round = 0; round < Number(values.rounds); round++) {
  for (const row of round % 2 === 0 ? rows : [...rows].reverse()) {
    // A fresh --out each run, as the bench's workload writes it: replacing an index unlinks the last run's shard files
    // first (the kernel freeing their 251 MiB of page cache), a cost gzip -dc > /dev/null does not pay.
    rmSync(out, { recursive: true, force: true });
    const r = timed(row.command);
    const own = OWN.exec(r.stderr);
    row.runs.push({ seconds: r.seconds, cpu: r.cpu, peakMiB: r.peakMiB, wall: mib / r.seconds, own: own === null ? NaN : Number(own[1]) / Number(own[2]) });
  }
}
rmSync(out, { recursive: true, force: true });
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (/** @type {number[]} */ xs) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
const gz = median(rows[0].runs.map((r) => r.wall));
console.log(`${path.basename(warc)}: ${mib.toFixed(1)} MiB, ${values.rounds} rounds alternating, ${os.availableParallelism()} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} at the end`);
for (const row of rows) {
  const wall = row.runs.map((r) => r.wall);
  const own = row.runs.map((r) => r.own).filter((x) => !Number.isNaN(x));
  console.log(`${row.name}: ${median(wall).toFixed(1)} MiB/s wall [${range(wall)}], ${(median(wall) / gz).toFixed(2)}× gzip -dc` +
    (own.length > 0 ? `; reading pass ${median(own).toFixed(1)} MiB/s [${range(own)}]` : '') +
    `; CPU ${median(row.runs.map((r) => r.cpu)).toFixed(2)} s; peak RSS ${median(row.runs.map((r) => r.peakMiB)).toFixed(0)} MiB [${range(row.runs.map((r) => r.peakMiB))}]`);
}

// A/B of `robots classify --robots-dir` builds on a shared, noisy machine: runs
// alternate (build by build, round by round) so that the noise falls on all
// alike, and each row gives the median of the command's own URLs/s and of the
// CPU seconds it used (user + system, all threads: less noisy than a rate when
// another process takes a core). Uses the URL files and folders that
// `npm run bench -- --only classify-dir` leaves in the temp folder.
//   node bench/tools/classify-ab.mjs [--rounds N] [--input plain|x10|mixed] [--threads 1,2] DIST [DIST…]
// DIST: a copy of dist/ (say /tmp/dist-a), with its cli.js; copies outside the
// checkout work (the build bundles its dependencies).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SHARED } from '../corpus.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, input: { type: 'string', default: 'plain' }, threads: { type: 'string', default: '1' } },
});
const tmp = os.tmpdir();
const inputs = {
  plain: [path.join(SHARED, 'corpus', 'robots'), path.join(tmp, 'robots-bench-probes.txt')],
  x10: [path.join(tmp, 'robots-bench-dir-x10'), path.join(tmp, 'robots-bench-probes-x10.txt')],
  mixed: [path.join(SHARED, 'corpus', 'robots'), path.join(tmp, 'robots-bench-probes-interleaved.txt')],
};
const [dir, urls] = inputs[values.input] ?? [];
if (dir === undefined || !existsSync(urls) || positionals.length === 0) {
  throw new Error('give one or more dist folders, and run npm run bench -- --only classify-dir once first (it writes the URL files)');
}
const TIME = '/usr/bin/time';
const runs = [];
for (const dist of positionals) for (const threads of values.threads.split(',')) runs.push({ dist, threads, rates: /** @type {number[]} */ ([]), cpu: /** @type {number[]} */ ([]) });
for (let round = 0; round < Number(values.rounds); round++) {
  for (const r of runs) {
    const command = [path.join(r.dist, 'cli.js'), 'classify', '--robots-dir', dir, '--agent', 'Googlebot', '--profile', 'google', urls, '--threads', r.threads, '--out', '/dev/null'];
    const p = existsSync(TIME)
      ? spawnSync(TIME, ['-f', 'cpu %U %S', process.execPath, ...command], { encoding: 'utf8' })
      : spawnSync(process.execPath, command, { encoding: 'utf8' });
    const rate = /\(([\d,]+) URLs\/s\)/.exec(p.stderr);
    if (p.status !== 0 || rate === null) throw new Error(`${r.dist}: exit ${p.status}: ${p.stderr}`);
    r.rates.push(Number(rate[1].replaceAll(',', '')));
    const cpu = /^cpu ([\d.]+) ([\d.]+)$/m.exec(p.stderr);
    if (cpu !== null) r.cpu.push(Number(cpu[1]) + Number(cpu[2]));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const r of runs) {
  const cpu = r.cpu.length > 0 ? `, CPU ${median(r.cpu).toFixed(2)} s [${[...r.cpu].sort((a, b) => a - b).map((x) => x.toFixed(2)).join(' ')}]` : '';
  console.log(`${r.dist} --threads ${r.threads}, ${values.input}: ${(median(r.rates) / 1e3).toFixed(0)}k URLs/s [${[...r.rates].sort((a, b) => a - b).map((x) => (x / 1e3).toFixed(0)).join(' ')}]${cpu}`);
}

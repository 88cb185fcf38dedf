// Cold start, like for like: fresh node processes, each importing one package
// (robots-parser, or this engine from a built dist/), parsing a 6-line
// robots.txt and giving one verdict, as an ES module and with require() (the
// cold-start workload's children). Every process of a round in turn, the order
// reversed every other round; the medians of the child's own clock (before the
// import to the verdict; and apart, import and first verdict), the process's
// wall time (node's own start included) and the child's CPU time over the same
// span (steadier on a loaded machine; and apart, import and first verdict) beside them, and each build's ratios to
// robots-parser in the same module system.
// With two builds or more, each later build against the first, round by round.
//   node bench/tools/cold-start.mjs [--runs 15] [--engine wasm-google] [LABEL=DIST …]   (default: dist)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BENCH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '15' }, engine: { type: 'string', default: 'wasm-google' } } });
const builds = (positionals.length ? positionals : ['dist']).map((p) => {
  const [label, dist] = p.includes('=') ? p.split('=') : [p, p];
  return { label, dist: path.resolve(dist) };
});
const SYSTEMS = [
  // Node's import takes dist/index.node.js (the package's `node` condition), where a build has one.
  { system: 'ESM', child: path.join(BENCH, 'cold-start-child.mjs'), entry: 'index.node.js', before: 'index.js' },
  { system: 'CommonJS', child: path.join(BENCH, 'cold-start-child.cjs'), entry: 'index.cjs' },
];
/** Every process a round runs: robots-parser and each build, in both module systems. */
const cells = SYSTEMS.flatMap(({ system, child, entry, before }) => [
  { label: 'robots-parser', system, argv: [child, 'robots-parser', 'Googlebot'] },
  ...builds.map((b) => ({ label: b.label, system, argv: [child, args.engine, 'Googlebot', path.join(b.dist, before !== undefined && !existsSync(path.join(b.dist, entry)) ? before : entry)] })),
]);
const runs = cells.map(() => /** @type {{ ms: number, importMs: number, verdictMs: number, cpuMs: number, importCpuMs: number, wall: number }[]} */ ([]));
const rounds = Number(args.runs);
const load = [os.loadavg()[0]];
for (let round = 0; round < rounds; round++) {
  const order = cells.map((_, i) => i);
  if (round % 2) order.reverse();
  for (const i of order) {
    const t0 = performance.now();
    const out = execFileSync(process.execPath, cells[i].argv, { encoding: 'utf8' });
    runs[i].push({ ...JSON.parse(out), wall: performance.now() - t0 });
  }
}
load.push(os.loadavg()[0]);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fixed = (x) => x.toFixed(2).padStart(7);
console.log(`${rounds} runs each, alternating; load average ${load.map((l) => l.toFixed(1)).join(' → ')}; ${os.cpus().length} cores, node ${process.version}`);
console.log('module    package              ms (child)   import   first verdict   CPU ms (import, first verdict)   process wall   × robots-parser (ms, CPU)');
cells.forEach((c, i) => {
  const ms = median(runs[i].map((r) => r.ms));
  const cpu = median(runs[i].map((r) => r.cpuMs));
  const base = runs[cells.findIndex((x) => x.system === c.system && x.label === 'robots-parser')];
  const ratios = `${(ms / median(base.map((r) => r.ms))).toFixed(2)}×, ${(cpu / median(base.map((r) => r.cpuMs))).toFixed(2)}×`;
  console.log(`${c.system.padEnd(9)} ${c.label.padEnd(20)} ${fixed(ms)}     ${fixed(median(runs[i].map((r) => r.importMs)))}  ${fixed(median(runs[i].map((r) => r.verdictMs)))}        ${fixed(cpu)} (${median(runs[i].map((r) => r.importCpuMs)).toFixed(2)}, ${median(runs[i].map((r) => r.cpuMs - r.importCpuMs)).toFixed(2)})   ${fixed(median(runs[i].map((r) => r.wall)))}        ${ratios}`);
});
// Each build after the first against the first, round by round (a round's processes ran at about the same load):
// in how many rounds its CPU time was the lower, and the median of the rounds' ratios.
if (builds.length > 1) {
  for (const { system } of SYSTEMS) {
    const first = runs[cells.findIndex((c) => c.system === system && c.label === builds[0].label)];
    for (const b of builds.slice(1)) {
      const these = runs[cells.findIndex((c) => c.system === system && c.label === b.label)];
      const ratios = these.map((r, round) => r.cpuMs / first[round].cpuMs);
      console.log(`${system.padEnd(9)} ${b.label} against ${builds[0].label}: CPU lower in ${ratios.filter((r) => r < 1).length} of ${rounds} rounds, median ratio ${median(ratios).toFixed(3)}`);
    }
  }
}

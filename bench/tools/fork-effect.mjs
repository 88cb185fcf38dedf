// The fork effect: passes of parse + compile + first verdict over the corpus
// (wasm-google, as the first-verdict workload's), two before and four after a
// child process started three ways: by this process (spawnSync('true'): a fork
// of it), by the bench's spawner (../spawner.mjs: no fork of this process), and
// none. Per pass: CPU ms of this process and its minor page faults (a page
// written after a fork is copied on its first write: the young generation's
// semi-spaces, the core's memory). Rounds alternate the three ways.
//   node --expose-gc bench/tools/fork-effect.mjs [--rounds 5] [DIST]
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../corpus.mjs';
import { firstWalked } from '../workloads/parse-compile.mjs';
import { run } from '../spawner.mjs';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '5' } } });
const dist = path.resolve(positionals[0] ?? 'dist');
const { parse } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const files = loadCorpus();
const probes = files.map((f) => firstWalked(f));
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

/** One pass: CPU ms and minor page faults. */
function pass() {
  const c0 = cpuMs();
  const f0 = process.resourceUsage().minorPageFault;
  let allowed = 0;
  for (let i = 0; i < files.length; i++) {
    const m = parse(files[i].bytes, { profile: 'google', maxBytes: Infinity }).compile('Googlebot');
    allowed += m.isAllowed(probes[i]) ? 1 : 0;
    m.dispose();
  }
  if (allowed < 0) throw new Error('unreachable');
  return { ms: cpuMs() - c0, faults: process.resourceUsage().minorPageFault - f0 };
}

const WAYS = {
  'spawnSync (a fork of this process)': async () => void spawnSync('true'),
  'the spawner (no fork here)': async () => void (await run('true', [])),
  'no child': async () => {},
};
for (let i = 0; i < 8; i++) pass();
/** way → pass index → figures of every round */
const seen = new Map(Object.keys(WAYS).map((w) => [w, Array.from({ length: 6 }, () => /** @type {{ ms: number, faults: number }[]} */ ([]))]));
const load = [os.loadavg()[0]];
for (let r = 0; r < Number(args.rounds); r++) {
  const ways = Object.entries(WAYS);
  globalThis.gc?.();
  for (const [way, child] of r % 2 ? ways.reverse() : ways) {
    for (let i = 0; i < 3; i++) pass(); // (the collection's aftermath of the way before)
    const passes = [pass(), pass()];
    await child();
    passes.push(pass(), pass(), pass(), pass());
    passes.forEach((p, i) => seen.get(way)[i].push(p));
  }
}
load.push(os.loadavg()[0]);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${files.length} files a pass; medians of ${args.rounds} rounds; load average ${load.map((l) => l.toFixed(1)).join(' → ')}`);
console.log('child started by                      2 passes before       | the 4 passes after: CPU ms (minor faults)');
for (const [way, passes] of seen) {
  const cells = passes.map((xs) => `${median(xs.map((x) => x.ms)).toFixed(1).padStart(6)} (${String(median(xs.map((x) => x.faults))).padStart(5)})`);
  console.log(`${way.padEnd(36)} ${cells.slice(0, 2).join(' ')} | ${cells.slice(2).join(' ')}`);
}

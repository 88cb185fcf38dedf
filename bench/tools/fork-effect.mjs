// The fork effect (../fork-effect.mjs): passes of parse + compile + first verdict
// over the corpus (profile google), two before and four after a child process
// forked from this process (spawnSync('true')) or started by the bench's spawner,
// the ways alternating round by round. Per pass: CPU ms of this process and its
// minor page faults (medians of the rounds).
//   node bench/tools/fork-effect.mjs [--rounds 7] [DIST]
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../corpus.mjs';
import { CHILDREN, measureForkEffect } from '../fork-effect.mjs';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '7' } } });
const { parse } = await import(pathToFileURL(path.join(path.resolve(positionals[0] ?? 'dist'), 'index.js')).href);
const engine = {
  parse: (file, agent) => parse(file.bytes, { profile: 'google', maxBytes: Infinity }).compile(agent),
  isAllowed: (m, url) => m.isAllowed(url),
  release: (m) => m.dispose(),
};
const files = loadCorpus();
const load = [os.loadavg()[0]];
const seen = await measureForkEffect(engine, files, 'Googlebot', Number(args.rounds));
load.push(os.loadavg()[0]);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${files.length} files a pass; medians of ${args.rounds} rounds; load average ${load.map((l) => l.toFixed(1)).join(' → ')}`);
console.log(`${'child'.padEnd(44)} 2 passes before          | the 4 passes after: CPU ms (minor faults)`);
for (const [way, passes] of Object.entries(seen)) {
  const cells = passes.map((xs) => `${median(xs.map((x) => x.ms)).toFixed(1).padStart(6)} (${String(median(xs.map((x) => x.faults))).padStart(5)})`);
  console.log(`${CHILDREN[way].label.padEnd(44)} ${cells.slice(0, 2).join(' ')} | ${cells.slice(2).join(' ')}`);
}

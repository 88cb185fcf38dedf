// Two library builds in one process, passes alternating, over the corpus files of
// one size class: what a change does to the small files (most of a crawler's
// hosts), which a pass over the whole corpus hides (the 183 files over 10 KB are
// two fifths of its instructions) and which processes of their own cannot
// resolve on a shared machine (the same build's CPU time moves ±30% from one
// process to the next; in one process, pass after pass, a few %). Each pass
// compiles every file of the class with the package's compile() for Googlebot
// (google), `copies` times, and disposes it; with --work first it also checks
// the file's first walked probe, with --work mix all of its probes. Prints each
// build's median CPU µs a file and the median of the passes' ratios A/B (above 1:
// B faster), with how many passes B was faster in. The build imported first runs
// a little differently (its code and memory first): run both orders.
//   node bench/tools/class-ab.mjs [--class small|mid|large|all] [--work parse|first|mix] [--passes 40] DIST_A DIST_B
// DIST: a copy of dist/ (say /tmp/dist-a) with its index.js.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../corpus.mjs';
import { firstWalked } from '../workloads/parse-compile.mjs';

/** The classes by octets, as bench/tools/by-size.mjs has them, and the copies of a class a pass holds. */
const CLASSES = { small: [0, 1024, 10], mid: [1024, 10240, 3], large: [10240, Infinity, 1], all: [0, Infinity, 1] };

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { class: { type: 'string', default: 'small' }, work: { type: 'string', default: 'parse' }, passes: { type: 'string', default: '40' } },
});
if (positionals.length !== 2 || !(values.class in CLASSES) || !['parse', 'first', 'mix'].includes(values.work)) {
  throw new Error('give --class small|mid|large|all, --work parse|first|mix and two dist folders');
}
const [from, to, copies] = CLASSES[values.class];
const files = loadCorpus().filter((f) => f.bytes.length >= from && f.bytes.length < to);
const probes = files.map(firstWalked);
const builds = await Promise.all(positionals.map((dist) => import(pathToFileURL(path.resolve(dist, 'index.js')).href)));
const options = { profile: 'google', maxOctets: Infinity };
let allowed = 0;

/** CPU µs a file of one pass of a build. */
function pass(lib) {
  const t = process.cpuUsage();
  for (let c = 0; c < copies; c++) {
    for (let i = 0; i < files.length; i++) {
      const m = lib.compile(files[i].bytes, 'Googlebot', options);
      if (values.work === 'first') allowed += m.isAllowed(probes[i]) ? 1 : 0;
      else if (values.work === 'mix') for (const u of files[i].urls) allowed += m.isAllowed(u) ? 1 : 0;
      m.dispose();
    }
  }
  const u = process.cpuUsage(t);
  return (u.user + u.system) / (copies * files.length);
}

const a = [];
const b = [];
const ratios = [];
for (let p = 0; p < Number(values.passes); p++) {
  // Which build goes first alternates pass by pass; the first two passes warm both up.
  const [x, y] = p % 2 === 0 ? [pass(builds[0]), pass(builds[1])] : [pass(builds[1]), pass(builds[0])].reverse();
  if (p < 2) continue;
  a.push(x);
  b.push(y);
  ratios.push(x / y);
}
if (allowed < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
const median = (v) => [...v].sort((s, t) => s - t)[v.length >> 1];
console.log(`${values.class} (${files.length} files), ${values.work}: A ${median(a).toFixed(3)} µs a file, B ${median(b).toFixed(3)}; A/B ${median(ratios).toFixed(3)} (B faster in ${ratios.filter((r) => r > 1).length} of ${ratios.length} passes)`);

// Instructions a pass over the corpus takes, build against build: a count that
// the machine's load does not move (CPU time on this shared 2-core machine moves by
// ±8% from one process to the next, more than a change of a few percent). Each
// build runs the crawler's work (as crawler-ab.mjs: every corpus file parsed,
// compiled for Googlebot, first probe checked or not, disposed) under valgrind's
// cachegrind (instruction counts only), twice: with FEW and with MANY passes; the
// difference over MANY - FEW is a pass's instructions, the start (node, the
// corpus's loading, the first compiles) taken out. V8 runs on one thread
// (--single-threaded: its background compiles would count at random) and
// compiles WebAssembly with its optimising tier only (--no-liftoff). A screen,
// not a measure: runs of one build mostly agree within ~1%, but two of the same
// build once gave 256.8M and 294.8M (V8's compiles and collections fall in the
// passes differently): repeat a count before reading anything in it. And
// instructions are not time: 5% fewer in the core's loops saved no CPU time
// (docs/benchmarks.md, the first verdict's instructions and its time); a change
// is kept on time A/B (crawler-ab.mjs).
//   node bench/tools/instructions-ab.mjs [--work parse-compile|first-verdict] [--profile google|rfc] DIST [DIST…]
// About a minute and a half per build (valgrind runs ~150× slower).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);
const FEW = 2;
const MANY = 6;

if (process.env.INSTRUCTIONS_AB_CHILD) {
  const { loadCorpus } = await import('../corpus.mjs');
  const { firstWalked } = await import('../workloads/parse-compile.mjs');
  const { parse } = await import(pathToFileURL(path.join(process.env.INSTRUCTIONS_AB_CHILD, 'index.js')).href);
  const files = loadCorpus();
  const urls = files.map(firstWalked);
  const check = process.env.INSTRUCTIONS_AB_WORK === 'first-verdict';
  const profile = process.env.INSTRUCTIONS_AB_PROFILE;
  let allowed = 0;
  for (let pass = 0; pass < Number(process.env.INSTRUCTIONS_AB_PASSES); pass++) {
    for (let i = 0; i < files.length; i++) {
      const m = parse(files[i].bytes, { profile, maxBytes: Infinity }).compile('Googlebot');
      if (check) allowed += m.isAllowed(urls[i]) ? 1 : 0;
      m.dispose();
    }
  }
  if (allowed < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
} else {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { work: { type: 'string', default: 'parse-compile' }, profile: { type: 'string', default: 'google' } },
  });
  if (positionals.length === 0 || !['parse-compile', 'first-verdict'].includes(values.work) || !['google', 'rfc'].includes(values.profile)) {
    throw new Error('give --work parse-compile or first-verdict, --profile google or rfc, and one or more dist folders');
  }
  for (const dist of positionals) if (!existsSync(path.join(dist, 'index.js'))) throw new Error(`${dist}: no index.js there`);
  /** The instructions of one run of `passes` passes (all of the process's, in one thread). */
  const run = (dist, passes) => {
    const p = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null',
      process.execPath, '--single-threaded', '--no-liftoff', '--disable-wasm-trap-handler', HERE], {
      encoding: 'utf8',
      env: { ...process.env, INSTRUCTIONS_AB_CHILD: path.resolve(dist), INSTRUCTIONS_AB_WORK: values.work, INSTRUCTIONS_AB_PROFILE: values.profile, INSTRUCTIONS_AB_PASSES: String(passes) },
    });
    const refs = /I\s+refs:\s+([\d,]+)/.exec(p.stderr ?? '');
    if (p.status !== 0 || refs === null) throw new Error(`${dist}: valgrind exit ${p.status}: ${(p.stderr ?? '').slice(-500)}`);
    return Number(refs[1].replaceAll(',', ''));
  };
  const perPass = positionals.map((dist) => ({ dist, instructions: (run(dist, MANY) - run(dist, FEW)) / (MANY - FEW) }));
  for (const { dist, instructions } of perPass) {
    const against = perPass[0].instructions;
    const change = dist === perPass[0].dist ? '' : ` (${(((instructions - against) / against) * 100).toFixed(1)}% against ${perPass[0].dist})`;
    console.log(`${dist}, ${values.work} ${values.profile}: ${(instructions / 1e6).toFixed(1)}M instructions a pass over the corpus${change}`);
  }
}

// This engine behind the native drivers' --bench protocol (./external.mjs), so that it can be
// measured as they are: in a process of its own, started for the round, loading the corpus
// first and then timing in process. The bench's own rows of this engine run in the bench's
// process beside five JavaScript engines, whose code and garbage share its heap and caches
// (docs/benchmarks.md "This engine in its own process"); this row compares like with like
// against the native drivers, each engine alone in its process.
//
//   node robots-wasm-driver.mjs [--profile google|rfc] [--clock thread|wall] --bench CORPUS_DIR PROBES_TSV AGENT REPS
//
// Per repetition, on stderr: "rep N: parse Xs first Ys urls Zs mix Zs" (parse: compile and dispose,
// each file; first: compile, the host's first probe, dispose; urls and mix: compile once and every
// probe of the host); on stdout one JSON line of the sizes. No match phase (probes against
// matchers compiled before: the corpus workload's, which this row takes no part in; its matchers'
// hot compiles left garbage that slowed the next repetition's parse by half). Before the
// repetitions, WARMUP untimed passes of each phase: the native drivers have no compiler to warm
// up, and the first repetition (which runRound drops) is one pass of each, short of what V8's
// optimising compiler waits for (a phase first run in a repetition ran twice as slow in the
// next). The clock: this thread's CPU time (../thread-clock.mjs, `thread`: the -cpu drivers'
// clock), or the wall clock.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { threadCpuClock } from '../thread-clock.mjs';

const WARMUP = 3;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { profile: { type: 'string', default: 'google' }, clock: { type: 'string', default: 'wall' }, bench: { type: 'boolean' } },
});
if (!values.bench || positionals.length !== 4) {
  process.stderr.write('usage: robots-wasm-driver.mjs [--profile google|rfc] [--clock thread|wall] --bench CORPUS_DIR PROBES_TSV AGENT REPS\n');
  process.exit(2);
}
const [dir, tsv, agent, repsArg] = positionals;
const reps = Number(repsArg);
const profile = values.profile;
if (profile !== 'google' && profile !== 'rfc') {
  process.stderr.write(`robots-wasm-driver: --profile takes google or rfc, got ${profile}\n`);
  process.exit(2);
}

const { compile } = await import(new URL('../../dist/index.js', import.meta.url).href);

/** The hosts of the probes file, in its order, each with its body and probes.
 * @type {{ host: string, bytes: Buffer, urls: string[] }[]} */
const hosts = [];
try {
  for (const line of readFileSync(tsv, 'utf8').split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    if (tab < 0) throw new Error(`${tsv}: a line without a tab: ${JSON.stringify(line.slice(0, 80))}`);
    const host = line.slice(0, tab);
    if (hosts.length === 0 || hosts[hosts.length - 1].host !== host) hosts.push({ host, bytes: readFileSync(path.join(dir, host)), urls: [] });
    hosts[hosts.length - 1].urls.push(line.slice(tab + 1));
  }
} catch (e) {
  process.stderr.write(`robots-wasm-driver: ${e instanceof Error ? e.message : e}\n`);
  process.exit(2);
}
if (hosts.length === 0 || !Number.isInteger(reps) || reps < 1) {
  process.stderr.write('robots-wasm-driver: no probes, or REPS not a whole number of 1 or more\n');
  process.exit(2);
}
const options = { profile, maxOctets: Infinity };

const clock = values.clock === 'thread' ? threadCpuClock() : { now: () => performance.now(), kind: 'wall' };
const seconds = (fn) => {
  const t = clock.now();
  fn();
  return (clock.now() - t) / 1000;
};

let sink = 0;
const parse = () => {
  for (const h of hosts) compile(h.bytes, agent, options).dispose();
};
const first = () => {
  for (const h of hosts) {
    const m = compile(h.bytes, agent, options);
    sink += m.isAllowed(h.urls[0]) ? 1 : 0;
    m.dispose();
  }
};
const mix = () => {
  for (const h of hosts) {
    const m = compile(h.bytes, agent, options);
    for (const u of h.urls) sink += m.isAllowed(u) ? 1 : 0;
    m.dispose();
  }
};
for (let w = 0; w < WARMUP; w++) {
  parse();
  first();
  mix();
}
for (let r = 0; r < reps; r++) {
  const p = seconds(parse);
  const f = seconds(first);
  const x = seconds(mix);
  process.stderr.write(`rep ${r}: parse ${p.toFixed(6)}s first ${f.toFixed(6)}s urls ${x.toFixed(6)}s mix ${x.toFixed(6)}s\n`);
}
const urls = hosts.reduce((n, h) => n + h.urls.length, 0);
const bytes = hosts.reduce((n, h) => n + h.bytes.length, 0);
console.log(JSON.stringify({ engine: `robots-wasm ${profile}`, agent, clock: clock.kind, files: hosts.length, urls, bytes, reps, warmup: WARMUP, sink }));

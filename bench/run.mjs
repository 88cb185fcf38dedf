// npm run bench [-- --quick] [-- --rfc]: this engine against robots-parser, side by
// side in one run, full URL strings, agent Googlebot, over the real corpus probes.
// Figures are ratios against robots-parser measured in the same run.
import os from 'node:os';
import { Bench } from 'tinybench';
import robotsParser from 'robots-parser';
import { parse } from '../dist/index.js';
import { loadCorpus, mostRules } from './corpus.mjs';

const quick = process.argv.includes('--quick');
const AGENT = 'Googlebot';
const PROFILE = process.argv.includes('--rfc') ? 'rfc' : 'google';
const options = {
  time: quick ? 1000 : 4000,
  // At least a few passes of each task, and as many as fit in `time` ms.
  iterations: quick ? 5 : 15,
  warmupTime: quick ? 200 : 500,
  warmupIterations: 2,
};

let hosts;
try {
  hosts = loadCorpus();
} catch (e) {
  console.error(`bench: ${e.message}`);
  process.exit(2);
}
const top20 = mostRules(hosts, 20);
const count = (hs) => hs.reduce((n, h) => n + h.urls.length, 0);
const bytes = (hs) => hs.reduce((n, h) => n + h.body.length, 0);
const began = performance.now();
let sink = 0;
console.error(`bench: ${hosts.length} files, ${count(hosts)} probe URLs, profile ${PROFILE}, ${quick ? 'quick' : 'full'} run ...`);

/** Runs named tasks ([units per pass, fn]) in one Bench; returns their results. */
async function measure(tasks) {
  const bench = new Bench(options);
  for (const [name, [, fn]] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  return bench.tasks.map((t) => ({ name: t.name, units: tasks[t.name][0], latency: t.result.latency }));
}

// Parsing first, while the heap holds nothing else.
const parsing = await measure({
  'parse+compile (ours)': [bytes(hosts), () => { for (const h of hosts) parse(h.body, { profile: PROFILE, maxBytes: Infinity }).compile(AGENT).dispose(); }],
  // compile() stops at the pattern table; the automaton's start state comes with the first check.
  'parse+compile+1st check (ours)': [bytes(hosts), () => { for (const h of hosts) { const m = parse(h.body, { profile: PROFILE, maxBytes: Infinity }).compile(AGENT); sink += m.isAllowed(h.urls[0]) ? 1 : 0; m.dispose(); } }],
  'parse (robots-parser)': [bytes(hosts), () => { for (const h of hosts) sink += robotsParser(`${h.origin}/robots.txt`, h.text) ? 1 : 0; }],
});

function prepare(hs) {
  return hs.map((h) => ({
    ...h,
    matcher: parse(h.body, { profile: PROFILE, maxBytes: Infinity }).compile(AGENT),
    peer: robotsParser(`${h.origin}/robots.txt`, h.text),
  }));
}
const all = prepare(hosts);
const heavy = prepare(top20);
// Warm the lazy automata once, so the runs measure steady-state matching.
for (const h of [...all, ...heavy]) h.matcher.checkMany(h.urls);

const matching = await measure({
  'corpus: isAllowed (ours)': [count(hosts), () => { for (const h of all) for (const u of h.urls) sink += h.matcher.isAllowed(u) ? 1 : 0; }],
  'corpus: checkMany (ours)': [count(hosts), () => { for (const h of all) sink += h.matcher.checkMany(h.urls)[0]; }],
  'corpus: robots-parser': [count(hosts), () => { for (const h of all) for (const u of h.urls) sink += h.peer.isAllowed(u, AGENT) ? 1 : 0; }],
  'top-20 rules: isAllowed (ours)': [count(top20), () => { for (const h of heavy) for (const u of h.urls) sink += h.matcher.isAllowed(u) ? 1 : 0; }],
  'top-20 rules: checkMany (ours)': [count(top20), () => { for (const h of heavy) sink += h.matcher.checkMany(h.urls)[0]; }],
  'top-20 rules: robots-parser': [count(top20), () => { for (const h of heavy) for (const u of h.urls) sink += h.peer.isAllowed(u, AGENT) ? 1 : 0; }],
});

// Rates from the median pass (robust on a shared, noisy machine); min and max show the spread.
const rate = {};
const rows = [...matching, ...parsing].map(({ name, units, latency: lat }) => {
  const mbs = name.startsWith('parse');
  const per = (ms) => (mbs ? (units / (ms / 1000) / 1e6).toFixed(1) : Math.round(units / (ms / 1000)).toLocaleString('en'));
  rate[name] = units / (lat.p50 / 1000);
  return {
    task: name,
    passes: lat.samplesCount,
    'median ms': lat.p50.toFixed(2),
    unit: mbs ? 'MB/s' : 'URLs/s',
    'rate (median)': per(lat.p50),
    'rate (best)': per(lat.min),
    'rate (worst)': per(lat.max),
  };
});
console.table(rows);
const ratio = (a, b) => (rate[a] / rate[b]).toFixed(1) + '×';
console.log('Ratios against robots-parser, same run:');
console.log(`  corpus       isAllowed ${ratio('corpus: isAllowed (ours)', 'corpus: robots-parser')}   checkMany ${ratio('corpus: checkMany (ours)', 'corpus: robots-parser')}`);
console.log(`  top-20 rules isAllowed ${ratio('top-20 rules: isAllowed (ours)', 'top-20 rules: robots-parser')}   checkMany ${ratio('top-20 rules: checkMany (ours)', 'top-20 rules: robots-parser')}`);
console.log(`  parse+compile vs parse: ${ratio('parse+compile (ours)', 'parse (robots-parser)')}   with the first check: ${ratio('parse+compile+1st check (ours)', 'parse (robots-parser)')} (MB/s)`);
console.log(`(${((performance.now() - began) / 1000).toFixed(0)} s; node ${process.version}; ${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length})`);
if (sink === 42) console.log('');

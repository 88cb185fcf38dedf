// npm run bench [-- --quick]: this engine against robots-parser, side by side in
// one run, full URL strings, agent Googlebot, over the real corpus probes.
// Figures are ratios against robots-parser measured in the same run.
import { Bench } from 'tinybench';
import robotsParser from 'robots-parser';
import { parse } from '../dist/index.js';
import { loadCorpus, mostRules } from './corpus.mjs';

const quick = process.argv.includes('--quick');
const AGENT = 'Googlebot';
const PROFILE = process.argv.includes('--rfc') ? 'rfc' : 'google';
const time = quick ? 1000 : 4000;

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

let sink = 0;
const bench = new Bench({ time, warmupTime: quick ? 200 : 500 });
const tasks = {
  'corpus: isAllowed (ours)': [count(hosts), () => { for (const h of all) for (const u of h.urls) sink += h.matcher.isAllowed(u) ? 1 : 0; }],
  'corpus: checkMany (ours)': [count(hosts), () => { for (const h of all) sink += h.matcher.checkMany(h.urls)[0]; }],
  'corpus: robots-parser': [count(hosts), () => { for (const h of all) for (const u of h.urls) sink += h.peer.isAllowed(u, AGENT) ? 1 : 0; }],
  'top-20 rules: isAllowed (ours)': [count(top20), () => { for (const h of heavy) for (const u of h.urls) sink += h.matcher.isAllowed(u) ? 1 : 0; }],
  'top-20 rules: checkMany (ours)': [count(top20), () => { for (const h of heavy) sink += h.matcher.checkMany(h.urls)[0]; }],
  'top-20 rules: robots-parser': [count(top20), () => { for (const h of heavy) for (const u of h.urls) sink += h.peer.isAllowed(u, AGENT) ? 1 : 0; }],
  'parse+compile (ours)': [bytes(hosts), () => { for (const h of hosts) parse(h.body, { profile: PROFILE, maxBytes: Infinity }).compile(AGENT).dispose(); }],
  'parse (robots-parser)': [bytes(hosts), () => { for (const h of hosts) sink += robotsParser(`${h.origin}/robots.txt`, h.text) ? 1 : 0; }],
};
for (const [name, [, fn]] of Object.entries(tasks)) bench.add(name, fn);

console.error(`bench: ${hosts.length} files, ${count(hosts)} probe URLs, profile ${PROFILE}, ${quick ? 'quick' : 'full'} run ...`);
await bench.run();

const rate = {};
const rows = bench.tasks.map((t) => {
  const [units] = tasks[t.name];
  const r = t.result;
  const lat = r.latency ?? r;
  const mean = lat.mean; // ms per pass
  rate[t.name] = units / (mean / 1000);
  return { task: t.name, samples: lat.samples?.length ?? r.samples?.length, 'ms/pass': mean.toFixed(2), 'min': lat.min.toFixed(2), 'max': lat.max.toFixed(2), unit: t.name.startsWith('parse') ? 'MB/s' : 'URLs/s', rate: t.name.startsWith('parse') ? (rate[t.name] / 1e6).toFixed(2) : Math.round(rate[t.name]).toLocaleString('en') };
});
console.table(rows);
const ratio = (a, b) => (rate[a] / rate[b]).toFixed(1) + '×';
console.log('Ratios against robots-parser, same run:');
console.log(`  corpus       isAllowed ${ratio('corpus: isAllowed (ours)', 'corpus: robots-parser')}   checkMany ${ratio('corpus: checkMany (ours)', 'corpus: robots-parser')}`);
console.log(`  top-20 rules isAllowed ${ratio('top-20 rules: isAllowed (ours)', 'top-20 rules: robots-parser')}   checkMany ${ratio('top-20 rules: checkMany (ours)', 'top-20 rules: robots-parser')}`);
console.log(`  parse+compile vs parse: ${ratio('parse+compile (ours)', 'parse (robots-parser)')} (MB/s)`);
if (sink === 42) console.log('');

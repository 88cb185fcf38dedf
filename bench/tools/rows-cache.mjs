// What rows out of the caches cost checkMany (issue 28's row), with more rounds
// than the bench's workload `rows-cache` (bench/workloads/rows-cache.mjs says what
// the four loops are), and what the rows are: states per matcher, octets per row
// (16 of accept data + a u16 entry per byte class), the octets of rows in use over
// the corpus (the hot set).
//   node bench/tools/rows-cache.mjs [--rounds 8] [--round-urls 300000] [--engine wasm-google-batch]
// The machine is shared (2 cores): run it twice, read the spread of the rounds.
import { parseArgs } from 'node:util';
import { loadAdapters } from '../adapters/index.mjs';
import { loadCorpus } from '../corpus.mjs';
import { measureRows } from '../workloads/rows-cache.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    'round-urls': { type: 'string', default: '300000' },
    engine: { type: 'string', default: 'wasm-google-batch' },
  },
});
const ROUNDS = Number(values.rounds);
const ROUND_URLS = Number(values['round-urls']);
const corpus = loadCorpus();
const adapter = (await loadAdapters()).adapters.find((a) => a.id === values.engine);
if (!adapter?.checkMany) throw new Error(`no checkMany engine ${values.engine}`);
const { loops, rows } = await measureRows(adapter, corpus, 'Googlebot', { rounds: ROUNDS, roundUrls: ROUND_URLS });

// The rows of the corpus matchers, as their walks left them.
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const states = rows.map((r) => r.states).sort((a, b) => a - b);
const widths = rows.map((r) => r.rowBytes).sort((a, b) => a - b);
const hot = sum(rows.map((r) => r.states * r.rowBytes));
console.log(`${rows.length} hot corpus matchers (${rows.filter((r) => r.wide).length} with u32 entries): states p50 ${pct(states, 0.5)}, p90 ${pct(states, 0.9)}, max ${states.at(-1)}; ` +
  `${states.filter((s) => s < 256).length} under 256 states; octets a row p50 ${pct(widths, 0.5)}, p90 ${pct(widths, 0.9)}, max ${widths.at(-1)}; ` +
  `rows in use ${(hot / 2 ** 20).toFixed(1)} MiB (entries ${(sum(rows.map((r) => r.states * (r.rowBytes - 16))) / 2 ** 20).toFixed(1)} MiB, accept data ${(sum(rows.map((r) => r.states * 16)) / 2 ** 20).toFixed(1)} MiB)`);
for (const [id, l] of Object.entries(loops)) console.log(`${id}: ${l.ns.toFixed(0)} ns a URL (rounds ${l.min.toFixed(0)}-${l.max.toFixed(0)}; ${l.matchers} matchers, ${l.urls} URLs a pass)`);
const { few, spread, corpus: all, blocks } = Object.fromEntries(Object.entries(loops).map(([id, l]) => [id, l.ns]));
console.log(`spread/few ${(spread / few).toFixed(2)}x (rows out of the caches; goal <= 1.5x), corpus/blocks ${(all / blocks).toFixed(2)}x (rows and URLs out of the caches), corpus/few ${(all / few).toFixed(2)}x`);

// Why the corpus warm loop is slower over 4,241 hosts than over 64: the
// matchers' tables, or the URL strings? Four loops, each engine's own (as the
// bench's `corpus` workload runs it, host after host):
//   1. 64 corpus hosts (every 66th), their URLs: everything in the caches;
//   2. the same 64 matchers, their URLs copied into 4,241 lists of fresh
//      strings (one per batch): the strings spread as over 4,241 hosts;
//   3. 4,241 matchers, each of the 64 files compiled 66 times, the 64 URL
//      lists shared: the tables spread as over 4,241 hosts, the strings not;
//   4. the 4,241 corpus hosts and their URLs (the bench's loop).
// What 2 and 3 add to 1 is what each spread costs. CPU time per URL, median of
// the rounds after an untimed one; each round checks at least 300,000 URLs.
//   node bench/tools/host-spread.mjs [--rounds 5] [--engines wasm-google,wasm-google-batch,robots-parser]
import { parseArgs } from 'node:util';
import { loadAdapters } from '../adapters/index.mjs';
import { loadCorpus } from '../corpus.mjs';
import { warmRate } from './warm-rate.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    engines: { type: 'string', default: 'wasm-google,wasm-google-batch,robots-parser' },
  },
});
const ROUND_URLS = 300_000;
const FEW = 64;
const corpus = loadCorpus();
const many = corpus.length;
const few = Array.from({ length: FEW }, (_, i) => corpus[Math.floor((i * many) / FEW)]);
/** A copy of s in a string of its own (not a slice of it, nor the same object). */
const fresh = (s) => Array.from(s).join('');
const wanted = values.engines.split(',');
const adapters = (await loadAdapters()).adapters.filter((a) => wanted.includes(a.id));
if (adapters.length === 0) throw new Error(`no engine among ${values.engines}`);

const loops = [
  { label: `${FEW} hosts, their URLs`, files: few, batches: few.map((f, file) => ({ file, urls: f.urls })) },
  { label: `${FEW} hosts, URLs in ${many} lists of copies`, files: few, batches: Array.from({ length: many }, (_, j) => ({ file: j % FEW, urls: few[j % FEW].urls.map(fresh) })) },
  { label: `${many} matchers of the ${FEW} files, URLs shared`, files: Array.from({ length: many }, (_, j) => few[j % FEW]), batches: Array.from({ length: many }, (_, j) => ({ file: j, urls: few[j % FEW].urls })) },
  { label: `${many} corpus hosts, their URLs`, files: corpus, batches: corpus.map((f, file) => ({ file, urls: f.urls })) },
];

for (const adapter of adapters) {
  const row = [];
  for (const { files, batches } of loops) {
    const rate = await warmRate(adapter, files, batches, { rounds: Number(values.rounds), roundUrls: ROUND_URLS });
    row.push(1e9 / rate);
  }
  console.log(`${adapter.id}: ` + loops.map((l, i) => `${l.label} ${row[i].toFixed(0)} ns`).join('; '));
}

// What rows out of the caches cost checkMany (issue 28's row): the same URLs
// decided by 64 matchers, and spread over 4,241. Three loops, each
// wasm-google-batch's own (host after host, checkMany per host), all matchers
// compiled hot (coldOctets 0) and warmed by an untimed round first:
//   few:    64 corpus files (every 66th), their probe URLs;
//   spread: 4,241 matchers, the same 64 files compiled 66 times each, the 64
//           URL lists shared: the same walks, the rows spread over 4,241 tables;
//   corpus: the 4,241 corpus matchers, their own URLs (the bench's loop);
//   blocks: the same, 64 hosts at a time, each block's pass done 16 times over
//           before the next: the same matchers, URLs and walks, in the caches
//           but for a block's first pass.
// The figures are spread/few (what the rows cost; the goal ≤ 1.5×),
// corpus/blocks (what the rows and URL strings out of the caches cost on the
// corpus's own walks) and corpus/few (the 64 files' walks are not the corpus's:
// host-spread.mjs found the rest of the gap there, not in the caches). CPU time (user + system) per URL, each loop timed in turn within
// a round, the order reversed every other round (few first, then last), the
// median of the rounds. It also prints what the rows are: states per matcher,
// octets per row (16 of accept data + a u16 entry per byte class), the octets
// of rows in use over the corpus (the hot set).
//   node bench/tools/rows-cache.mjs [--rounds 8] [--round-urls 300000] [--engine wasm-google-batch]
// The machine is shared (2 cores): run it twice, read the spread of the rounds.
import { parseArgs } from 'node:util';
import { loadAdapters } from '../adapters/index.mjs';
import { loadCorpus } from '../corpus.mjs';
import { ownLoop, prepareHandles, releaseHandles } from '../matching.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    'round-urls': { type: 'string', default: '300000' },
    engine: { type: 'string', default: 'wasm-google-batch' },
  },
});
const ROUNDS = Number(values.rounds);
const ROUND_URLS = Number(values['round-urls']);
const FEW = 64;
const REPEATS = 16;
const corpus = loadCorpus();
const many = corpus.length;
const fewFiles = Array.from({ length: FEW }, (_, i) => corpus[Math.floor((i * many) / FEW)]);
const adapter = (await loadAdapters()).adapters.find((a) => a.id === values.engine);
if (!adapter?.checkMany) throw new Error(`no checkMany engine ${values.engine}`);

const loops = [
  { id: 'few', files: fewFiles, batches: fewFiles.map((f, file) => ({ file, urls: f.urls })) },
  { id: 'spread', files: Array.from({ length: many }, (_, j) => fewFiles[j % FEW]), batches: Array.from({ length: many }, (_, j) => ({ file: j, urls: fewFiles[j % FEW].urls })) },
  { id: 'corpus', files: corpus, batches: corpus.map((f, file) => ({ file, urls: f.urls })) },
  { id: 'blocks', files: corpus, batches: Array.from({ length: Math.ceil(many / FEW) }, (_, b) => Array.from({ length: REPEATS }, () => corpus.slice(b * FEW, (b + 1) * FEW).map((f, i) => ({ file: b * FEW + i, urls: f.urls })))).flat(2) },
];
const loop = ownLoop(adapter, { count: 0 });
let sink = 0;
for (const l of loops) {
  l.handles = (await prepareHandles(adapter, l.files, 'Googlebot', { warm: true })).handles;
  l.urls = l.batches.reduce((sum, b) => sum + b.urls.length, 0);
  for (let warmed = 0; warmed < ROUND_URLS; warmed += l.urls) sink += loop(l.handles, l.batches); // automata built, the JIT warm
  l.ns = [];
}

// The rows of the corpus matchers, as their walks left them.
const rows = loops[2].handles.filter((m) => m?.dfa?.tables).map((m) => ({ states: m.stats.states, rowBytes: m.dfa.tables.rowBytes, wide: m.dfa.tables.wide }));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const states = rows.map((r) => r.states).sort((a, b) => a - b);
const widths = rows.map((r) => r.rowBytes).sort((a, b) => a - b);
const hot = sum(rows.map((r) => r.states * r.rowBytes));
console.log(`${rows.length} hot corpus matchers (${rows.filter((r) => r.wide).length} with u32 entries): states p50 ${pct(states, 0.5)}, p90 ${pct(states, 0.9)}, max ${states.at(-1)}; ` +
  `${states.filter((s) => s < 256).length} under 256 states; octets a row p50 ${pct(widths, 0.5)}, p90 ${pct(widths, 0.9)}, max ${widths.at(-1)}; ` +
  `rows in use ${(hot / 2 ** 20).toFixed(1)} MiB (entries ${(sum(rows.map((r) => r.states * (r.rowBytes - 16))) / 2 ** 20).toFixed(1)} MiB, accept data ${(sum(rows.map((r) => r.states * 16)) / 2 ** 20).toFixed(1)} MiB)`);

function timeLoop(l) {
  const t = process.cpuUsage();
  let checked = 0;
  while (checked < ROUND_URLS) {
    sink += loop(l.handles, l.batches);
    checked += l.urls;
  }
  const u = process.cpuUsage(t);
  l.ns.push(((u.user + u.system) * 1e3) / checked);
}
for (let r = 0; r < ROUNDS; r++) for (const l of r % 2 === 0 ? loops : [...loops].reverse()) timeLoop(l);
if (sink < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
for (const l of loops) releaseHandles(adapter, l.handles);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [few, spread, all, blocks] = loops.map((l) => median(l.ns));
for (const l of loops) console.log(`${l.id}: ${median(l.ns).toFixed(0)} ns a URL (rounds ${Math.min(...l.ns).toFixed(0)}-${Math.max(...l.ns).toFixed(0)}; ${l.handles.length} matchers, ${l.urls} URLs a pass)`);
console.log(`spread/few ${(spread / few).toFixed(2)}x (rows out of the caches; goal <= 1.5x), corpus/blocks ${(all / blocks).toFixed(2)}x (rows and URLs out of the caches), corpus/few ${(all / few).toFixed(2)}x`);

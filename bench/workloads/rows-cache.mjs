// This engine against itself: what matcher rows out of the CPU caches cost
// checkMany (issue 28's row: 4,241 matchers against 64, the same URLs; goal
// at most 1.5×). Four loops, each the batch engine's own (host after host,
// checkMany per host), every matcher compiled hot (coldOctets 0) and warmed by
// an untimed pass first:
//   few:    64 corpus files (every 66th), their probe URLs;
//   spread: 4,241 matchers, the same 64 files compiled 66 times each, the same
//           URL lists: the same walks, the rows spread over 4,241 tables;
//   corpus: the 4,241 corpus matchers, their own URLs (the bench's loop);
//   blocks: the same, 64 hosts at a time, each block's pass done 16 times over
//           before the next: the same matchers, URLs and walks, in the caches
//           but for a block's first pass.
// spread/few is the figure (what the rows cost, the walks alike); corpus/blocks
// is what rows and URL strings out of the caches cost on the corpus's own walks;
// corpus/few mixes in that the 64 files' walks are not the corpus's
// (bench/tools/host-spread.mjs found the rest of that gap there, not in the
// caches). CPU time (user + system) per URL, the loops timed in turn within a
// round, the order reversed every other round, the median of the rounds.
import { ownLoop, prepareHandles, releaseHandles } from '../matching.mjs';

const FEW = 64;
const REPEATS = 16;
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** The four loops' ns per URL (median and spread of the rounds), and the hot rows of the corpus matchers. */
export async function measureRows(adapter, corpus, agent, { rounds, roundUrls }) {
  const many = corpus.length;
  const fewFiles = Array.from({ length: FEW }, (_, i) => corpus[Math.floor((i * many) / FEW)]);
  const loops = [
    { id: 'few', files: fewFiles, batches: fewFiles.map((f, file) => ({ file, urls: f.urls })) },
    { id: 'spread', files: Array.from({ length: many }, (_, j) => fewFiles[j % FEW]), batches: Array.from({ length: many }, (_, j) => ({ file: j, urls: fewFiles[j % FEW].urls })) },
    { id: 'corpus', files: corpus, batches: corpus.map((f, file) => ({ file, urls: f.urls })) },
    { id: 'blocks', files: corpus, batches: Array.from({ length: Math.ceil(many / FEW) }, (_, b) => Array.from({ length: REPEATS }, () => corpus.slice(b * FEW, (b + 1) * FEW).map((f, i) => ({ file: b * FEW + i, urls: f.urls })))).flat(2) },
  ];
  const loop = ownLoop(adapter, { count: 0 });
  let sink = 0;
  for (const l of loops) {
    l.handles = (await prepareHandles(adapter, l.files, agent, { warm: true })).handles;
    l.urls = l.batches.reduce((sum, b) => sum + b.urls.length, 0);
    for (let warmed = 0; warmed < roundUrls; warmed += l.urls) sink += loop(l.handles, l.batches); // automata built, the JIT warm
    l.ns = [];
  }
  const rows = loops[2].handles.filter((m) => m?.dfa?.tables).map((m) => ({ states: m.stats.states, rowBytes: m.dfa.tables.rowBytes, wide: m.dfa.tables.wide }));
  const timeLoop = (l) => {
    const t = process.cpuUsage();
    let checked = 0;
    while (checked < roundUrls) {
      sink += loop(l.handles, l.batches);
      checked += l.urls;
    }
    const u = process.cpuUsage(t);
    l.ns.push(((u.user + u.system) * 1e3) / checked);
  };
  for (let r = 0; r < rounds; r++) for (const l of r % 2 === 0 ? loops : [...loops].reverse()) timeLoop(l);
  if (sink < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
  for (const l of loops) releaseHandles(adapter, l.handles);
  const out = Object.fromEntries(loops.map((l) => [l.id, { ns: median(l.ns), rounds: l.ns, min: Math.min(...l.ns), max: Math.max(...l.ns), matchers: l.handles.length, urls: l.urls }]));
  return { loops: out, rows };
}

export default {
  id: 'rows-cache',
  title: 'Rows out of the caches: checkMany over 4,241 matchers against 64',
  kind: 'self',
  unit: '×',
  needsCorpus: true,
  // This engine's batch path alone (the rows are its own).
  appliesTo: (adapter) => adapter.library === 'robots-wasm' && !!adapter.checkMany,
  describe: (ctx) => `checkMany, host after host, every matcher hot and warm: the same URLs over 64 corpus matchers ("few") and over 4,241 (the 64 files compiled 66 times each, "spread"), and the corpus's own URLs over its 4,241 matchers ("corpus") against the same in blocks of 64 hosts each repeated 16 times ("blocks"); the figure is spread/few (what rows out of the caches cost; goal at most 1.5×), CPU time per URL, loops in turn, order reversed each round, median of ${ctx.quick ? 3 : 7} rounds`,
  async run(ctx, adapter) {
    const { loops } = await measureRows(adapter, ctx.corpus(), ctx.agent, ctx.quick ? { rounds: 3, roundUrls: 100_000 } : { rounds: 7, roundUrls: 300_000 });
    // The ratio of the medians; min and max are those of the rounds' own ratios (both loops timed in the same round).
    const variants = [['spread', 'few'], ['corpus', 'blocks'], ['corpus', 'few']].map(([a, b]) => {
      const perRound = loops[a].rounds.map((ns, r) => ns / loops[b].rounds[r]);
      return { label: `${a}/${b}`, median: loops[a].ns / loops[b].ns, min: Math.min(...perRound), max: Math.max(...perRound), samples: perRound.length, note: `${a} ${loops[a].ns.toFixed(0)} ns a URL (${loops[a].matchers.toLocaleString('en')} matchers), ${b} ${loops[b].ns.toFixed(0)} ns (${loops[b].matchers.toLocaleString('en')})` };
    });
    return { median: variants[0].median, min: variants[0].min, max: variants[0].max, variants };
  },
};

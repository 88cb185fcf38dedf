// The corpus warm loop (as the bench's `corpus` workload runs it: each engine's
// own loop, host after host, every URL of a host in a row) over a share of the
// corpus's hosts: every k-th host, so that 64 or 256 hosts' tables fit in the
// caches and 4,241 do not. Shows how much of an engine's speed is its memory
// hierarchy: this engine's automata are walked a table load per octet, so a
// pass over more hosts than the caches hold waits on memory; robots-parser's
// regular expressions are compute-bound and barely notice. CPU time, median of
// the rounds; each round checks at least 200,000 URLs (the hosts over again).
//   node bench/tools/warm-hosts.mjs [--hosts 64,256,1024,4241] [--rounds 7] [--engines wasm-google,wasm-google-batch,robots-parser]
import { parseArgs } from 'node:util';
import { loadAdapters } from '../adapters/index.mjs';
import { loadCorpus } from '../corpus.mjs';
import { ownLoop, prepareHandles, releaseHandles } from '../matching.mjs';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: '64,256,1024,4241' },
    rounds: { type: 'string', default: '7' },
    engines: { type: 'string', default: 'wasm-google,wasm-google-batch,wasm-rfc,wasm-rfc-batch,robots-parser' },
  },
});
const ROUND_URLS = 200_000;
const corpus = loadCorpus();
const counts = values.hosts.split(',').map(Number);
if (counts.some((n) => !(n >= 1))) throw new Error('--hosts takes host counts, e.g. 64,256,4241');
const wanted = values.engines.split(',');
const adapters = (await loadAdapters()).adapters.filter((a) => wanted.includes(a.id));
if (adapters.length === 0) throw new Error(`no engine among ${values.engines}`);

const rows = [];
for (const n of counts) {
  const files = Array.from({ length: Math.min(n, corpus.length) }, (_, i) => corpus[Math.floor((i * corpus.length) / Math.min(n, corpus.length))]);
  const batches = files.map((f, file) => ({ file, urls: f.urls }));
  const urls = batches.reduce((sum, b) => sum + b.urls.length, 0);
  const row = { hosts: files.length };
  for (const adapter of adapters) {
    const { handles } = await prepareHandles(adapter, files, 'Googlebot', { warm: true });
    const loop = ownLoop(adapter, { count: 0 });
    let sink = loop(handles, batches); // the warm pass: automata built, the JIT warm
    const rates = [];
    for (let r = 0; r < Number(values.rounds); r++) {
      const t = process.cpuUsage();
      let checked = 0;
      while (checked < ROUND_URLS) {
        sink += loop(handles, batches);
        checked += urls;
      }
      const u = process.cpuUsage(t);
      rates.push(checked / ((u.user + u.system) / 1e6));
    }
    if (sink < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
    releaseHandles(adapter, handles);
    row[adapter.id] = rates.sort((a, b) => a - b)[rates.length >> 1];
  }
  rows.push(row);
  const base = row['robots-parser'];
  console.log(`${String(row.hosts).padStart(5)} hosts: ` + adapters.map((a) => `${a.id} ${(row[a.id] / 1e6).toFixed(2)}M${base && a.id !== 'robots-parser' ? ` (${(row[a.id] / base).toFixed(1)}x)` : ''}`).join(', '));
}

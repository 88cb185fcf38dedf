// The corpus warm loop (as the bench's `corpus` workload runs it: each engine's
// own loop, host after host, every URL of a host in a row) over a share of the
// corpus's hosts: every k-th host, so that 64 or 256 hosts' tables fit in the
// caches and 4,241 do not. Both engines slow down with more hosts: this
// engine's automata are walked a table load per octet, and a pass over more
// hosts than the caches hold waits on memory; robots-parser, by as much, from
// the files the larger shares hold, not from their spread (host-spread.mjs
// tells the two apart). CPU time, median of the rounds after an untimed one;
// each round checks at least 200,000 URLs (the hosts over again).
//   node bench/tools/warm-hosts.mjs [--hosts 64,256,1024,4241] [--rounds 7] [--engines wasm-google,wasm-google-batch,robots-parser]
import { parseArgs } from 'node:util';
import { loadAdapters } from '../adapters/index.mjs';
import { loadCorpus } from '../corpus.mjs';
import { warmRate } from './warm-rate.mjs';

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

for (const n of counts) {
  const files = Array.from({ length: Math.min(n, corpus.length) }, (_, i) => corpus[Math.floor((i * corpus.length) / Math.min(n, corpus.length))]);
  const batches = files.map((f, file) => ({ file, urls: f.urls }));
  const row = { hosts: files.length };
  for (const adapter of adapters) row[adapter.id] = await warmRate(adapter, files, batches, { rounds: Number(values.rounds), roundUrls: ROUND_URLS });
  const base = row['robots-parser'];
  console.log(`${String(row.hosts).padStart(5)} hosts: ` + adapters.map((a) => `${a.id} ${(row[a.id] / 1e6).toFixed(2)}M${base && a.id !== 'robots-parser' ? ` (${(row[a.id] / base).toFixed(1)}x)` : ''}`).join(', '));
}

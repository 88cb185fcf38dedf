// What a host costs this engine, outside the harness, for profiling and A/B
// work on the crawler's shape (node --cpu-prof works on it):
//   node --expose-gc bench/tools/host-costs.mjs [time|memory] [google|rfc] [DIST]
// time: per pass over the corpus, parse + compile + first verdict (MB/s) and
// parse + compile + all of a host's probes (URLs/s), 7 passes alternating;
// memory: per host, what the JS heap, ArrayBuffers and the core's blocks hold
// after compiling every corpus host and checking its probes.
// DIST (default dist/) lets two builds be compared: copy one to another folder
// inside the repository (say build/dist-a) and run each in turn.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadCorpus } from '../corpus.mjs';
import { firstWalked } from '../workloads/parse-compile.mjs';

const [mode = 'time', profile = 'google', dist = 'dist'] = process.argv.slice(2);
const lib = await import(pathToFileURL(path.resolve(dist, 'internal.js')).href);
const files = loadCorpus({});
const octets = files.reduce((n, f) => n + f.bytes.length, 0);
const urls = files.reduce((n, f) => n + f.urls.length, 0);
const compile = (f) => lib.parse(f.bytes, { profile, maxBytes: Infinity }).compile('Googlebot');

if (mode === 'time') {
  const firstVerdict = () => {
    const t = performance.now();
    for (const f of files) { const m = compile(f); m.isAllowed(firstWalked(f)); m.dispose(); }
    return octets / 1e6 / ((performance.now() - t) / 1000);
  };
  const crawlerMix = () => {
    const t = performance.now();
    for (const f of files) { const m = compile(f); for (const u of f.urls) m.isAllowed(u); m.dispose(); }
    return urls / ((performance.now() - t) / 1000);
  };
  const fv = [];
  const mix = [];
  for (let pass = 0; pass < 7; pass++) { fv.push(firstVerdict()); mix.push(crawlerMix()); }
  const median = (xs) => xs.sort((a, b) => a - b)[3];
  console.log(`${dist} ${profile}: first-verdict ${median(fv).toFixed(1)} MB/s, crawler-mix ${(median(mix) / 1e3).toFixed(0)}k URLs/s (medians of 7 passes)`);
} else if (mode === 'memory') {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const gc = globalThis.gc;
  const held = () => { gc(); gc(); const m = process.memoryUsage(); return [m.heapUsed, m.arrayBuffers, lib.coreAllocatedBytes()]; };
  const before = held();
  const matchers = files.map(compile);
  const compiled = held();
  for (let i = 0; i < files.length; i++) for (const u of files[i].urls) matchers[i].isAllowed(u);
  const checked = held();
  const kib = (a, b) => a.map((x, i) => ((x - b[i]) / files.length / 1024).toFixed(2));
  const [ch, ca, cw] = kib(compiled, before);
  const [h, a, w] = kib(checked, before);
  const heldBytes = matchers.reduce((n, m) => n + m.heldBytes, 0) / files.length / 1024;
  console.log(`${dist} ${profile}, KiB per host: compiled heap ${ch}, ArrayBuffers ${ca}, core ${cw}; after the probes heap ${h}, ArrayBuffers ${a}, core ${w}; heldBytes says ${heldBytes.toFixed(2)}`);
} else {
  throw new Error(`mode must be time or memory, got ${mode}`);
}

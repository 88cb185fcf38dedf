// Child side of the memory workload (node --expose-gc): compiles every corpus host
// for one engine at once and prints the memory retained per host as JSON.
// Retained = heapUsed + external after full GCs, minus the same before; external
// includes the engine's WebAssembly memory (V8 counts Wasm memory as external).
import { loadCorpus } from './corpus.mjs';
import { prepareHandles, verdictsOf } from './matching.mjs';

const [module, id, agent, limit] = process.argv.slice(2);
if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const gc = globalThis.gc;

/** Heap + external after GC, read until it settles (external memory is freed after the GC itself). */
async function retained() {
  let last = Infinity;
  for (let i = 0; i < 20; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const m = process.memoryUsage();
    const now = m.heapUsed + m.external;
    if (Math.abs(now - last) < 4096) return now;
    last = now;
  }
  return last;
}

const adapter = (await (await import(new URL(`./adapters/${module}`, import.meta.url).href)).load()).find((a) => a.id === id);
const hosts = loadCorpus({ limit: Number(limit) || Infinity });
const before = await retained();
const { handles } = await prepareHandles(adapter, hosts, agent);
const compiled = await retained();
// Then each host's probe URLs once: what a crawler's cache holds in steady state
// (this engine's automata grow lazily as URLs are checked).
for (let i = 0; i < hosts.length; i++) verdictsOf(adapter, handles[i], hosts[i].urls);
const checked = await retained();
process.stdout.write(JSON.stringify({
  hosts: hosts.length,
  compiledPerHost: (compiled - before) / hosts.length,
  checkedPerHost: (checked - before) / hosts.length,
  handles: handles.length, // keeps the handles alive until after the last reading
}));

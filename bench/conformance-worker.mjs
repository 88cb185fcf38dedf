// Worker side of the agreement workload's conformance vectors: loads one adapter and posts
// its verdict on each vector from `start` on, one message each, so that the parent can stop
// an engine that does not return from one (a backtracking matcher on a vector built for it)
// and go on from the next.
import { parentPort, workerData } from 'node:worker_threads';
import { loadConformance } from './corpus.mjs';
import { originOf } from './adapters/url-path.mjs';

const { module, id, start } = workerData;
if (parentPort === null) throw new Error('conformance-worker.mjs runs as a worker thread');
const adapter = (await (await import(new URL(`./adapters/${module}`, import.meta.url).href)).load()).find((a) => a.id === id);
const vectors = loadConformance();
for (let i = start; i < vectors.length; i++) {
  const v = vectors[i];
  let verdict = { allowed: true, threw: true };
  try {
    const h = await adapter.parse({ text: v.bytes.toString('utf8'), bytes: v.bytes, origin: originOf([v.url]) }, v.agent);
    try {
      verdict = { allowed: adapter.checkMany ? Boolean(adapter.checkMany(h, [v.url])[0]) : Boolean(adapter.isAllowed(h, v.url)), threw: false };
    } finally {
      adapter.release?.(h);
    }
  } catch {
    // a file or check the engine throws on: allowed, and counted (as matching.mjs does)
  }
  parentPort.postMessage({ i, ...verdict });
}
parentPort.postMessage({ done: true });

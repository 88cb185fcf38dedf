// Worker side of the pathological workload: loads one adapter, measures it, posts the figures.
import { parentPort, workerData } from 'node:worker_threads';
import { pathologicalSynthetic } from './synthetic.mjs';
import { measureMatching, oneFileWorkload } from './matching.mjs';

const { module, id, agent, budget, count, rules, length } = workerData;
const adapter = (await (await import(new URL(`./adapters/${module}`, import.meta.url).href)).load()).find((a) => a.id === id);
const { file, urls } = pathologicalSynthetic({ rules, count, length });
if (parentPort === null) throw new Error('pathological-worker.mjs runs as a worker thread');
parentPort.postMessage(await measureMatching(adapter, oneFileWorkload(file, urls), agent, budget));

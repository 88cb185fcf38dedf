// A classification thread: its own WASM core and matchers; blocks of URL lines
// in, output octets out (transferred, not copied, and the buffers recycled).
import { parentPort, workerData } from 'node:worker_threads';
import { BlockClassifier, type ClassifyConfig } from './classify-config.js';
import { BufferPool } from '../buffer-pool.js';
import type { BlockReply, ToWorker, WorkerReady } from './worker-pool.js';
import { readLinesOfRange } from './file-ranges.js';
import { MAX_LINE_OCTETS } from './line-blocks.js';

const port = parentPort!;
let classifier: BlockClassifier | null = null;
let failure: unknown = null;
try {
  classifier = new BlockClassifier(workerData as ClassifyConfig);
} catch (e) {
  failure = e;
}

// Output buffers come back once written (see WorkerPool.recycle); input buffers
// for the ranges this thread reads itself stay here.
// Built (or failed): the pool starts its clock once every thread is ready.
port.postMessage({ ready: true } satisfies WorkerReady);

const outputs = new BufferPool();
const inputs = new BufferPool(2);
const take = (n: number) => outputs.take(n);

port.on('message', (request: ToWorker) => {
  if ('spare' in request) {
    outputs.give(request.spare);
    return;
  }
  const { seq } = request;
  let reply: BlockReply;
  // A block's buffer is handed back for the next block; a range is read into one of ours.
  const input = 'block' in request ? (request.block.buffer as ArrayBuffer) : undefined;
  try {
    if (classifier === null) throw failure;
    let block: Uint8Array;
    if ('block' in request) block = request.block;
    else block = readLinesOfRange(request.range, MAX_LINE_OCTETS, (n) => inputs.take(n));
    reply = { seq, result: classifier.classify(block, take), input };
    if (!('block' in request)) inputs.give(block.buffer);
  } catch (e) {
    reply = { seq, error: (e as Error).message, usage: (e as { exitCode?: number }).exitCode !== undefined, input };
  }
  const transfer = [...(reply.result ? [reply.result.output.buffer as ArrayBuffer] : []), ...(input ? [input] : [])];
  port.postMessage(reply, transfer);
});

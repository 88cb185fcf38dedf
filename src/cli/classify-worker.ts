// A classification thread: its own WASM core and matchers; blocks of URL lines
// in, output octets out (transferred, not copied, and the buffers recycled).
import { parentPort, workerData } from 'node:worker_threads';
import { BlockClassifier, type ClassifyConfig } from './classify-config.js';
import { BufferPool } from '../buffer-pool.js';
import type { BlockReply, ToWorker } from './worker-pool.js';

const port = parentPort!;
let classifier: BlockClassifier | null = null;
let failure: unknown = null;
try {
  classifier = new BlockClassifier(workerData as ClassifyConfig);
} catch (e) {
  failure = e;
}

// Output buffers come back once written (see WorkerPool.recycle).
const outputs = new BufferPool();
const take = (n: number) => outputs.take(n);

port.on('message', (request: ToWorker) => {
  if ('spare' in request) {
    outputs.give(request.spare);
    return;
  }
  const { seq, block } = request;
  let reply: BlockReply;
  const input = block.buffer as ArrayBuffer; // handed back for the next block
  try {
    if (classifier === null) throw failure;
    reply = { seq, result: classifier.classify(block, take), input };
  } catch (e) {
    reply = { seq, error: (e as Error).message, usage: (e as { exitCode?: number }).exitCode !== undefined, input };
  }
  port.postMessage(reply, reply.result ? [reply.result.output.buffer as ArrayBuffer, input] : [input]);
});

// A classification thread: its own WASM core and matchers; blocks of URL lines
// in, output octets out (transferred, not copied).
import { parentPort, workerData } from 'node:worker_threads';
import { BlockClassifier, type ClassifyConfig } from './classify-config.js';
import type { BlockReply, BlockRequest } from './worker-pool.js';

const port = parentPort!;
let classifier: BlockClassifier | null = null;
let failure: unknown = null;
try {
  classifier = new BlockClassifier(workerData as ClassifyConfig);
} catch (e) {
  failure = e;
}

port.on('message', ({ seq, block }: BlockRequest) => {
  let reply: BlockReply;
  try {
    if (classifier === null) throw failure;
    reply = { seq, result: classifier.classify(block) };
  } catch (e) {
    reply = { seq, error: (e as Error).message, usage: (e as { exitCode?: number }).exitCode !== undefined };
  }
  port.postMessage(reply, reply.result ? [reply.result.output.buffer as ArrayBuffer] : []);
});

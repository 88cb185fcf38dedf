// A classification thread: its own WASM core and matchers; blocks of URL lines
// (or ranges of the input file, which it reads itself) in, and their output
// written by this thread straight from the core's memory when the block before
// has been written (WriteTurns). Only counts go back to the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { BlockClassifier } from './classify-config.js';
import { BufferPool } from '../buffer-pool.js';
import type { BlockReply, ToWorker, WorkerData, WorkerReady } from './worker-pool.js';
import { readLinesOfRange } from './file-ranges.js';
import { MAX_LINE_OCTETS } from './line-blocks.js';
import { WriteTurns, writeAllSync } from './write-turns.js';
import { CliError, reason } from './errors.js';

const port = parentPort!;
const { config, turns: shared, fd, outName } = workerData as WorkerData;
const turns = new WriteTurns(shared);
let classifier: BlockClassifier | null = null;
let failure: unknown = null;
try {
  classifier = new BlockClassifier(config);
} catch (e) {
  failure = e;
}
// Built (or failed, which the first reply says): the pool starts its clock once every thread is ready.
port.postMessage({ ready: true } satisfies WorkerReady);

/** Input buffers for the ranges this thread reads itself, past the core's own area (a range whose last line runs long). */
const inputs = new BufferPool(2);
/** Takes while reading a range: the first is the core's own input area (no copy
 * later); another, when the range's last line runs long, a buffer from `inputs`. */
let takes = 0;
let grownInto: ArrayBufferLike | null = null;
function takeInput(n: number): Uint8Array {
  if (takes++ === 0) return classifier!.inputArea(n);
  const b = inputs.take(n);
  grownInto = b.buffer;
  return b;
}

/** The run ended early (the output's reader went away): this block is dropped. */
class Stopped extends Error {}

/** Writes a block's output when its turn comes (several pieces for a big block). */
const writer = {
  seq: 0,
  hasTurn: false,
  write(octets: Uint8Array): void {
    this.takeTurn();
    try {
      writeAllSync(fd, octets);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') throw e;
      throw new CliError(`cannot write ${outName}: ${reason(e)}`);
    }
  },
  takeTurn(): void {
    if (this.hasTurn) return;
    if (!turns.waitFor(this.seq)) throw new Stopped();
    this.hasTurn = true;
  },
};

port.on('message', (request: ToWorker) => {
  const { seq } = request;
  // A block's buffer is handed back for the next block; a range is read into one of ours.
  const input = 'block' in request ? (request.block.buffer as ArrayBuffer) : undefined;
  let reply: BlockReply;
  try {
    if (classifier === null) throw failure;
    takes = 0;
    grownInto = null;
    const block = 'block' in request ? request.block : readLinesOfRange(request.range, MAX_LINE_OCTETS, takeInput);
    writer.seq = seq;
    writer.hasTurn = false;
    const result = classifier.classify(block, writer);
    if (grownInto !== null && block.buffer === grownInto) inputs.give(grownInto);
    writer.takeTurn(); // a block with no output still takes its turn
    turns.pass(seq);
    reply = { seq, result, input };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof Stopped || code === 'EPIPE') {
      turns.stop(); // the reader is gone: nobody writes any more
      reply = { seq, closed: true, input };
    } else {
      // The main thread reports it and ends the run (the turn is not passed).
      reply = { seq, error: (e as Error).message, usage: (e as { exitCode?: number }).exitCode !== undefined, input };
    }
  }
  port.postMessage(reply, input ? [input] : []);
});

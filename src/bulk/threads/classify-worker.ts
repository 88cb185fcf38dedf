// A classification thread: its own WASM core and matchers; blocks of URL lines
// (or ranges of the input file, which it reads itself) in, and their output
// written by this thread straight from the core's memory when the block before
// has been written (WriteTurns): only counts go back to the main thread. Or
// the lines the main thread routed here (routed-pool.ts), gathered in a buffer
// it transferred: their output goes back, in segments that the main thread
// puts in input order, with the buffer for its next gathering. Or, for the
// one thread that classifies, a block whose host files to read ahead
// (dir-reader.ts): the files come back, packed.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { BlockClassifier } from '../classify/classify-config.js';
import { BufferPool } from '../base/buffer-pool.js';
import type { BlockReply, RoutedRequest, ToWorker, WorkerData, WorkerReady, WriteRequest } from './worker-pool.js';
import { segmentOctets } from '../classify/host-router.js';
import { readLinesOfRange } from '../sources/file-ranges.js';
import { MAX_LINE_OCTETS } from '../sources/line-blocks.js';
import { WriteTurns, writeAllSync } from '../base/write-turns.js';
import { BulkError, reason } from '../base/errors.js';
import { sharedIndexData } from './shared-captures.js';
import { aheadBuffers, HostFilesAhead } from '../classify/host-files-ahead.js';
import type { AheadReply, AheadRequest } from './dir-reader.js';

const port = parentPort!;
const { config, sharedWarc, turns: shared, fd, outName } = workerData as WorkerData;
if (sharedWarc !== undefined) config.warc = sharedIndexData(sharedWarc);
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

/** A classified block whose output waits in the core for its turn, and its reply. */
let kept: { seq: number; reply: BlockReply } | null = null;

/** Writes the block's output when its turn comes (several pieces for a big
 * block); the last piece, when the turn has not come, is kept instead. */
const writer = {
  seq: 0,
  hasTurn: false,
  /** This block's last piece was kept. */
  kept: false,
  write(octets: Uint8Array): void {
    writeKept(); // it comes first
    this.takeTurn();
    writeOut(octets);
  },
  keep(): boolean {
    writeKept(); // the one before first: one is kept at a time
    if (this.hasTurn || turns.isTurn(this.seq)) return false;
    this.kept = true; // serve() records it with the reply, once classify() returns
    return true;
  },
  takeTurn(): void {
    if (this.hasTurn) return;
    if (!turns.waitFor(this.seq)) throw new Stopped();
    this.hasTurn = true;
  },
};

function writeOut(octets: Uint8Array): void {
  try {
    writeAllSync(fd, octets);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') throw e;
    throw new BulkError(`cannot write ${outName}: ${reason(e)}`);
  }
}

/** Writes the kept output when its turn comes, and sends its reply. */
function writeKept(): void {
  if (kept === null) return;
  const { seq, reply } = kept;
  kept = null;
  try {
    if (!turns.waitFor(seq)) throw new Stopped();
    writeOut(classifier!.kept);
    turns.pass(seq);
  } catch (e) {
    port.postMessage(failed(seq, e, reply.input), reply.input ? [reply.input] : []);
    throw e; // the block being classified fails alike
  } finally {
    classifier!.releaseKept();
  }
  port.postMessage(reply, reply.input ? [reply.input] : []);
}

function failed(seq: number, e: unknown, input: ArrayBuffer | undefined): BlockReply {
  const code = (e as NodeJS.ErrnoException).code;
  if (e instanceof Stopped || code === 'EPIPE') {
    turns.stop(); // the reader is gone: nobody writes any more
    return { seq, closed: true, input };
  }
  // The main thread reports it and ends the run (the turn is not passed).
  return { seq, error: (e as Error).message, usage: e instanceof BulkError, input };
}

/** Classifies one block; its reply, or null when its output is kept for later. */
function serve(request: WriteRequest): BlockReply | null {
  const { seq } = request;
  // A block's buffer is handed back for the next block; a range is read into one of ours.
  const input = 'block' in request ? (request.block.buffer as ArrayBuffer) : undefined;
  try {
    if (classifier === null) throw failure;
    takes = 0;
    grownInto = null;
    const block = 'block' in request ? request.block : readLinesOfRange(request.range, MAX_LINE_OCTETS, takeInput);
    writer.seq = seq;
    writer.hasTurn = false;
    writer.kept = false;
    const result = classifier.classify(block, writer);
    if (grownInto !== null && block.buffer === grownInto) inputs.give(grownInto);
    const reply: BlockReply = { seq, result, input };
    if (writer.kept) {
      kept = { seq, reply };
      return null;
    }
    writeKept(); // (a block with no output: the one before still comes first)
    writer.takeTurn(); // a block with no output still takes its turn
    turns.pass(seq);
    return reply;
  } catch (e) {
    return failed(seq, e, input);
  }
}

/** Output buffers of routed requests: they go to the main thread, and come back with later requests. */
const outputs = new BufferPool(4);
const NO_OUTPUT = new Uint8Array(0);

/** Classifies the lines routed here; the reply carries their output, and their buffer back for the next. */
function serveRouted(request: RoutedRequest): BlockReply {
  const { seq, counts, routed } = request;
  const input = routed.buffer as ArrayBuffer;
  if (request.spare !== undefined) outputs.give(request.spare);
  try {
    if (classifier === null) throw failure;
    const result = classifier.classify(routed, (n) => outputs.take(n));
    const output = result.output;
    return { seq, result: { ...result, output: NO_OUTPUT }, output, segments: segmentOctets(output, counts), input };
  } catch (e) {
    return failed(seq, e, input);
  }
}

/** Reads the host files of blocks ahead (dir-reader.ts), made at the first such request. */
let ahead: HostFilesAhead | null = null;
/** Buffers for the ranges' lines, files read ahead and splits' records: they go to the main thread, and come back with later requests. */
const spareBuffers = new BufferPool(16);

/** A block's or a range's host files (and a range's lines), and the block's buffer back. */
function serveAhead(request: AheadRequest): { reply: AheadReply; transfer: ArrayBuffer[] } {
  const { seq } = request;
  const input = 'ahead' in request ? (request.ahead.buffer as ArrayBuffer) : undefined;
  try {
    ahead ??= new HostFilesAhead(config.robotsDir!, config.maxOctets, config.shard);
    for (const b of request.spares) spareBuffers.give(b);
    const take = (n: number) => spareBuffers.take(n);
    if ('ahead' in request) {
      const files = ahead.read(request.ahead, take);
      return { reply: { seq, files, input }, transfer: [input!, ...aheadBuffers(files)] };
    }
    const lines = readLinesOfRange(request.aheadRange, MAX_LINE_OCTETS, take);
    const files = ahead.read(lines, take);
    const transfer = aheadBuffers(files);
    if (lines.buffer.byteLength > 0) transfer.push(lines.buffer as ArrayBuffer);
    return { reply: { seq, files, lines }, transfer };
  } catch (e) {
    return { reply: { seq, input, error: (e as Error).message }, transfer: input === undefined ? [] : [input] };
  }
}

port.on('message', (request: ToWorker | AheadRequest) => {
  if ('ahead' in request || 'aheadRange' in request) {
    const { reply, transfer } = serveAhead(request);
    port.postMessage(reply, transfer);
    return;
  }
  if ('routed' in request) {
    const reply = serveRouted(request);
    const transfer = [reply.input!];
    if (reply.output !== undefined && reply.output.buffer !== reply.input) transfer.push(reply.output.buffer as ArrayBuffer);
    port.postMessage(reply, transfer);
    return;
  }
  // While a block's output waits for its turn, the next block (already sent:
  // the pool keeps several in flight) is classified; then the kept one is written.
  for (let next: WriteRequest | undefined = request; next !== undefined; ) {
    const reply = serve(next);
    if (reply !== null) port.postMessage(reply, reply.input ? [reply.input] : []);
    next = kept !== null ? (receiveMessageOnPort(port)?.message as WriteRequest | undefined) : undefined;
  }
  try {
    writeKept();
  } catch {
    /* replied to */
  }
});

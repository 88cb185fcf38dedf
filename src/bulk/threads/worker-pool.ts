// Blocks of URL lines spread over worker threads, each with its own WASM core
// (one robots.txt for every URL: any thread can take any block). Each thread
// writes its blocks' output itself, in input order (WriteTurns); the results
// that come back are counts, which the caller awaits in submission order.
// PoolWorker, a thread and its requests (../base/request-thread.ts), serves routed-pool.ts too.
import type { ClassifiedBlock, ClassifyConfig } from '../classify/classify-config.js';
import { BufferPool } from '../base/buffer-pool.js';
import { concatOctets } from '../../engine/parse/octets.js';
import { BulkError } from '../base/errors.js';
import type { FileRange } from '../sources/file-ranges.js';
import { WriteTurns } from '../base/write-turns.js';
import { RequestThread } from '../base/request-thread.js';
import type { SharedCapturesData } from './shared-captures.js';

/** What a thread is started with. */
export interface WorkerData {
  /** (Without `warc`, which comes as `sharedWarc`.) */
  config: ClassifyConfig;
  /** A WARC index's captures, in shared memory (shared-captures.ts). */
  sharedWarc?: SharedCapturesData;
  /** WriteTurns' shared memory. */
  turns: SharedArrayBuffer;
  /** Where the output goes (stdout or the output file), and its name for errors. */
  fd: number;
  outName: string;
}

/** A block to classify, or a range of the input file to read and classify; seq numbers run from 0 in input order.
 * Or (routed-pool.ts) the lines of a block routed to this thread (gathered, in a buffer transferred), whose output
 * comes back in segments of `counts` lines, with a spare buffer for it (one that came back before). */
export type ToWorker = WriteRequest | RoutedRequest;
export type WriteRequest = { seq: number; block: Uint8Array } | { seq: number; range: FileRange };

export interface RoutedRequest {
  seq: number;
  routed: Uint8Array;
  counts: Int32Array;
  spare?: ArrayBuffer;
}

export interface BlockReply {
  seq: number;
  /** The counts (its output is written already, or for a routed request in `output`). */
  result?: ClassifiedBlock;
  /** A routed request's output, and the octets of each of its segments. */
  output?: Uint8Array;
  segments?: Int32Array;
  /** The block's buffer (or a routed request's lines'), back for reuse (none for a range: the thread read it itself). */
  input?: ArrayBuffer;
  /** The output's reader went away: the block was not written, nor will later ones be. */
  closed?: boolean;
  error?: string;
  /** The error is the user's to fix (a bad robots file, say), not a bug. */
  usage?: boolean;
}

/** A thread's first message: its classifier is built (or failed, which its first reply says). */
export interface WorkerReady {
  ready: true;
}

/** A block's output could not be written because its reader went away (`robots classify ... | head`). */
export class OutputClosed extends Error {}

/** A classification thread and the requests it has not answered yet: a RequestThread that says when its classifier is built. */
export class PoolWorker extends RequestThread<ToWorker, BlockReply> {
  /** Settles when the thread has built its classifier. */
  readonly ready: Promise<void>;

  constructor(data: WorkerData, inputs: BufferPool) {
    let ready!: () => void;
    const built = new Promise<void>((resolve) => (ready = resolve));
    super(new URL('./classify-worker.js', import.meta.url), data, {
      aside: (m) => {
        const r = m as BlockReply | WorkerReady;
        if ('ready' in r) {
          ready();
          return true;
        }
        if (r.input) inputs.give(r.input); // (a reply that nobody waits for still gives its buffer back)
        return false;
      },
      errorOf: (r) => (r.closed ? new OutputClosed('the output was closed') : r.error === undefined ? undefined : r.usage ? new BulkError(r.error) : new Error(r.error)),
      crashed: (e) => e,
      exited: (code) => new Error(`a classification thread stopped (exit code ${code})`),
    });
    this.ready = built;
    // A thread that fails or stops before it is ready: the failure reaches the caller through the blocks.
    this.worker.on('error', ready);
    this.worker.on('exit', ready);
  }
}

export class WorkerPool {
  private readonly workers: PoolWorker[];
  private readonly inputs = new BufferPool();
  private readonly turns = new WriteTurns();
  private seq = 0;

  /** Threads that write the output to fd (named outName in errors). */
  constructor(threads: number, config: ClassifyConfig, fd: number, outName: string) {
    const data: WorkerData = { config, turns: this.turns.shared, fd, outName };
    this.workers = Array.from({ length: threads }, () => new PoolWorker(data, this.inputs));
  }

  /** Settles when every thread has built its classifier (or stopped). */
  ready(): Promise<void> {
    return Promise.all(this.workers.map((w) => w.ready)).then(() => {});
  }

  private leastBusy(): PoolWorker {
    let w = this.workers[0];
    for (const x of this.workers) if (x.pending < w.pending) w = x;
    return w;
  }

  /** Classifies a block on the least busy thread (copied into a buffer of its own, which is transferred). */
  classify(parts: readonly Uint8Array[]): Promise<ClassifiedBlock> {
    const block = concatOctets(parts, (n) => this.inputs.take(n));
    return this.send({ seq: this.seq++, block }, [block.buffer as ArrayBuffer]);
  }

  /** Classifies the lines that start in a range of the input file: the thread reads them itself. */
  classifyRange(range: FileRange): Promise<ClassifiedBlock> {
    return this.send({ seq: this.seq++, range }, []);
  }

  private async send(request: ToWorker, transfer: ArrayBuffer[]): Promise<ClassifiedBlock> {
    return (await this.leastBusy().request(request, transfer)).result!;
  }

  /** The output is the threads' to write: nothing comes back to recycle. */
  recycle(): void {}

  async close(): Promise<void> {
    this.turns.stop(); // a thread waiting for a turn that will not come gives up
    await Promise.all(this.workers.map((w) => w.stop())); // (a failure elsewhere may have ended the run)
  }
}

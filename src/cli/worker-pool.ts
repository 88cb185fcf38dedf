// Blocks of URL lines spread over worker threads, each with its own WASM core.
// Results come back as promises; the caller awaits them in submission order,
// which keeps the output in input order.
import { Worker } from 'node:worker_threads';
import type { ClassifiedBlock, ClassifyConfig } from './classify-config.js';
import { BufferPool } from '../buffer-pool.js';
import { concatOctets } from '../octets.js';
import { CliError } from './errors.js';
import type { FileRange } from './file-ranges.js';

/** A block to classify, a range of the input file to read and classify, or an output buffer sent back for reuse. */
export type ToWorker = { seq: number; block: Uint8Array } | { seq: number; range: FileRange } | { spare: ArrayBuffer };

export interface BlockReply {
  seq: number;
  result?: ClassifiedBlock;
  /** The block's buffer, back for reuse (none for a range: the thread read it itself). */
  input?: ArrayBuffer;
  error?: string;
  /** The error is the user's to fix (a bad robots file, say), not a bug. */
  usage?: boolean;
}

/** A thread's first message: its classifier is built (or failed, which its first reply says). */
export interface WorkerReady {
  ready: true;
}

interface Pending {
  resolve(r: ClassifiedBlock): void;
  reject(e: Error): void;
}

class PoolWorker {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  closing = false;
  /** Settles when the thread has built its classifier. */
  readonly ready: Promise<void>;

  constructor(config: ClassifyConfig, inputs: BufferPool, origins: Map<ArrayBuffer, PoolWorker>) {
    this.worker = new Worker(new URL('./classify-worker.js', import.meta.url), { workerData: config });
    let ready!: () => void;
    this.ready = new Promise((resolve) => (ready = resolve));
    this.worker.on('message', (r: BlockReply | WorkerReady) => {
      if ('ready' in r) return ready();
      if (r.input) inputs.give(r.input);
      const p = this.pending.get(r.seq)!;
      this.pending.delete(r.seq);
      if (r.error !== undefined) p.reject(r.usage ? new CliError(r.error) : new Error(r.error));
      else {
        origins.set(r.result!.output.buffer as ArrayBuffer, this);
        p.resolve(r.result!);
      }
    });
    this.worker.on('error', (e) => {
      ready(); // the failure reaches the caller through the blocks
      this.failAll(e);
    });
    this.worker.on('exit', (code) => {
      ready();
      if (!this.closing) this.failAll(new Error(`a classification thread stopped (exit code ${code})`));
    });
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

export class WorkerPool {
  private readonly workers: PoolWorker[];
  private readonly inputs = new BufferPool();
  /** Output buffers being written, and the thread each goes back to (its pool runs dry otherwise). */
  private readonly origins = new Map<ArrayBuffer, PoolWorker>();
  private seq = 0;

  constructor(threads: number, config: ClassifyConfig) {
    this.workers = Array.from({ length: threads }, () => new PoolWorker(config, this.inputs, this.origins));
  }

  /** Settles when every thread has built its classifier (or stopped). */
  ready(): Promise<void> {
    return Promise.all(this.workers.map((w) => w.ready)).then(() => {});
  }

  private leastBusy(): PoolWorker {
    let w = this.workers[0];
    for (const x of this.workers) if (x.pending.size < w.pending.size) w = x;
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

  private send(request: ToWorker & { seq: number }, transfer: ArrayBuffer[]): Promise<ClassifiedBlock> {
    const w = this.leastBusy();
    return new Promise((resolve, reject) => {
      w.pending.set(request.seq, { resolve, reject });
      w.worker.postMessage(request, transfer);
    });
  }

  /** An output buffer, written: back to a thread for reuse. */
  recycle(output: Uint8Array): void {
    const spare = output.buffer as ArrayBuffer;
    const origin = this.origins.get(spare);
    this.origins.delete(spare);
    if (origin !== undefined && spare.byteLength > 0) origin.worker.postMessage({ spare } satisfies ToWorker, [spare]);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => {
      w.closing = true;
      w.pending.clear(); // nobody waits for them any more (a failure elsewhere ended the run)
      return w.worker.terminate();
    }));
  }
}

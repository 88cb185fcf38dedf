// Blocks of URL lines spread over worker threads, each with its own WASM core.
// Results come back as promises; the caller awaits them in submission order,
// which keeps the output in input order.
import { Worker } from 'node:worker_threads';
import type { ClassifiedBlock, ClassifyConfig } from './classify-config.js';
import { concatOctets } from '../octets.js';
import { CliError } from './errors.js';

export interface BlockRequest {
  seq: number;
  block: Uint8Array;
}

export interface BlockReply {
  seq: number;
  result?: ClassifiedBlock;
  error?: string;
  /** The error is the user's to fix (a bad robots file, say), not a bug. */
  usage?: boolean;
}

interface Pending {
  resolve(r: ClassifiedBlock): void;
  reject(e: Error): void;
}

class PoolWorker {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  closing = false;

  constructor(config: ClassifyConfig) {
    this.worker = new Worker(new URL('./classify-worker.js', import.meta.url), { workerData: config });
    this.worker.on('message', (r: BlockReply) => {
      const p = this.pending.get(r.seq)!;
      this.pending.delete(r.seq);
      if (r.error !== undefined) p.reject(r.usage ? new CliError(r.error) : new Error(r.error));
      else p.resolve(r.result!);
    });
    this.worker.on('error', (e) => this.failAll(e));
    this.worker.on('exit', (code) => {
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
  private seq = 0;

  constructor(threads: number, config: ClassifyConfig) {
    this.workers = Array.from({ length: threads }, () => new PoolWorker(config));
  }

  /** Classifies a block on the least busy thread (copied into a buffer of its own, which is transferred). */
  classify(parts: readonly Uint8Array[]): Promise<ClassifiedBlock> {
    const block = concatOctets(parts);
    let w = this.workers[0];
    for (const x of this.workers) if (x.pending.size < w.pending.size) w = x;
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      w.pending.set(seq, { resolve, reject });
      w.worker.postMessage({ seq, block } satisfies BlockRequest, [block.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => {
      w.closing = true;
      w.pending.clear(); // nobody waits for them any more (a failure elsewhere ended the run)
      return w.worker.terminate();
    }));
  }
}

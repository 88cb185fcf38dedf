// robots index's reading threads (index-worker.ts): stretches of WARC files
// handed to the least busy, their reads answered as promises (the caller
// awaits them in file order). The threads start with the first stretch: a run
// of plain WARCs starts none.
import { Worker } from 'node:worker_threads';
import { BulkError } from '../errors.js';
import type { ChunkRead, ChunkTask } from '../sources/warc/warc-chunk-read.js';

/** What a thread is started with. */
export interface IndexWorkerData {
  shards: number;
  maxOctets: number;
}

interface Waiting {
  resolve(r: ChunkRead): void;
  reject(e: Error): void;
}

class IndexThread {
  readonly worker: Worker;
  readonly waiting = new Map<number, Waiting>();
  private closing = false;

  constructor(data: IndexWorkerData) {
    this.worker = new Worker(new URL('./index-worker.js', import.meta.url), { workerData: data });
    this.worker.on('message', (r: ChunkRead) => {
      const w = this.waiting.get(r.seq);
      this.waiting.delete(r.seq);
      if (r.error !== undefined) w?.reject(new BulkError(`robots index: a reading thread failed: ${r.error}`));
      else w?.resolve(r);
    });
    this.worker.on('error', (e) => this.failAll(new BulkError(`robots index: a reading thread failed: ${e.message}`)));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.failAll(new BulkError(`robots index: a reading thread stopped (exit code ${code})`));
    });
  }

  stop(): Promise<number> {
    this.closing = true;
    this.waiting.clear();
    return this.worker.terminate();
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}

export class IndexPool {
  private readonly threads: IndexThread[] = [];
  private seq = 0;
  private next = 0;

  constructor(
    private readonly size: number,
    private readonly data: IndexWorkerData,
  ) {}

  /** The stretch read by the least busy thread. */
  read(task: Omit<ChunkTask, 'seq'>): Promise<ChunkRead> {
    if (this.threads.length < this.size) this.threads.push(new IndexThread(this.data));
    let t = this.threads[0];
    for (const x of this.threads) if (x.waiting.size < t.waiting.size) t = x;
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      t.waiting.set(seq, { resolve, reject });
      t.worker.postMessage({ ...task, seq } satisfies ChunkTask);
    });
  }

  /** A ChunkRead's records buffer, its octets written: back to a thread, to fill again. */
  recycle(buffer: ArrayBuffer): void {
    if (this.threads.length === 0) return;
    this.threads[this.next++ % this.threads.length].worker.postMessage({ spare: buffer }, [buffer]);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.stop()));
  }
}

// robots index's reading threads: the main thread (main-thread-reader.ts) and
// worker threads (../threads/index-worker.ts); stretches of WARC files handed to
// the least busy, their reads answered as promises (the caller awaits them in
// file order). The workers start with the second stretch: a run of plain WARCs
// starts none, nor does a pool of one thread.
import { BulkError } from '../base/errors.js';
import { RequestThread } from '../base/request-thread.js';
import type { ChunkRead, ChunkTask } from './warc-chunk-read.js';
import { MainThreadReader } from './main-thread-reader.js';

/** What a thread is started with. */
export interface IndexWorkerData {
  shards: number;
  maxOctets: number;
}

/** A reading thread: a stretch read is a request, its records the reply. */
class IndexThread extends RequestThread<ChunkTask, ChunkRead> {
  constructor(data: IndexWorkerData) {
    // (The built thread beside the built command, dist/index-worker.js: its source is ../threads/index-worker.ts.)
    super(new URL('./index-worker.js', import.meta.url), data, {
      errorOf: (r) => (r.error === undefined ? undefined : new BulkError(`robots index: a reading thread failed: ${r.error}`)),
      crashed: (e) => new BulkError(`robots index: a reading thread failed: ${e.message}`),
      exited: (code) => new BulkError(`robots index: a reading thread stopped (exit code ${code})`),
    });
  }
}

/** `size` reading threads: this one and size - 1 workers. */
export class IndexPool {
  private readonly here: MainThreadReader;
  private readonly threads: IndexThread[] = [];
  private seq = 0;
  private next = 0;

  constructor(
    private readonly size: number,
    private readonly data: IndexWorkerData,
  ) {
    this.here = new MainThreadReader(data.shards, data.maxOctets);
  }

  /** The stretch read by the least busy thread: a worker when as busy as this one, which routes and writes too (this one
   * reads the first while the first worker starts). */
  read(task: Omit<ChunkTask, 'seq'>): Promise<ChunkRead> {
    const request = { ...task, seq: this.seq++ };
    let worker: IndexThread | undefined;
    for (const x of this.threads) if (worker === undefined || x.pending < worker.pending) worker = x;
    if (this.here.pending > 0 && (worker === undefined || worker.pending > 0) && this.threads.length < this.size - 1) worker = this.start();
    if (worker === undefined || this.here.pending < worker.pending) return this.here.request(request);
    return worker.request(request);
  }

  /** A ChunkRead's records buffer, its octets written: back to a thread (this one or a worker), to fill again. */
  recycle(buffer: ArrayBuffer): void {
    const k = this.next++ % (this.threads.length + 1);
    if (k === this.threads.length) this.here.spare(buffer);
    else this.threads[k].post({ spare: buffer }, [buffer]);
  }

  async close(): Promise<void> {
    this.here.stop();
    await Promise.all(this.threads.map((t) => t.stop()));
  }

  private start(): IndexThread {
    const t = new IndexThread(this.data);
    this.threads.push(t);
    return t;
  }
}

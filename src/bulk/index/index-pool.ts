// robots index's reading threads (../threads/index-worker.ts): stretches of WARC files
// handed to the least busy, their reads answered as promises (the caller
// awaits them in file order). The threads start with the first stretch: a run
// of plain WARCs starts none.
import { BulkError } from '../base/errors.js';
import { RequestThread } from '../base/request-thread.js';
import type { ChunkRead, ChunkTask } from './warc-chunk-read.js';

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
    for (const x of this.threads) if (x.pending < t.pending) t = x;
    return t.request({ ...task, seq: this.seq++ });
  }

  /** A ChunkRead's records buffer, its octets written: back to a thread, to fill again. */
  recycle(buffer: ArrayBuffer): void {
    if (this.threads.length === 0) return;
    this.threads[this.next++ % this.threads.length].post({ spare: buffer }, [buffer]);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.stop()));
  }
}

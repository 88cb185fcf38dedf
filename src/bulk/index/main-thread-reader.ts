// robots index's main thread as one of its reading threads (index-pool.ts):
// it reads stretches between its routing, so N reading threads are N - 1
// worker threads and this one. A worker thread costs an isolate of its own (its
// start, its modules, and its JIT compiling the same reading code again), and
// on 2 cores the main thread's routing leaves most of a core idle.
import { BulkError, reason } from '../base/errors.js';
import { WarcChunkReader, type ChunkRead, type ChunkTask } from './warc-chunk-read.js';

interface Waiting {
  task: ChunkTask;
  resolve(r: ChunkRead): void;
  reject(e: Error): void;
}

/** Stretches read here, one a turn of the event loop (the workers' replies are taken, and routed, between them). */
export class MainThreadReader {
  private readonly reader: WarcChunkReader;
  private readonly queue: Waiting[] = [];
  private busy = false;
  private scheduled = false;
  private stopped = false;

  constructor(shards: number, maxOctets: number) {
    this.reader = new WarcChunkReader(shards, maxOctets);
  }

  /** Stretches asked for and not read yet (as a worker thread's requests not answered). */
  get pending(): number {
    return this.queue.length + (this.busy ? 1 : 0);
  }

  request(task: ChunkTask): Promise<ChunkRead> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.schedule();
    });
  }

  /** A records buffer written (a ChunkRead's): filled again here. */
  spare(buffer: ArrayBuffer): void {
    this.reader.spare(buffer);
  }

  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
  }

  private schedule(): void {
    if (this.scheduled || this.busy || this.stopped || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(this.readNext);
  }

  private readonly readNext = (): void => {
    this.scheduled = false;
    const w = this.queue.shift();
    if (w === undefined || this.stopped) return;
    this.busy = true;
    this.reader
      .read(w.task)
      .then(
        (r) => (r.error === undefined ? w.resolve(r) : w.reject(new BulkError(`robots index: a reading thread failed: ${r.error}`))),
        (e) => w.reject(new BulkError(`robots index: a reading thread failed: ${reason(e)}`)),
      )
      .finally(() => {
        this.busy = false;
        this.schedule();
      });
  };
}

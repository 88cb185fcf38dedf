// robots index's main thread as one of its reading threads (index-pool.ts):
// it reads stretches between its routing, so N reading threads are N - 1
// worker threads and this one. A worker thread costs an isolate of its own (its
// start, its modules, and its JIT compiling the same reading code again), and
// on 2 cores the main thread's routing leaves most of a core idle. Its
// stretches inflate ahead on libuv's threadpool (../sources/warc/pool-inflate.ts),
// beside the parse of the one before them, not on this thread.
import { BulkError, reason } from '../base/errors.js';
import { WarcChunkReader, type ChunkRead, type ChunkTask, type InflateAhead } from './warc-chunk-read.js';

/** Stretches inflating ahead on libuv's threadpool while this thread parses the one before them. */
const INFLATING_AHEAD = 2;

interface Waiting {
  task: ChunkTask;
  ahead?: Promise<InflateAhead>;
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
      this.inflateAhead();
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

  /** The next stretches' inflates begun (their octets read now), up to INFLATING_AHEAD. */
  private inflateAhead(): void {
    for (let i = 0; i < Math.min(INFLATING_AHEAD, this.queue.length); i++) {
      const w = this.queue[i];
      if (w.ahead === undefined) w.ahead = this.reader.inflateAhead(w.task);
    }
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
    this.inflateAhead();
    this.reader
      .read(w.task, w.ahead)
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

// The thread that reads a --robots-dir's host files ahead of the one thread that
// classifies (`--threads 1`): a classification thread (classify-worker.ts) asked
// only to read ahead (host-files-ahead.ts). Ranges of the input file (which it
// reads itself) or blocks read from a stream go in, in input order; each one's
// lines and host files come back while the blocks before it are classified, so
// the classifying thread neither reads its input nor waits on the file system.
// A reader that fails or stops is not the run's failure: the classifying thread
// then reads the range and looks its hosts up itself.
import type { ClassifyConfig } from '../classify/classify-config.js';
import { FilesReadAhead, type AheadFiles } from '../classify/host-files-ahead.js';
import { BufferPool } from '../base/buffer-pool.js';
import { RequestThread } from '../base/request-thread.js';
import { WriteTurns } from '../base/write-turns.js';
import { concatOctets } from '../../engine/parse/octets.js';
import type { FileRange } from '../sources/file-ranges.js';
import type { WorkerData } from './worker-pool.js';

/** A block whose host files to read (its buffer transferred, and given back); or a range of the input file to read
 * and read the host files of. With buffers that came back before (a range's lines, files' octets) for reuse. */
export type AheadRequest = ({ ahead: Uint8Array } | { aheadRange: FileRange }) & { seq: number; spares: ArrayBuffer[] };

export interface AheadReply {
  seq: number;
  files?: AheadFiles;
  /** A block's buffer, back. */
  input?: ArrayBuffer;
  /** A range's lines. */
  lines?: Uint8Array;
  error?: string;
}

/** A block's lines (a range's, read by the reader) and its host files read ahead. */
export interface ReadAhead {
  lines: Uint8Array;
  files: FilesReadAhead;
}

/** Spare buffers (ranges' lines, files' octets, splits' records: three a block, five blocks in flight) kept to send
 * back: a fresh one per block cost page faults and, as V8 counts it as external memory, collections. */
const SPARES = 16;

export class DirReader {
  private readonly thread: RequestThread<AheadRequest, AheadReply>;
  private readonly inputs = new BufferPool(4);
  private readonly spares: ArrayBuffer[] = [];
  private seq = 0;
  private failed = false;
  /** Settles when the thread has started (or failed to). */
  readonly started: Promise<void>;

  constructor(config: ClassifyConfig) {
    let started!: () => void;
    this.started = new Promise<void>((resolve) => (started = resolve));
    // (It writes nothing: the turns and the descriptor are never used.)
    const data: WorkerData = { config, turns: new WriteTurns().shared, fd: -1, outName: '' };
    this.thread = new RequestThread<AheadRequest, AheadReply>(new URL('./classify-worker.js', import.meta.url), data, {
      aside: (m) => 'ready' in (m as object) && (started(), true),
      errorOf: (r) => (r.error === undefined ? undefined : new Error(r.error)),
      crashed: (e) => e,
      exited: (code) => new Error(`the host file reader stopped (exit code ${code})`),
    });
    // (Known at once, so that no request goes to a thread that is gone.)
    this.thread.worker.on('error', () => (this.failed = true));
    this.thread.worker.on('exit', () => (this.failed = true));
    this.thread.worker.on('error', started);
    this.thread.worker.on('exit', started);
  }

  /** The host files of a block (its lines whole, as the classifier gets them); null when the reader failed. */
  read(parts: readonly Uint8Array[]): Promise<FilesReadAhead | null> {
    if (this.failed) return Promise.resolve(null);
    const block = concatOctets(parts, (n) => this.inputs.take(n));
    const spares = this.spares.splice(0);
    return this.thread.request({ seq: this.seq++, ahead: block, spares }, [block.buffer as ArrayBuffer, ...spares]).then(
      (r) => {
        this.inputs.give(r.input!);
        return new FilesReadAhead(r.files!);
      },
      () => this.fail(),
    );
  }

  /** The lines that start in a range of the input file, and their host files; null when the reader failed. */
  readRange(range: FileRange): Promise<ReadAhead | null> {
    if (this.failed) return Promise.resolve(null);
    const spares = this.spares.splice(0);
    return this.thread.request({ seq: this.seq++, aheadRange: range, spares }, spares).then(
      (r) => ({ lines: r.lines!, files: new FilesReadAhead(r.files!) }),
      () => this.fail(),
    );
  }

  /** A block's lines (a range's) and files are classified: their buffers go back with a later request. */
  giveBack(files: FilesReadAhead, lines?: Uint8Array): void {
    for (const b of [files.bodies.buffer, files.splits?.records.buffer, lines?.buffer]) {
      if (b !== undefined && this.spares.length < SPARES && b.byteLength > 0 && b instanceof ArrayBuffer) this.spares.push(b);
    }
  }

  private fail(): null {
    this.failed = true;
    return null;
  }

  async close(): Promise<void> {
    await this.thread.stop();
  }
}

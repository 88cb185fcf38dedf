// Where classification output goes: stdout, or a file written under a temporary
// name and renamed into place at the end, so a failed run never leaves a
// half-written file that looks complete; a device or a pipe (`--out /dev/null`,
// a FIFO) is written as it is (never replaced by a file).
import { createWriteStream, existsSync, openSync, renameSync, rmSync, statSync, type Stats, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import { BulkError, reason } from './errors.js';

export class OutputSink {
  private readonly stream: Writable;
  private readonly temp: string | null;
  private failure: Error | null = null;
  /** Set when stdout's reader went away (`robots classify ... | head`): stop quietly. */
  closedByReader = false;
  /** The descriptor, for threads that write to it directly (see write()). */
  readonly fd: number;

  constructor(private readonly path: string | undefined) {
    if (path === undefined) {
      this.temp = null;
      this.stream = process.stdout;
      this.fd = 1;
    } else {
      let existing: Stats | undefined;
      let fd: number;
      try {
        existing = statSync(path, { throwIfNoEntry: false });
      } catch (e) {
        throw new BulkError(`cannot write ${path}: ${reason(e)}`);
      }
      if (existing?.isDirectory()) throw new BulkError(`cannot write ${path}: is a directory`);
      this.temp = existing === undefined || existing.isFile() ? `${path}.${process.pid}.partial` : null;
      try {
        fd = openSync(this.temp ?? path, 'w');
      } catch (e) {
        // The temporary file is the one that could not be made: say so, not that PATH is missing.
        const dir = dirname(path);
        if (this.temp === null) throw new BulkError(`cannot write ${path}: ${reason(e)}`);
        if (!existsSync(dir)) throw new BulkError(`cannot write ${path}: no such directory ${dir}`);
        throw new BulkError(`cannot write ${path}: cannot create the temporary file ${this.temp} beside it: ${reason(e)}`);
      }
      this.fd = fd;
      this.stream = createWriteStream('', { fd, highWaterMark: 1 << 20 });
    }
    this.stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') this.closedByReader = true;
      else this.failure ??= new BulkError(`cannot write ${this.path ?? 'the output'}: ${reason(e)}`);
    });
  }

  /** The output's name in messages. */
  get name(): string {
    return this.path ?? 'the output';
  }

  /** Writes octets (kept until written: `written` says when they may be reused). Threads
   * may write to fd instead, but not both: writes through here are buffered. */
  async write(octets: Uint8Array, written: () => void = () => {}): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.closedByReader || octets.length === 0) return written();
    if (!this.stream.write(octets, () => written())) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.stream.off('drain', done);
          this.stream.off('error', done);
          this.stream.off('close', done);
          resolve();
        };
        this.stream.on('drain', done).on('error', done).on('close', done);
      });
      if (this.failure) throw this.failure;
    }
  }

  /** Flushes and, for a file, moves it into place. */
  async finish(): Promise<void> {
    if (this.path === undefined) {
      await new Promise<void>((resolve) => (this.closedByReader ? resolve() : this.stream.write('', () => resolve())));
      if (this.failure) throw this.failure;
      return;
    }
    // (Until 'close': a failed last write is reported before it, not always before end()'s callback.)
    await new Promise<void>((resolve) => {
      this.stream.once('close', () => resolve());
      this.stream.end();
    });
    if (this.failure) throw this.failure;
    if (this.temp === null) return; // a device or a pipe
    try {
      renameSync(this.temp, this.path!);
    } catch (e) {
      throw new BulkError(`cannot write ${this.path}: ${reason(e)}`);
    }
  }

  /** After a failure: a file is removed; says what became of the output. */
  abandon(): string {
    if (this.path === undefined) return 'the output above is incomplete';
    if (this.temp === null) {
      (this.stream as WriteStream).destroy();
      return `the output written to ${this.path} is incomplete`;
    }
    try {
      (this.stream as WriteStream).destroy();
      rmSync(this.temp, { force: true });
    } catch {
      /* nothing more to do */
    }
    return `nothing was written to ${this.path}`;
  }
}


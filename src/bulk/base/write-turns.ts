// Output written by the classification threads themselves, in input order: a
// block's thread writes when the block before it is written (a turn counter in
// shared memory), so no output crosses threads and the main thread only keeps
// count. The thread with the lowest unwritten block never waits, so the run
// always moves on.
import { writeSync } from 'node:fs';

const NEXT = 0; // the sequence number whose turn it is
const STOP = 1; // set when the run ends early: nobody writes any more
/** How long a waiting thread sleeps before it looks at STOP again (ms). */
const RECHECK_MS = 50;

export class WriteTurns {
  private readonly cells: Int32Array;

  /** Over `shared` (new, or one made by another thread's WriteTurns). */
  constructor(readonly shared = new SharedArrayBuffer(8)) {
    this.cells = new Int32Array(shared);
  }

  /** Blocks until it is seq's turn; false when the run stopped meanwhile. */
  waitFor(seq: number): boolean {
    for (;;) {
      if (Atomics.load(this.cells, STOP) !== 0) return false;
      const next = Atomics.load(this.cells, NEXT);
      if (next === seq) return true;
      Atomics.wait(this.cells, NEXT, next, RECHECK_MS);
    }
  }

  /** Is it seq's turn now? (Does not wait.) */
  isTurn(seq: number): boolean {
    return Atomics.load(this.cells, NEXT) === seq;
  }

  /** seq is written: the next one's turn. */
  pass(seq: number): void {
    Atomics.store(this.cells, NEXT, seq + 1);
    Atomics.notify(this.cells, NEXT);
  }

  /** Ends the run early: waiting threads give up their blocks. */
  stop(): void {
    Atomics.store(this.cells, STOP, 1);
    Atomics.notify(this.cells, NEXT);
  }

  get stopped(): boolean {
    return Atomics.load(this.cells, STOP) !== 0;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes all of octets to fd, waiting out a descriptor that is non-blocking and full (a pipe). */
export function writeAllSync(fd: number, octets: Uint8Array): void {
  for (let at = 0; at < octets.length; ) {
    try {
      at += writeSync(fd, octets, at, octets.length - at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

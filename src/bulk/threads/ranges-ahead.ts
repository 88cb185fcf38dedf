// The ranges of an input file asked of a reading thread (dir-reader.ts) ahead of
// the one thread that classifies: each time a range's classification begins, the
// ranges after it are asked for, up to a window. The run's loop asks for a range
// only once an earlier block's output is written (it bounds the blocks in flight),
// and a block's output is written in a later turn of the event loop, while the
// classifier goes on through the blocks whose replies are in: asked from there,
// the reader got the next range only when the classifier already needed it, one
// block in five (a wait of a reader's round trip, each time). Asked from here,
// the reader is `window` ranges ahead whatever the writes do.
//
// In: the ranges as the run's loop cuts the file (from 0, `step` octets each,
// the last one short); out: each range's reply, asked once. Invariants: a range
// is asked at most once while its reply is waited for; at most `window` ranges
// past the one being classified are asked and not yet taken.
import type { FileRange } from '../sources/file-ranges.js';

export class RangesAhead<Reply> {
  /** Asked and not taken yet, in file order. */
  private readonly asked: { range: FileRange; reply: Promise<Reply> }[] = [];
  /** The furthest range asked so far, taken or not (null: none yet). */
  private furthest: FileRange | null = null;
  /** Ranges asked for so far (a count, for the tests and the bench). */
  asks = 0;

  constructor(
    private readonly ask: (range: FileRange) => Promise<Reply>,
    /** Ranges asked past the one being classified. */
    private readonly window: number,
    /** Octets of a range, as the run's loop cuts them. */
    private readonly step: number,
  ) {}

  /** The range's reply: asked before (see begin), or now. */
  take(range: FileRange): Promise<Reply> {
    while (this.asked.length > 0 && this.asked[0].range.start < range.start) this.asked.shift(); // (skipped: not wanted)
    const first = this.asked[0];
    if (first !== undefined && first.range.start === range.start && first.range.end === range.end && first.range.fd === range.fd) {
      this.asked.shift();
      return first.reply;
    }
    this.asked.length = 0; // (cut otherwise: what was asked is not this file's next ranges)
    return this.put(range);
  }

  /** A range's classification begins: the ranges after it are asked, up to the window. */
  begin(range: FileRange): void {
    const limit = range.start + this.window * this.step;
    const f = this.furthest;
    let last = f !== null && f.fd === range.fd && f.start >= range.start ? f : range;
    while (last.end < last.size && last.end <= limit) {
      const start = last.end;
      last = { fd: range.fd, start, end: Math.min(range.size, start + this.step), size: range.size };
      this.asked.push({ range: last, reply: this.put(last) });
    }
  }

  private put(range: FileRange): Promise<Reply> {
    this.asks++;
    if (this.furthest === null || this.furthest.fd !== range.fd || range.start > this.furthest.start) this.furthest = range;
    return this.ask(range);
  }
}

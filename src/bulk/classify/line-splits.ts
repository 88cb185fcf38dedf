// A block's lines as the core's splitLines cut them, recorded where the block is
// split first (the host files' reader, host-files-ahead.ts) and replayed by the
// one thread that classifies, which then does not split the same octets again:
// splitting (splitLines and its hosts' spans) was a tenth of that thread's time
// on the corpus probes ×30, the same work the reader had just done.
//
// In: after each splitLines call over a block, its line and run records as the
// core wrote them (before the runs are canonicalised: the classifier does that
// itself, keeping the origins it names). Out: the same records, call by call,
// in the classifier's areas, with what the call returned. Invariants: a split is
// replayed only over a block of the length it was recorded for (its calls'
// octets add up to it), else the classifier splits the block itself; records
// are position-free (a line's start is an offset in its call's part of the block).
import type { Core } from '../../engine/wasm/core.js';
import { LINE_RECORD, RUN_RECORD } from '../../engine/wasm/layout.js';

/** A block's splitLines calls and their records. */
export interface LineSplits {
  /** Per call, three numbers: the octets it took (lastSplitEnd), its lines (line records), its runs (run records). */
  calls: Int32Array;
  /** Each call's line records then its run records, call after call. */
  records: Uint8Array;
}

/** Numbers per call in LineSplits.calls. */
const CALL = 3;

/** Records a block's splits (the reader's side), into buffers from `take` (a pool's, say). */
export class SplitRecorder {
  private readonly calls: number[] = [];
  private records: Uint8Array;
  private used = 0;

  constructor(private readonly take: (n: number) => Uint8Array) {
    this.records = whole(take(1 << 16));
  }

  /** The splitLines call just made over `octets` of the block: its `lines` line records at recs, `runs` run records at runs. */
  add(core: Core, octets: number, lines: number, recs: number, runs: number, runCount: number): void {
    const lineOctets = lines * LINE_RECORD;
    const runOctets = runCount * RUN_RECORD;
    const need = this.used + lineOctets + runOctets;
    if (need > this.records.length) {
      const grown = whole(this.take(Math.max(this.records.length * 2, need)));
      grown.set(this.records.subarray(0, this.used));
      this.records = grown;
    }
    if (core.u8.length === 0) core.refresh();
    const u8 = core.u8;
    this.records.set(u8.subarray(recs, recs + lineOctets), this.used);
    this.records.set(u8.subarray(runs, runs + runOctets), this.used + lineOctets);
    this.used = need;
    this.calls.push(octets, lines, runCount);
  }

  /** The block's splits (the records' buffer is the recorder's: it moves with them). */
  done(): LineSplits {
    return { calls: Int32Array.from(this.calls), records: this.records };
  }
}

/** Splits a block's lines into the classifier's areas, part after part: by the core's splitLines, or by replaying a
 * split made elsewhere (each call's records copied where splitLines would have written them). */
export class LineSplitter {
  /** What the last part took of the block, its lines (line records) and runs (run records). */
  octets = 0;
  lines = 0;
  runs = 0;
  /** splitLines calls made (a split replayed makes none). */
  calls = 0;
  private replay: LineSplits | null = null;
  private call = 0;
  private at = 0;

  /** Into the records at recs and runAt of the core, at most maxRecords lines a part. */
  constructor(
    private readonly core: Core,
    private readonly recs: number,
    private readonly runAt: number,
    private readonly maxRecords: number,
  ) {}

  /** A block of `length` octets begins: `splits` is replayed over it if they were made over as many. */
  begin(length: number, splits: LineSplits | undefined): void {
    this.replay = splits !== undefined && fits(splits, length, this.maxRecords) ? splits : null;
    this.call = 0;
    this.at = 0;
  }

  /** The next part of the block, whose n octets left start at buf; this splitter, which says what it took. */
  next(buf: number, n: number): this {
    const core = this.core;
    const splits = this.replay;
    if (splits === null) {
      const x = core.exports;
      this.lines = x.splitLines(buf, n, this.recs, this.runAt, this.maxRecords);
      this.runs = x.lastRunCount();
      this.octets = x.lastSplitEnd();
      this.calls++;
      return this;
    }
    const c = splits.calls;
    const k = this.call++ * CALL;
    this.octets = c[k];
    this.lines = c[k + 1];
    this.runs = c[k + 2];
    const lineOctets = this.lines * LINE_RECORD;
    const runOctets = this.runs * RUN_RECORD;
    if (core.u8.length === 0) core.refresh(); // (compiling the runs before may have grown the memory)
    core.u8.set(splits.records.subarray(this.at, this.at + lineOctets), this.recs);
    core.u8.set(splits.records.subarray(this.at + lineOctets, this.at + lineOctets + runOctets), this.runAt);
    this.at += lineOctets + runOctets;
    return this;
  }
}

/** Whether the splits were made over a block of `length` octets, in calls of at most `maxRecords` lines each. */
function fits(splits: LineSplits, length: number, maxRecords: number): boolean {
  const c = splits.calls;
  if (c.length % CALL !== 0) return false;
  let octets = 0;
  let records = 0;
  for (let k = 0; k < c.length; k += CALL) {
    if (c[k] <= 0 || c[k + 1] < 0 || c[k + 1] > maxRecords || c[k + 2] < 0 || c[k + 2] > c[k + 1]) return false;
    octets += c[k];
    records += c[k + 1] * LINE_RECORD + c[k + 2] * RUN_RECORD;
  }
  return octets === length && records <= splits.records.length;
}

/** All of a view's buffer (a pool gives views of the octets asked for, over buffers that may be larger). */
function whole(view: Uint8Array): Uint8Array {
  return new Uint8Array(view.buffer, 0, view.buffer.byteLength);
}

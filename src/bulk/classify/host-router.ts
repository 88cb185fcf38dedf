// Splits a block of URL lines between threads by host, so that each host's
// robots.txt is read, parsed and compiled by one thread only (with a
// robots.txt per host, that is most of the work: spread by blocks, every
// thread loaded every host of an interleaved input). The lines are split
// and their hosts hashed by this thread's own core; each thread is told the
// spans of the block that hold its lines (it gathers them itself, so that
// the copying is spread too), and the block's segments (a thread and a count
// of lines each, in input order) put the threads' output back in input order.
import { core, type Core } from '../../engine/wasm/core.js';
import { LINE_RECORD, RUN_RECORD } from '../../engine/wasm/layout.js';
import { LINE_AT, LINE_LEN, LINE_U32, RUN_FIRST, RUN_H1, RUN_H2, RUN_U32 } from './record-fields.js';
import { CoreInput } from './core-input.js';
import { canonicaliseRuns } from './origin-runs.js';
import { shardOf, type Shard } from '../hosts/shard.js';

const MAX_RECORDS = 1 << 15;
/** A run of one origin longer than this is cut into pieces of at most PIECE_LINES, each given to the
 * thread with the fewest lines so far: a big host then loads once per thread, and keeps every thread busy. */
const LONG_RUN = 256;
const PIECE_LINES = 4096;

/** A block's lines as split between threads. */
export interface RoutedBlock {
  /** The block's octets (a view of the router's core: valid until the next route()). */
  block: Uint8Array;
  /** Each thread's spans of the block, [from, to) pairs in input order: whole lines without their last LF. */
  spans: Int32Array[];
  /** Each thread's segments: its lines' counts, in input order. */
  counts: Int32Array[];
  /** The thread of each segment of the block, in input order (its count is the thread's next one). */
  order: Uint8Array;
}

/** A growable list of 32-bit numbers. */
class Numbers {
  array = new Int32Array(1 << 10);
  length = 0;
  push2(a: number, b: number): void {
    if (this.length + 2 > this.array.length) this.grow();
    this.array[this.length++] = a;
    this.array[this.length++] = b;
  }
  private grow(): void {
    const bigger = new Int32Array(this.array.length * 2);
    bigger.set(this.array);
    this.array = bigger;
  }
}

/** Slots of the table that gives a host's thread by its second hash (in proportion to the threads' weights). */
const SLOTS = 1024;

export class HostRouter {
  private readonly core: Core;
  /** The thread of each slot (see SLOTS), and each thread's weight (a long run's pieces go by lines given over weight). */
  private readonly slots = new Uint8Array(SLOTS);
  private readonly weights: Float64Array;
  private readonly input: CoreInput;
  private readonly recs: number;
  private readonly runs: number;
  /** Lines given to each thread so far (the least loaded takes the pieces of a long run). */
  private readonly given: Float64Array;
  /** The block being routed: each thread's spans, and the segments (thread, lines) so far. */
  private readonly spans: Numbers[];
  private order = new Uint8Array(1 << 16);
  private lines = new Int32Array(1 << 16);
  private segments = 0;
  /** Octets of the block routed last. */
  private length = 0;

  /** Over `threads` threads (at most 256); with a shard, the lines of other shards' hosts are dropped. Thread 0
   * takes `firstWeight` times a share of the others' (from 0 to 1: the thread that routes classifies less). */
  constructor(private readonly threads: number, private readonly shard?: Shard, firstWeight = 1) {
    if (threads > 256) throw new RangeError(`at most 256 threads, got ${threads}`);
    this.weights = Float64Array.from({ length: threads }, (_, t) => (t === 0 ? Math.min(1, Math.max(0, firstWeight)) : 1));
    const total = this.weights.reduce((a, b) => a + b, 0);
    for (let i = 0, t = 0, upTo = this.weights[0]; i < SLOTS; i++) {
      while ((i + 0.5) * (total / SLOTS) > upTo && t + 1 < threads) upTo += this.weights[++t];
      this.slots[i] = t;
    }
    this.core = core();
    this.input = new CoreInput(this.core);
    this.recs = this.core.alloc(MAX_RECORDS * LINE_RECORD);
    this.runs = this.core.alloc(MAX_RECORDS * RUN_RECORD);
    this.given = new Float64Array(threads);
    this.spans = Array.from({ length: threads }, () => new Numbers());
  }

  /** The block routed last, as a view made now (the one route() gave is of the memory then: the core's grows). */
  lastBlock(): Uint8Array {
    if (this.core.u8.length === 0) this.core.refresh();
    return this.core.u8.subarray(this.input.ptr, this.input.ptr + this.length);
  }

  /** The core's input area, room for n octets: lines read straight into it are routed where they are (see route). */
  inputArea(n: number): Uint8Array {
    return this.input.area(n);
  }

  /** Splits whole lines (the last may lack its LF; whole or in parts, as read) between the threads. */
  route(input: Uint8Array | readonly Uint8Array[]): RoutedBlock {
    const c = this.core;
    const length = this.input.stage(input);
    this.length = length;
    for (const s of this.spans) s.length = 0;
    this.segments = 0;
    const x = c.exports;
    const u32 = c.u32;
    const shard = this.shard;
    for (let pos = 0; pos < length; ) {
      const count = x.splitLines(this.input.ptr + pos, length - pos, this.recs, this.runs, MAX_RECORDS);
      const nruns = x.lastRunCount();
      canonicaliseRuns(c, this.input.ptr + pos, this.recs, this.runs, nruns);
      for (let r = 0, q = this.runs >>> 2; r < nruns; r++, q += RUN_U32) {
        const first = u32[q + RUN_FIRST];
        const end = r + 1 < nruns ? u32[q + RUN_U32 + RUN_FIRST] : count;
        const h1 = u32[q + RUN_H1];
        if (shard !== undefined && shardOf(h1, shard.count) !== shard.index) continue; // another machine's
        if (end - first <= LONG_RUN) {
          // By the host's second hash: --shard takes the first, so a shard's hosts still spread.
          this.emit(h1 === 0 ? 0 : this.slots[u32[q + RUN_H2] & (SLOTS - 1)], pos, first, end);
          continue;
        }
        for (let p = first; p < end; p += PIECE_LINES) this.emit(this.leastGiven(), pos, p, Math.min(end, p + PIECE_LINES));
      }
      pos += x.lastSplitEnd();
    }
    return this.routed(c.u8.subarray(this.input.ptr, this.input.ptr + length));
  }

  /** Lines [first, end) of the split at block offset pos to a thread. */
  private emit(thread: number, pos: number, first: number, end: number): void {
    const i32 = this.core.i32;
    const a = (this.recs >>> 2) + first * LINE_U32;
    const z = (this.recs >>> 2) + (end - 1) * LINE_U32;
    this.spans[thread].push2(pos + i32[a + LINE_AT], pos + i32[z + LINE_AT] + i32[z + LINE_LEN]);
    this.given[thread] += end - first;
    const s = this.segments;
    if (s > 0 && this.order[s - 1] === thread) {
      this.lines[s - 1] += end - first;
      return;
    }
    if (s === this.order.length) {
      const order = new Uint8Array(s * 2);
      order.set(this.order);
      this.order = order;
      const lines = new Int32Array(s * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    this.order[s] = thread;
    this.lines[s] = end - first;
    this.segments = s + 1;
  }

  /** The block's routing, from the spans and segments recorded. */
  private routed(block: Uint8Array): RoutedBlock {
    const n = this.segments;
    const per = new Int32Array(this.threads);
    for (let s = 0; s < n; s++) per[this.order[s]]++;
    const counts = Array.from(per, (k) => new Int32Array(k));
    per.fill(0);
    for (let s = 0; s < n; s++) {
      const t = this.order[s];
      counts[t][per[t]++] = this.lines[s];
    }
    return { block, spans: this.spans.map((s) => s.array.slice(0, s.length)), counts, order: this.order.slice(0, n) };
  }

  private leastGiven(): number {
    let t = this.threads - 1;
    for (let k = 0; k < this.threads; k++) if (this.weights[k] > 0 && this.given[k] / this.weights[k] < this.given[t] / this.weights[t]) t = k;
    return t;
  }

}

/** Octets of the lines of `spans` (see RoutedBlock), each ended by an LF: what gatherSpans writes. */
export function spanOctets(spans: Int32Array): number {
  let n = 0;
  for (let k = 0; k < spans.length; k += 2) n += spans[k + 1] - spans[k] + 1;
  return n;
}

/** The lines of `spans` of a block (see RoutedBlock), each ended by an LF, into `lines` (spanOctets(spans) octets). */
export function gatherSpans(block: Uint8Array, spans: Int32Array, lines: Uint8Array): Uint8Array {
  let at = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const from = spans[k];
    const to = spans[k + 1];
    // (Most spans are a line or a few: a loop costs what making a view to set() from does.)
    if (to - from < 64) for (let i = from; i < to; i++) lines[at++] = block[i];
    else {
      lines.set(block.subarray(from, to), at);
      at += to - from;
    }
    lines[at++] = 0x0a;
  }
  return lines;
}

/** Octets of each segment of a thread's output, whose lines (one per URL) come in segments of `counts` lines. */
export function segmentOctets(output: Uint8Array, counts: Int32Array): Int32Array {
  const octets = new Int32Array(counts.length);
  const lines = Buffer.from(output.buffer, output.byteOffset, output.length); // (Buffer's indexOf: twice Uint8Array's speed here)
  let at = 0;
  for (let s = 0; s < counts.length; s++) {
    const from = at;
    for (let k = counts[s]; k > 0; k--) at = lines.indexOf(0x0a, at) + 1;
    octets[s] = at - from;
  }
  return octets;
}

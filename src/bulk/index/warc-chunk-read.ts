// One stretch of a WARC file gzipped per record, read apart by a thread of
// robots index (../threads/index-worker.ts): from a member's start to another's
// (../sources/warc/gzip-members.ts), inflated whole (one zlib call: no stream plumbing, no
// wait), its records read by the fast reader (../sources/warc/warc-fast-records.ts) and an odd
// one by warcio, each capture encoded as its shard record here. A stretch that
// inflates past INFLATED_MAX is read as a stream instead, so a thread holds
// little whatever a member inflates to. What one reader of the whole file
// would read otherwise is an anomaly: a member that does not inflate (damage)
// or does not end where the stretch does (a false start), a record cut at
// either end, framed otherwise, or that warcio would read from the record
// before on. The stretch's results are then dropped, and the main thread
// reads the file from the stretch's start on in one stream (../sources/warc/warc-captures.ts),
// so what an index holds never depends on where the file was cut.
import { closeSync, openSync, readSync } from 'node:fs';
import { reason } from '../base/errors.js';
import { captureShard, keyHash, recordOctets, storedCapture, writeRecord } from './robots-index-format.js';
import type { CaptureRead, CaptureReadOptions, DamageRead } from '../sources/warc/warc-capture-read.js';
import { fastRecordCaptures, wholeRecords, type FastRecordItem, type ReadFrom } from '../sources/warc/warc-fast-records.js';
import { warcioRecordCaptures } from '../sources/warc/warcio-captures.js';
import { MemberInflater, TooLarge, type Inflated } from '../sources/warc/member-inflater.js';
import { PoolInflater } from '../sources/warc/pool-inflate.js';

/** What a stretch may inflate to in one call (the corpus's members inflate about 4×: a 256 KiB stretch to 1 MiB); past
 * it, the stretch is read as a stream. */
export const INFLATED_MAX = 16 << 20;

/** Octets of spare records buffers a thread keeps: what comes back in a wave once the main thread's shard appends
 * are written (ShardWriter's pending records and those in flight: 12 MiB at up to 256 shards, 36 MiB from 1,024 on;
 * the corpus's stretches' records take ~1.25 MiB each). Three
 * spares, as before, dropped most of what came back and took fresh memory for the next stretches: the corpus ×16's
 * run took 53,600 page faults against 39,000 with them, 2.27 CPU-s against 2.11, 197 MiB peak against 181
 * (docs/benchmarks.md, "robots index against gzip -dc"; 21k and 105 MiB since the appends' bounds and the
 * stretches shrank: "Fewer pages"). */
const SPARE_OCTETS = 48 << 20;

/** A stretch of `file`: file octets start..end, each a gzip member's start (or the file's end). */
export interface ChunkTask {
  seq: number;
  file: string;
  start: number;
  end: number;
}

/** Numbers per capture in ChunkRead.meta: its record's offset in the stretch (uncompressed), shard, key hash, record octets. */
export const META = 4;

/** A stretch read: its captures as shard records, in file order. */
export interface ChunkRead {
  seq: number;
  /** Why the stretch is left to one reader of the file (then nothing else holds). */
  anomaly?: string;
  /** Its uncompressed octets. */
  length: number;
  counts: { records: number; responses: number };
  /** The captures' records (robots-index-format.ts), back to back. */
  records: Uint8Array;
  meta: Float64Array;
  captures: number;
  /** The captures cut to maxOctets (their key, for the warning) or damaged when read. */
  notes: { capture: number; key: string; truncated: boolean; damaged?: string }[];
  /** The damage that ends the file (warcio's, in an odd record); offsets in the stretch. */
  damage?: DamageRead;
  /** A failure that is no anomaly of the file (a bug): the run stops with it. */
  error?: string;
}

/** A stretch's inflate begun ahead on libuv's threadpool (WarcChunkReader.inflateAhead): its octets, or why it did
 * not inflate (`tooLarge`: read as a stream instead), and the stretch's compressed length. */
export interface InflateAhead {
  inflated?: Inflated;
  failure?: string;
  tooLarge?: boolean;
  compressed: number;
  /** Its inflater given back (its octets read): the next stretch inflates into the same buffer. */
  release?: () => void;
}

/** A stretch whose octets could not be read. */
const unreadable = (e: unknown): InflateAhead => ({ failure: `cannot read: ${reason(e)}`, compressed: 0 });

/** A stretch that did not inflate: past INFLATED_MAX (then read as a stream), or zlib's error. */
const uninflated = (e: unknown, compressed: number): InflateAhead => (e instanceof TooLarge ? { tooLarge: true, compressed } : { failure: reason(e), compressed });

/** A thread's reader of stretches (see the file's comment): its buffers, the compressed octets' and the inflated
 * ones', kept from one stretch to the next. */
export class WarcChunkReader {
  private readonly inflater = new MemberInflater(INFLATED_MAX);
  /** Inflaters on libuv's threadpool, each with its compressed octets' buffer, not in use (inflateAhead's: one each
   * stretch inflating or being read). */
  private readonly poolInflaters: { inflater: PoolInflater; input: Buffer }[] = [];
  private input = Buffer.alloc(0);
  /** Records' buffers back from the main thread, written: filled again (a fresh 4 MiB a stretch cost a page fault
   * per 4 KiB). */
  private readonly spares = new SpareBuffers();

  /** A buffer of records (a ChunkRead's) whose octets are written, to fill again. */
  spare(buffer: ArrayBuffer): void {
    this.spares.give(buffer);
  }

  constructor(
    private readonly shards: number,
    private readonly maxOctets: number,
  ) {}

  /** The stretch's octets read and inflated on libuv's threadpool while this thread does other work; read() takes it. */
  async inflateAhead(task: ChunkTask): Promise<InflateAhead> {
    // (Its own buffers: the inflate reads one on another thread while later stretches are read into others.)
    const slot = this.poolInflaters.pop() ?? { inflater: new PoolInflater(INFLATED_MAX), input: Buffer.alloc(0) };
    const release = () => void this.poolInflaters.push(slot);
    const n = task.end - task.start;
    if (slot.input.length < n) slot.input = Buffer.allocUnsafeSlow(Math.max(n, 2 * slot.input.length));
    let compressed: Buffer;
    try {
      compressed = this.readRange(task.file, task.start, task.end, slot.input);
    } catch (e) {
      release();
      return unreadable(e);
    }
    try {
      return { inflated: await slot.inflater.inflate(compressed), compressed: compressed.length, release };
    } catch (e) {
      release();
      return uninflated(e, compressed.length);
    }
  }

  /** The stretch read: inflated here, or taken from its inflateAhead. */
  async read(task: ChunkTask, ahead?: Promise<InflateAhead>): Promise<ChunkRead> {
    const got = ahead === undefined ? this.inflateHere(task) : await ahead;
    try {
      return await this.readInflated(task, got);
    } finally {
      got.release?.();
    }
  }

  private async readInflated(task: ChunkTask, got: InflateAhead): Promise<ChunkRead> {
    const out = new ChunkRecords(task.seq, this.shards, this.spares);
    const options: CaptureReadOptions = { maxOctets: this.maxOctets, counts: out.counts };
    if (got.failure !== undefined) return out.anomaly(got.failure);
    const inflated = got.inflated;
    let from: ReadFrom | undefined;
    let ended: ChunkRead | undefined;
    if (inflated !== undefined) {
      // (zlib passes over zeros after a member without a word: the stretch must be members to its end.)
      if (inflated.consumed !== got.compressed) return out.anomaly('octets after a member that are none');
      out.length = inflated.octets.length;
      out.expect(inflated.octets.length);
      // A plain loop: `for await` over this generator cost a promise and a microtask per record.
      for (const item of wholeRecords(inflated.octets, 0, options)) {
        if (item.kind === 'capture') out.add(item);
        else if ((ended = await this.other(item, out, options)) !== undefined) return ended;
      }
    } else {
      from = { start: task.start, end: task.end, base: 0 };
      for await (const item of fastRecordCaptures(task.file, true, options, from)) {
        if (item.kind === 'capture') out.add(item);
        else if ((ended = await this.other(item, out, options)) !== undefined) return ended;
      }
    }
    if (from !== undefined) {
      if (from.read === undefined) return out.anomaly('not read to its end');
      out.length = from.read;
    }
    return out.done();
  }

  /** An item other than a capture: an odd record's captures, read by warcio, into `out` (undefined: read on), or the
   * end of the stretch's read (a damage; or an anomaly). */
  private async other(item: Exclude<FastRecordItem, { kind: 'capture' }>, out: ChunkRecords, options: CaptureReadOptions): Promise<ChunkRead | undefined> {
    if (item.kind !== 'odd') return out.anomaly(item.kind === 'fallback' ? `a record at uncompressed offset ${item.offset} of the stretch is not read alone` : 'no record');
    for await (const read of warcioRecordCaptures(item.record, options, item.offset)) {
      if (read.kind === 'capture') out.add(read);
      else if (read.kind === 'damage') {
        out.damage = read;
        return out.done();
      }
    }
    return undefined;
  }

  /** The stretch inflated on this thread, into the inflater's buffer. */
  private inflateHere(task: ChunkTask): InflateAhead {
    let compressed: Buffer;
    try {
      compressed = this.readRange(task.file, task.start, task.end);
    } catch (e) {
      return unreadable(e);
    }
    try {
      return { inflated: this.inflater.inflate(compressed), compressed: compressed.length };
    } catch (e) {
      return uninflated(e, compressed.length);
    }
  }

  /** File octets start..end, in `into` or the buffer kept for them. */
  private readRange(file: string, start: number, end: number, into?: Buffer): Buffer {
    const n = end - start;
    if (into === undefined && this.input.length < n) this.input = Buffer.allocUnsafe(Math.max(n, 2 * this.input.length));
    const buf = (into ?? this.input).subarray(0, n);
    const fd = openSync(file, 'r');
    try {
      for (let done = 0; done < n; ) {
        const got = readSync(fd, buf, done, n - done, start + done);
        if (got === 0) throw new Error('the file is shorter than it was');
        done += got;
      }
      return buf;
    } finally {
      closeSync(fd);
    }
  }
}

/** A stretch's captures encoded as they are read, into buffers that grow (transferred whole to the main thread). */
class ChunkRecords {
  readonly counts = { records: 0, responses: 0 };
  length = 0;
  damage?: DamageRead;
  private records = new Uint8Array(0);
  private recordsView = Buffer.alloc(0);
  private used = 0;
  private meta = new Float64Array(META * 1024);
  private captures = 0;
  private readonly notes: ChunkRead['notes'] = [];

  constructor(
    private readonly seq: number,
    private readonly shards: number,
    private readonly spares: SpareBuffers,
  ) {}

  /** Room for the records of `inflated` octets of WARC (a record holds less than its WARC record, the key and Location
   * but the same as its target URI and header; more only when a short record gets a long damaged note: then grown),
   * in whole quarters of a MiB: the spares then fit the next stretches, whose sizes differ by a few KiB (exact sizes
   * left most spares a little short, and took fresh memory). */
  expect(inflated: number): void {
    this.grow(Math.ceil((inflated + (64 << 10)) / (256 << 10)) * (256 << 10));
  }

  private grow(octets: number): void {
    const spare = this.spares.take(octets);
    // (Not zeroed, not pooled: transferable.)
    const next = spare !== undefined ? new Uint8Array(spare) : new Uint8Array(Buffer.allocUnsafeSlow(octets).buffer, 0, octets);
    next.set(this.records.subarray(0, this.used));
    if (this.records.length > 0) this.spares.give(this.records.buffer as ArrayBuffer);
    this.records = next;
    this.recordsView = Buffer.from(next.buffer, next.byteOffset, next.length);
  }

  add(c: CaptureRead): void {
    const stored = storedCapture(c);
    const octets = recordOctets(stored);
    if (this.used + octets > this.records.length) this.grow(Math.max(2 * this.records.length, this.used + octets, 1 << 20));
    writeRecord(stored, this.recordsView, this.used, octets);
    if ((this.captures + 1) * META > this.meta.length) {
      const next = new Float64Array(2 * this.meta.length);
      next.set(this.meta);
      this.meta = next;
    }
    const m = this.captures * META;
    this.meta[m] = c.offset;
    this.meta[m + 1] = captureShard(c.key, this.shards);
    this.meta[m + 2] = keyHash(c.key);
    this.meta[m + 3] = octets;
    if (c.truncated || c.damaged !== undefined) this.notes.push({ capture: this.captures, key: c.key, truncated: c.truncated, ...(c.damaged !== undefined ? { damaged: c.damaged } : {}) });
    this.used += octets;
    this.captures++;
  }

  done(): ChunkRead {
    // (Records cut to a short --max-octets fill little of the room: what crosses to the main thread, and is held there
    // until written, is what they fill.)
    if (this.used < this.records.length / 2 && this.used > 0) this.grow(this.used);
    return {
      seq: this.seq,
      length: this.length,
      counts: this.counts,
      records: this.records.subarray(0, this.used),
      meta: this.meta.subarray(0, this.captures * META),
      captures: this.captures,
      notes: this.notes,
      ...(this.damage !== undefined ? { damage: this.damage } : {}),
    };
  }

  anomaly(why: string): ChunkRead {
    return { seq: this.seq, anomaly: why, length: 0, counts: { records: 0, responses: 0 }, records: new Uint8Array(0), meta: new Float64Array(0), captures: 0, notes: [] };
  }
}

/** Records buffers written and given back, kept up to SPARE_OCTETS in all, to fill again. */
class SpareBuffers {
  private readonly buffers: ArrayBuffer[] = [];
  private octets = 0;

  give(buffer: ArrayBuffer): void {
    if (this.octets + buffer.byteLength > SPARE_OCTETS) return;
    this.buffers.push(buffer);
    this.octets += buffer.byteLength;
  }

  /** A spare of at least `octets`, or undefined. */
  take(octets: number): ArrayBuffer | undefined {
    const k = this.buffers.findIndex((b) => b.byteLength >= octets);
    if (k < 0) return undefined;
    const [buffer] = this.buffers.splice(k, 1);
    this.octets -= buffer.byteLength;
    return buffer;
  }
}

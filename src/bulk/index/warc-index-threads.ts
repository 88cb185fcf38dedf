// robots index's reading of WARC files on every core. A file gzipped per
// record is cut at member starts into stretches of about CHUNK octets
// (../sources/warc/gzip-members.ts), read by the threads (index-pool.ts: inflated,
// parsed and encoded as shard records, warc-chunk-read.ts; this thread is one of
// them); this thread routes their records, in file order, into the shards. Several files'
// stretches are read at once. A plain WARC, a file gzipped whole (no member
// start found within SCAN of a cut), and a file from a stretch the threads do
// not read as one reader would (damage, a record that crosses a cut) on, are
// read here in one stream (../sources/warc/warc-captures.ts), as before the threads. The cuts
// do not depend on the threads: the shards are the same whatever their number.
// (Near damage, the stretches before the damaged one are whole: a capture that
// one stream from the file's start loses with what zlib held back may be kept.)
// Each capture waits in HeldCaptures until no damage can mark it.
import { closeSync, openSync } from 'node:fs';
import { IndexPool } from './index-pool.js';
import { memberStartAtOrAfter } from '../sources/warc/gzip-members.js';
import { HeldCaptures } from '../sources/warc/held-captures.js';
import { CutCaptures } from '../sources/warc/cut-captures.js';
import { captureShard, encodeRecord, keyHash, storedCapture } from './robots-index-format.js';
import { META, type ChunkRead } from './warc-chunk-read.js';
import { isGzip, readWarcCaptures, type DamageRead } from '../sources/warc/warc-captures.js';
import { warcFileSize, type WarcIndexStats } from '../sources/warc/warc-index.js';

/** Octets of gzip a stretch holds (its end moved on to the next member's start): 256 KiB, about 1 MiB inflated, what a
 * thread holds at once. Its records buffer waits until the shard appends holding its records are written, so the
 * stretch's size times the pipeline's depth is the memory in use: 256 KiB made 21k page faults and 105 MiB at peak
 * where 1 MiB made 27k and 134 MiB, 1.25x gzip -dc against 1.20x (the corpus x16; 128 KiB 1.22x: per-stretch costs;
 * docs/benchmarks.md, "Fewer pages"). The tests cut their small WARCs into many stretches with
 * ROBOTS_INDEX_STRETCH_OCTETS (1: a stretch per member). */
const CHUNK = Number(process.env.ROBOTS_INDEX_STRETCH_OCTETS) || 256 << 10;
/** How far past CHUNK a member's start is looked for before the file's rest is read in one stream. */
const SCAN = 16 << 20;
/** Stretches handed out and not yet routed, per thread: one being read, and one read or waiting (3 gave the same
 * speed, for more peak memory). */
const AHEAD_PER_THREAD = 2;

/** A capture as HeldCaptures holds it (a damage after it may set `damaged`). */
export interface HeldCapture {
  damaged?: string;
}

/** Where the records go: what writes `record` into `shard`, called once the capture is trusted. */
export interface RecordSink {
  addRecord(shard: number, hash: number, record: Uint8Array, capture: HeldCapture): () => void;
  /** Undefined when the sink can take more, else what settles once it can (its writes in flight bounded); throws, or
   * rejects, with its failure. */
  room?(): Promise<void> | undefined;
  /** Set here: told of each record given to addRecord once its octets are written (or replaced), by a view of the
   * same buffer (the threads' buffers are filled again once all their records are written). */
  onReleased?: (record: Uint8Array) => void;
}

export interface ThreadedIndexOptions {
  maxOctets: number;
  shards: number;
  /** Reading threads, this one among them (1: it reads the stretches alone); 0: every file read here, in one stream. */
  threads: number;
  sink: RecordSink;
  warn(line: string): void;
  progress?(octets: number, total: number): void;
  /** A file as the user knows it (a list's download: its URL), for a warning said after its reading. */
  name?(file: string): string;
}

/** One file being read. */
interface FileRead {
  file: string;
  /** The file as the user knows it (options.name's, asked while it is the one read). */
  name: string;
  size: number;
  gzip: boolean;
  /** Octets of the files before it (progress). */
  before: number;
  /** Read to its end in one stream, or ended by damage: its later stretches are dropped. */
  stopped: boolean;
  /** Uncompressed offset of the next stretch's first octet. */
  base: number;
  counts: { records: number; responses: number };
  held: HeldCaptures;
  /** Settles once its last capture is routed, by done(). */
  read: Promise<void>;
  done(): void;
}

type Task =
  | { kind: 'chunk'; f: FileRead; start: number; end: number; read: Promise<ChunkRead> }
  | { kind: 'rest'; f: FileRead; start: number }
  | { kind: 'end'; f: FileRead };

/** Reads the WARC files (local, all checked first; or a sequence of them as a list's downloads come), their captures into `sink`. */
export async function indexWarcsInThreads(files: readonly string[] | AsyncIterable<string>, options: ThreadedIndexOptions): Promise<WarcIndexStats> {
  const began = performance.now();
  const listed = Array.isArray(files) ? (files as readonly string[]) : null;
  const sizes = listed?.map(warcFileSize) ?? [];
  let total = sizes.reduce((a, b) => a + b, 0);
  const stats: WarcIndexStats = { files: 0, octets: 0, records: 0, responses: 0, damaged: 0, truncated: 0, ms: 0 };
  const pool = new IndexPool(Math.max(1, options.threads), { shards: options.shards, maxOctets: options.maxOctets });
  const ahead = AHEAD_PER_THREAD * Math.max(1, options.threads);
  const progress = (f: FileRead, octets: number) => options.progress?.(f.before + octets, total);
  const cut = new CutCaptures(options.maxOctets);

  /** The tasks in file order; a stretch's read is asked for as it is made. */
  async function* tasks(): AsyncGenerator<Task> {
    let before = 0;
    let n = 0;
    for await (const file of files) {
      const size = n < sizes.length ? sizes[n] : warcFileSize(file);
      if (n++ >= sizes.length) total += size;
      let done!: () => void;
      const read = new Promise<void>((r) => (done = r));
      const f: FileRead = { file, name: options.name?.(file) ?? file, size, gzip: size > 0 && isGzip(file), before, stopped: false, base: 0, counts: { records: 0, responses: 0 }, held: new HeldCaptures(), read, done };
      before += size;
      yield* fileTasks(f);
      // (A list's download is removed once the next is asked for: that waits until this one is read.)
      if (listed === null) await f.read;
    }
  }

  /** A file's tasks: its stretches, or the file (from where no member start is found) read here. */
  async function* fileTasks(f: FileRead): AsyncGenerator<Task> {
    if (f.gzip && options.threads > 0) {
      const fd = openSync(f.file, 'r');
      try {
        for (let start = 0; start < f.size && !f.stopped; ) {
          let end = memberStartAtOrAfter(fd, start + CHUNK, start + CHUNK + SCAN, f.size);
          if (end < 0 && f.size <= start + CHUNK + SCAN) end = f.size;
          if (end < 0) {
            yield { kind: 'rest', f, start };
            break;
          }
          const read = pool.read({ file: f.file, start, end });
          read.catch(() => {}); // (awaited in turn; a failure before then is not unhandled)
          yield { kind: 'chunk', f, start, end, read };
          start = end;
        }
      } finally {
        closeSync(fd);
      }
    } else yield { kind: 'rest', f, start: 0 };
    yield { kind: 'end', f };
  }

  // Each stretch's records buffer, and how many of its records are not written yet: back to a thread when none.
  const unwritten = new Map<ArrayBufferLike, number>();
  const written = (buffer: ArrayBufferLike) => {
    const left = unwritten.get(buffer);
    if (left === undefined) return; // (a shard's header, directory, or a record made here)
    if (left > 1) unwritten.set(buffer, left - 1);
    else {
      unwritten.delete(buffer);
      pool.recycle(buffer as ArrayBuffer);
    }
  };
  options.sink.onReleased = (record) => written(record.buffer);
  const queue = new TaskQueue(tasks(), ahead);
  try {
    for (let t = await queue.next(); t !== undefined; t = await queue.next()) {
      const f = t.f;
      if (t.kind === 'end') {
        f.held.release(Infinity);
        f.done();
        stats.files++;
        stats.records += f.counts.records;
        stats.responses += f.counts.responses;
        stats.octets += f.size;
        continue;
      }
      if (f.stopped) continue;
      if (t.kind === 'chunk') {
        const room = options.sink.room?.();
        if (room !== undefined) await room;
        const read = await t.read;
        if (read.anomaly === undefined) {
          route(f, read);
          progress(f, t.end);
          continue;
        }
      }
      // The file from here on in one stream.
      f.stopped = true;
      await readRest(f, t.start);
    }
  } finally {
    await queue.close();
    await pool.close();
  }
  stats.truncated = cut.size;
  const said = cut.line();
  if (said !== undefined) options.warn(said);
  stats.ms = performance.now() - began;
  return stats;

  /** A stretch's captures, held until trusted, then written. */
  function route(f: FileRead, read: ChunkRead): void {
    const { meta, records } = read;
    if (read.captures > 0) unwritten.set(records.buffer, read.captures);
    else if (records.buffer.byteLength > 0) pool.recycle(records.buffer as ArrayBuffer);
    let note = 0;
    for (let i = 0, at = 0; i < read.captures; i++) {
      const m = i * META;
      const octets = meta[m + 3];
      const capture: HeldCapture = {};
      const offset = f.base + meta[m];
      if (note < read.notes.length && read.notes[note].capture === i) {
        const n = read.notes[note++];
        if (n.truncated) truncated(f, n.key, offset);
        if (n.damaged !== undefined) capture.damaged = n.damaged;
      }
      f.held.add(offset, capture, options.sink.addRecord(meta[m + 1], meta[m + 2], records.subarray(at, at + octets), capture));
      at += octets;
    }
    f.counts.records += read.counts.records;
    f.counts.responses += read.counts.responses;
    if (read.damage !== undefined) {
      const d = read.damage;
      damage(f, { ...d, offset: f.base + d.offset, trustedBefore: f.base + d.trustedBefore });
      f.stopped = true;
    }
    f.base += read.length;
  }

  /** The file read here from `start` (0, or a member's start at uncompressed f.base) to its end. */
  async function readRest(f: FileRead, start: number): Promise<void> {
    const read = readWarcCaptures(f.file, { maxOctets: options.maxOctets, counts: f.counts, progress: (octets) => progress(f, octets) }, 'auto', start === 0 ? undefined : { start, base: f.base });
    for await (const item of read) {
      const room = options.sink.room?.();
      if (room !== undefined) await room;
      if (item.kind === 'capture') {
        if (item.truncated) truncated(f, item.key, item.offset);
        const capture: HeldCapture = item.damaged === undefined ? {} : { damaged: item.damaged };
        f.held.add(item.offset, capture, options.sink.addRecord(captureShard(item.key, options.shards), keyHash(item.key), encodeRecord(storedCapture(item)), capture));
      } else if (item.kind === 'damage') damage(f, item);
      else if (f.size > 0) {
        stats.damaged++;
        options.warn(`${f.file}: no WARC record could be read (not a WARC file, or damaged)`);
      }
    }
  }

  function truncated(f: FileRead, key: string, offset: number): void {
    cut.add(f.name, key, offset, f.gzip);
  }

  /** What was read just before the damage may come from the damaged part: those hosts are unreachable. */
  function damage(f: FileRead, d: DamageRead): void {
    const marked = f.held.markFrom(d.trustedBefore, `read just before the damage in ${f.file}`);
    stats.damaged++;
    options.warn(`${f.file}: cannot read past ${f.gzip ? 'uncompressed ' : ''}offset ${d.offset} (${d.why}): the captures after it are skipped` +
      (marked > 0 ? `, and ${marked} read just before it taken as unreachable` : ''));
  }
}


/**
 * Tasks taken from `source` up to `ahead` before the one routed (so the threads read on while this thread routes
 * and a list's next download comes), handed out in order.
 */
class TaskQueue {
  private readonly queue: Task[] = [];
  private done = false;
  private failure: unknown;
  private wake: (() => void) | null = null;
  private room: (() => void) | null = null;
  private readonly filling: Promise<void>;

  constructor(
    private readonly source: AsyncGenerator<Task>,
    private readonly ahead: number,
  ) {
    this.filling = this.fill();
  }

  private async fill(): Promise<void> {
    try {
      for (;;) {
        while (this.queue.length >= this.ahead && !this.done) await new Promise<void>((r) => (this.room = r));
        if (this.done) return;
        const n = await this.source.next();
        if (n.done) break;
        this.queue.push(n.value);
        this.wake?.();
      }
    } catch (e) {
      this.failure = e;
    }
    this.done = true;
    this.wake?.();
  }

  /** The next task in order; undefined after the last. */
  async next(): Promise<Task | undefined> {
    while (this.queue.length === 0) {
      if (this.failure !== undefined) throw this.failure;
      if (this.done) return undefined;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = null;
    }
    const t = this.queue.shift()!;
    this.room?.();
    this.room = null;
    return t;
  }

  async close(): Promise<void> {
    this.done = true;
    this.room?.();
    await this.filling;
    await this.source.return(undefined);
  }
}

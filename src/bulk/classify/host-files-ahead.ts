// A --robots-dir's host files read ahead: a reading thread splits a block of URL
// lines as the classifier will (the core's splitLines, the same origins), and
// reads the file of each origin it has not read before (RobotsDir.read); the
// classifying thread then finds them in memory (HostMatchers.readAhead) instead
// of asking the file system while it waits. Reading a host's file (four system
// calls, robots-dir.ts) costs about what compiling it does, so one
// classifying thread otherwise spends a good part of its time in the kernel.
//
// In: a block (the reader); the files found, packed in four buffers that move
// between threads (AheadFiles), and each one's DirRobots (the classifier).
// Invariants: a file is what RobotsDir.read gives for that origin at reading
// time; an origin the reader skipped (read before, say, then evicted from the
// classifier's cache) is read by the classifier itself, so nothing depends on
// the reader being complete.
import { core, type Core } from '../../engine/wasm/core.js';
import { LINE_RECORD, RUN_RECORD } from '../../engine/wasm/layout.js';
import { CoreInput } from './core-input.js';
import { HostSet } from './host-set.js';
import { MAX_RECORDS } from './line-classifier.js';
import { originKey, RunOrigins } from './origin-runs.js';
import { RUN_FIRST, RUN_H1, RUN_U32 } from './record-fields.js';
import { RobotsDir, type DirRobots } from '../sources/robots-dir.js';
import { SplitRecorder, type LineSplits } from './line-splits.js';
import { shardOf, type Shard } from '../hosts/shard.js';

/** What a file looked up was (AheadFiles.kinds). */
const NONE = 0;
const FILE = 1;
const UNREADABLE = 2;

/** Origins remembered as read; past this the reader forgets them all (and may read some again). */
const MAX_REMEMBERED = 1 << 20;

/** The files of a block's new origins, in the order their runs come. */
export interface AheadFiles {
  /** Per origin: its key (originKey), what was found, and where its octets end in `bodies` (they start where the one before's end). */
  keys: Float64Array;
  kinds: Uint8Array;
  ends: Uint32Array;
  bodies: Uint8Array;
  /** For each unreadable one, in order: its file and why, one after the other. */
  unreadable: string[];
  /** The block as the reader split it (line-splits.ts): the classifier need not split it again. */
  splits?: LineSplits;
}

/** The buffers of AheadFiles, to transfer. */
export function aheadBuffers(files: AheadFiles): ArrayBuffer[] {
  const buffers = [files.keys.buffer, files.kinds.buffer, files.ends.buffer, files.bodies.buffer] as ArrayBuffer[];
  if (files.splits !== undefined) buffers.push(files.splits.calls.buffer as ArrayBuffer, files.splits.records.buffer as ArrayBuffer);
  return buffers;
}

/** The reading side: its own core splits each block; the files of the origins it has not read before are read and packed. */
export class HostFilesAhead {
  private readonly core: Core;
  private readonly input: CoreInput;
  private readonly recs: number;
  private readonly runs: number;
  private readonly origins: RunOrigins;
  private readonly dir: RobotsDir;
  private seen = new HostSet();
  /** Files read (each an origin's lookup that found a file), for the counts. */
  reads = 0;
  /** The octets of the last block's files, of which the next block's buffer starts large enough (startOctets). */
  private lastBodies = 0;

  constructor(dir: string, maxOctets: number, private readonly shard?: Shard) {
    this.core = core();
    this.input = new CoreInput(this.core);
    this.recs = this.core.alloc(MAX_RECORDS * LINE_RECORD);
    this.runs = this.core.alloc(MAX_RECORDS * RUN_RECORD);
    this.origins = new RunOrigins(this.core, this.recs);
    this.dir = new RobotsDir(dir, maxOctets);
  }

  /** The files of the block's origins not read before (whole lines, as the classifier gets them); their octets in a
   * buffer from `take` (a pool's, say). */
  read(block: Uint8Array, take: (n: number) => Uint8Array = (n) => new Uint8Array(n)): AheadFiles {
    const c = this.core;
    const x = c.exports;
    const length = this.input.stage(block);
    const keys: number[] = [];
    const kinds: number[] = [];
    const ends: number[] = [];
    const unreadable: string[] = [];
    let bodies = whole(take(startOctets(this.lastBodies)));
    let used = 0;
    const splits = new SplitRecorder(take);
    for (let pos = 0; pos < length; ) {
      const buf = this.input.ptr + pos;
      const count = x.splitLines(buf, length - pos, this.recs, this.runs, MAX_RECORDS);
      const nruns = x.lastRunCount();
      splits.add(c, x.lastSplitEnd(), count, this.recs, this.runs, nruns); // (as split: the classifier canonicalises them itself)
      this.origins.split(buf, this.runs, nruns);
      pos += x.lastSplitEnd();
      for (let r = 0; r < nruns; r++) {
        const q = (this.runs >>> 2) + r * RUN_U32;
        const u32 = c.u32;
        if (this.shard !== undefined && shardOf(u32[q + RUN_H1], this.shard.count) !== this.shard.index) continue; // (another machine's)
        const key = originKey(u32, q);
        // (A key whose upper part is 0 cannot be remembered: HostSet's empty slot. Read each time.)
        if (key >= 0x200000 && !this.remember(key)) continue;
        this.origins.at(r, buf, u32[q + RUN_FIRST]);
        const origin = this.origins.current();
        if (!RobotsDir.canName(origin.host)) continue; // (the classifier looks nothing up either)
        const found = this.dir.read(origin);
        keys.push(key);
        if (found.kind === 'file') {
          this.reads++;
          const body = found.body;
          if (used + body.length > bodies.length) {
            const grown = whole(take(Math.max(bodies.length * 2, used + body.length)));
            grown.set(bodies.subarray(0, used));
            bodies = grown;
          }
          bodies.set(body, used);
          used += body.length;
          kinds.push(FILE);
        } else if (found.kind === 'unreadable') {
          unreadable.push(found.file, found.why);
          kinds.push(UNREADABLE);
        } else {
          kinds.push(NONE);
        }
        ends.push(used);
      }
    }
    this.lastBodies = used;
    return { keys: Float64Array.from(keys), kinds: Uint8Array.from(kinds), ends: Uint32Array.from(ends), bodies, unreadable, splits: splits.done() };
  }

  /** True when the origin was not read before. */
  private remember(key: number): boolean {
    if (this.seen.size >= MAX_REMEMBERED) this.seen = new HostSet();
    return this.seen.addKey(key);
  }
}

/** The size a block's buffer of files starts at, after a block whose files took `last` octets: a quarter more,
 * rounded up to a power of two. (Grown from 64 KiB a block, each block made a larger buffer afresh, page by page, and
 * dropped the one before; sized to the octet, the spares that came back were each a little short of the next block.) */
function startOctets(last: number): number {
  const want = Math.max(1 << 16, last + (last >>> 2));
  return 2 ** Math.ceil(Math.log2(want));
}

/** All of a view's buffer (a pool gives views of the octets asked for, over buffers that may be larger). */
function whole(view: Uint8Array): Uint8Array {
  return new Uint8Array(view.buffer, 0, view.buffer.byteLength);
}

/** The classifying side: a block's files read ahead, by origin key. The classifier asks for them in the order the
 * reader read them (the block's runs, in order), skipping some (hosts it holds): the next one is tried first, and
 * only when it is not the one asked for are the keys indexed (once a block). */
export class FilesReadAhead {
  /** The entry tried first: the one after the last taken. */
  private next = 0;
  /** Each key's entry, once needed. */
  private at: Map<number, number> | null = null;
  /** For each unreadable entry, its file and why, once needed. */
  private whys: Map<number, [string, string]> | null = null;

  constructor(private readonly files: AheadFiles) {}

  /** The octets of the files (their buffer is for reuse once the block is classified). */
  get bodies(): Uint8Array {
    return this.files.bodies;
  }

  /** The block as the reader split it, if it did (its records' buffer is for reuse once the block is classified). */
  get splits(): LineSplits | undefined {
    return this.files.splits;
  }

  /** What the directory held for the origin of that key when it was read ahead; undefined when it was not. */
  take(key: number): DirRobots | undefined {
    const f = this.files;
    let i = this.next;
    if (i >= f.keys.length || f.keys[i] !== key) {
      const found = this.index().get(key);
      if (found === undefined) return undefined;
      i = found;
    }
    this.next = i + 1;
    switch (f.kinds[i]) {
      case FILE:
        return { kind: 'file', body: f.bodies.subarray(i === 0 ? 0 : f.ends[i - 1], f.ends[i]) };
      case UNREADABLE: {
        const [file, why] = this.unreadable().get(i)!;
        return { kind: 'unreadable', file, why };
      }
      default:
        return { kind: 'none' };
    }
  }

  private index(): Map<number, number> {
    if (this.at === null) {
      this.at = new Map();
      for (let i = 0; i < this.files.keys.length; i++) this.at.set(this.files.keys[i], i);
    }
    return this.at;
  }

  private unreadable(): Map<number, [string, string]> {
    if (this.whys === null) {
      const f = this.files;
      this.whys = new Map();
      for (let i = 0, u = 0; i < f.keys.length; i++) if (f.kinds[i] === UNREADABLE) this.whys.set(i, [f.unreadable[u++], f.unreadable[u++]]);
    }
    return this.whys;
  }
}

// `robots index`: the robots.txt captures of WARC files (every one, each date:
// --as-of picks among them later) written into N host shards
// (robots-index-format.ts), the map step of a crawl's classification. Each
// shard file is written under a temporary name and renamed into place, then
// the manifest last: a run cut short leaves no index.json (readers refuse
// the directory), and a reader tells a shard file of another run by its id.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { BulkError, reason } from '../base/errors.js';
import { WarcFiles } from '../sources/warc/warc-list.js';
import type { WarcCapture, WarcIndexStats } from '../sources/warc/warc-index.js';
import { ShardDirectory } from './shard-directory.js';
import { indexWarcsInThreads, type HeldCapture, type RecordSink, type ThreadedIndexOptions } from './warc-index-threads.js';
import {
  crc32, decodeRecord, encodeFooter, encodeHeader, encodeRecord, FORMAT_VERSION, HEADER_OCTETS, keyHash, MANIFEST,
  shardFileName, type IndexManifest,
} from './robots-index-format.js';

/** Most shards an index may have (a file each). */
export const MAX_SHARDS = 65536;

/** What `robots index` reads the WARCs with: the threads' options, but for the sink (the shard files written here). */
export type WriteIndexOptions = Omit<ThreadedIndexOptions, 'sink'>;

export interface WrittenIndex {
  manifest: IndexManifest;
  stats: WarcIndexStats;
  /** Octets of the shard files. */
  octets: number;
}

/** Checks before any WARC is read (a long run must not end on a directory it cannot write). */
export function prepareIndexDir(out: string, shards: number): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (e) {
    throw new BulkError(`cannot create the index directory ${out}: ${reason(e)}`);
  }
  if (!statSync(out).isDirectory()) throw new BulkError(`--out ${out} is not a directory`);
  const manifest = join(out, MANIFEST);
  if (existsSync(manifest)) {
    let old: Partial<IndexManifest>;
    try {
      old = JSON.parse(readFileSync(manifest, 'utf8'));
    } catch (e) {
      throw new BulkError(`${manifest} is not a robots index manifest (${reason(e)}): give another --out`);
    }
    if (old?.format !== 'robots-index') throw new BulkError(`${manifest} is not a robots index manifest: give another --out`);
    if (old.shards !== shards) {
      throw new BulkError(`${out} already holds an index of ${old.shards} shards: give --shards ${old.shards} to replace it, or another --out`);
    }
  }
  // Writable? (A probe now, not a failure after hours of reading.)
  const probe = join(out, `.probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'w'));
    rmSync(probe);
  } catch (e) {
    throw new BulkError(`cannot write in the index directory ${out}: ${reason(e)}`);
  }
}

/** Reads the WARCs, writes DIR's shard files and manifest (replacing an index of as many shards there). */
export async function writeRobotsIndex(files: readonly string[] | WarcFiles, out: string, options: WriteIndexOptions): Promise<WrittenIndex> {
  const { shards } = options;
  prepareIndexDir(out, shards);
  const id = randomBytes(8).readBigUInt64LE(0);
  const names = Array.from({ length: shards }, (_, s) => shardFileName(s, shards));
  const temps = names.map((name) => join(out, `.${name}.${process.pid}.tmp`));
  try {
    // Each capture goes into its shard as it is read (a spill of every body, copied into the shards after
    // the whole read, cost a third of the command's time): the directories and footers come last.
    const writer = new ShardWriter(temps, id);
    let stats;
    try {
      stats = await indexWarcsInThreads(files, { ...options, sink: writer });
      await writer.finish();
    } finally {
      await writer.close();
    }
    const written: IndexManifest['files'] = names.map((name, s) => ({ name, octets: writer.octets(s), captures: writer.captures(s) }));
    const manifest: IndexManifest = {
      format: 'robots-index',
      version: FORMAT_VERSION,
      id: id.toString(16).padStart(16, '0'),
      shards,
      maxOctets: Number.isFinite(options.maxOctets) ? options.maxOctets : null,
      created: new Date().toISOString(),
      // (A list's downloads are gone once read: named by their URLs, as they were read.)
      sources: files instanceof WarcFiles ? files.sources.map((f) => ({ path: /^https?:/.test(f.name) ? f.name : resolve(f.name), octets: f.octets })) : files.map((f) => ({ path: resolve(f), octets: statSync(f).size })),
      captures: written.reduce((a, f) => a + f.captures, 0),
      files: written,
    };
    // The old manifest first: between the renames the directory is no index at all, never a mix.
    rmSync(join(out, MANIFEST), { force: true });
    for (let s = 0; s < shards; s++) renameSync(temps[s], join(out, written[s].name));
    const temp = join(out, `.${MANIFEST}.${process.pid}.tmp`);
    temps.push(temp);
    writeWhole(temp, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
    renameSync(temp, join(out, MANIFEST));
    return { manifest, stats, octets: written.reduce((a, f) => a + f.octets, 0) };
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    if (e instanceof BulkError) throw e;
    throw new BulkError(`cannot write the index in ${out}: ${reason(e)}`);
  }
}

function writeWhole(file: string, octets: Buffer): void {
  const fd = openSync(file, 'w');
  try {
    let at = 0;
    while (at < octets.length) at += writeSync(fd, octets, at, octets.length - at);
  } finally {
    closeSync(fd);
  }
}

/**
 * The shard files written as the captures come: each shard's records (header first, in the order read)
 * gathered and appended to its file 256 KiB at a time, or all shards' when together they hold the budget
 * (so memory stays bounded whatever the shard count). A file is opened for each append, not held open:
 * 65536 shards would pass the limit on open files. finish() adds each directory and footer. Many shards
 * mean small appends: at 4096 shards the command is slower, most of it in the kernel, than writing each
 * shard whole after the read was. The appends run on libuv's threadpool, a shard's in order, not on this
 * thread (the kernel's copy of the octets into the page cache was ~13% of the main thread's samples):
 * room() waits while more than IN_FLIGHT octets are being written.
 * A record is a view of its stretch's records buffer, which goes back to its reading thread once all its
 * records are written: what waits here holds whole buffers, so the smaller these bounds, the fewer buffers
 * in use and the fewer fresh pages the next stretches fault in (1 MiB a shard, 32 MiB and 8 MiB in flight
 * held ~19 buffers of ~4 MiB, 181 MiB at peak, where these hold 132, and 105 with stretches of 256 KiB:
 * docs/benchmarks.md, "Fewer pages").
 */
export class ShardWriter implements RecordSink {
  private static readonly SHARD_FLUSH = 256 << 10;
  private static readonly IN_FLIGHT = 4 << 20;
  /** Octets pending in all shards before all are appended: 32 KiB a shard, at least 8 MiB (two stretches' records), at
   * most 32 MiB (from 1024 shards on, as before: more shards, smaller appends). */
  private readonly budget: number;
  private readonly pending: Uint8Array[][];
  /** Each shard's appends, chained: settles once its last append is written. */
  private readonly appends: Promise<void>[];
  /** Octets handed to the appends and not written yet. */
  private inFlight = 0;
  private failure: { error: unknown } | undefined;
  /** Woken when an append is written (room()'s wait). */
  private wake: (() => void) | null = null;
  /** Told of each record given to addRecord once its octets are written (or replaced). */
  onReleased?: (record: Uint8Array) => void;
  private readonly pendingOctets: number[];
  private pendingTotal = 0;
  /** Each shard's octets, written or pending. */
  private readonly at: number[];
  /** Each shard's directory entries: the key's hash, the record's offset. */
  private readonly entries: ShardDirectory[];

  constructor(private readonly files: readonly string[], id: bigint) {
    const n = files.length;
    this.budget = Math.min(32 << 20, Math.max(8 << 20, n * (32 << 10)));
    this.pending = Array.from({ length: n }, (_, s) => [encodeHeader(s, n, id)]);
    this.pendingOctets = new Array<number>(n).fill(HEADER_OCTETS);
    this.pendingTotal = n * HEADER_OCTETS;
    this.at = new Array<number>(n).fill(HEADER_OCTETS);
    this.entries = Array.from({ length: n }, () => new ShardDirectory());
    this.appends = new Array<Promise<void>>(n).fill(Promise.resolve());
    // Every file made now (empty): appends then never race a leftover of another run.
    for (const f of files) closeSync(openSync(f, 'w'));
  }

  /** The capture's record made now (its body copied in: the reader's is a view); what writes it (addRecord). */
  add(shard: number, key: string, capture: WarcCapture, body: Uint8Array): () => void {
    const record = encodeRecord({ key, date: capture.date, status: capture.status, location: capture.location, damaged: capture.damaged, body });
    return this.addRecord(shard, keyHash(key), record, capture);
  }

  /** What writes a capture's record (made with `capture.damaged` as it is now), once the reader trusts it (a damage
   * just after it may have marked it meanwhile: then made again, marked). */
  addRecord(shard: number, hash: number, record: Uint8Array, capture: HeldCapture): () => void {
    const damaged = capture.damaged;
    return () => {
      let r = record;
      if (capture.damaged !== damaged) {
        r = encodeRecord({ ...decodeRecord(Buffer.from(record.buffer, record.byteOffset + 4, record.length - 8)), damaged: capture.damaged });
        this.onReleased?.(record);
      }
      this.entries[shard].add(hash, this.at[shard]);
      this.put(shard, r);
      if (this.pendingOctets[shard] >= ShardWriter.SHARD_FLUSH) this.flush(shard);
      else if (this.pendingTotal >= this.budget) this.flushAll();
    };
  }

  /** Undefined while no more than IN_FLIGHT octets are being written, else what settles once so; throws, or rejects,
   * with an append's failure. */
  room(): Promise<void> | undefined {
    if (this.failure !== undefined) throw this.failure.error;
    if (this.inFlight <= ShardWriter.IN_FLIGHT) return undefined;
    return (async () => {
      while (this.inFlight > ShardWriter.IN_FLIGHT && this.failure === undefined) await new Promise<void>((r) => (this.wake = r));
      if (this.failure !== undefined) throw this.failure.error;
    })();
  }

  /** Each shard's directory (sorted by hash, then offset: a key's captures stay in the order read) and footer, and
   * every append written. */
  async finish(): Promise<void> {
    for (let s = 0; s < this.files.length; s++) {
      const directory = this.entries[s].encode();
      const directoryAt = this.at[s];
      this.put(s, directory);
      this.put(s, encodeFooter(directoryAt, this.entries[s].length, crc32(directory)));
      this.flush(s);
    }
    await Promise.all(this.appends);
    if (this.failure !== undefined) throw this.failure.error;
  }

  octets(shard: number): number {
    return this.at[shard];
  }

  captures(shard: number): number {
    return this.entries[shard].length;
  }

  /** Drops what is pending, once the appends begun are done (the files are removed by the caller on failure). */
  async close(): Promise<void> {
    this.pending.fill([]);
    await Promise.all(this.appends);
  }

  private put(shard: number, octets: Uint8Array): void {
    this.pending[shard].push(octets);
    this.pendingOctets[shard] += octets.length;
    this.pendingTotal += octets.length;
    this.at[shard] += octets.length;
  }

  private flushAll(): void {
    for (let s = 0; s < this.files.length; s++) if (this.pendingOctets[s] > 0) this.flush(s);
  }

  private flush(shard: number): void {
    const pieces = this.pending[shard];
    if (pieces.length === 0) return;
    const octets = this.pendingOctets[shard];
    this.pendingTotal -= octets;
    this.pendingOctets[shard] = 0;
    this.pending[shard] = [];
    this.inFlight += octets;
    const file = this.files[shard];
    this.appends[shard] = this.appends[shard].then(async () => {
      try {
        if (this.failure === undefined) await append(file, pieces, octets);
      } catch (e) {
        this.failure ??= { error: e };
      }
      this.inFlight -= octets;
      this.wake?.();
      this.wake = null;
      // (A piece cut after a short write is still a view of its record's buffer, which is what the hook tells by.)
      if (this.onReleased !== undefined) for (const piece of pieces) this.onReleased(piece);
    });
  }
}

/** `pieces` (`octets` in all) appended to `file` in one write (writev: no copy into a buffer first), on libuv's threadpool. */
async function append(file: string, pieces: Uint8Array[], octets: number): Promise<void> {
  const handle = await open(file, 'a');
  try {
    let left = octets;
    let from = 0;
    while (left > 0) {
      let n = (await handle.writev(from === 0 ? pieces : pieces.slice(from))).bytesWritten;
      left -= n;
      // A short write: skip the pieces written, cut the one half written.
      while (from < pieces.length && n >= pieces[from].length) n -= pieces[from++].length;
      if (n > 0) pieces[from] = pieces[from].subarray(n);
    }
  } finally {
    await handle.close();
  }
}

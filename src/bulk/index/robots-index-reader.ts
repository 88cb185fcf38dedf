// `classify --robots-index DIR` (repeatable): the reduce step. Shard i of each
// index is read whole and checked (its records' CRCs, its header's id against
// the manifest's, its footer); each URL gets the capture that speaks for it
// (by WARC-Date, at or before --as-of, under the cache's policy:
// ../sources/warc/capture-choice.ts; of equal dates the one read last, as --robots-warc does
// with WARCs in the order given). A redirect to a host of another shard
// is followed there: its target looked up in that shard's directory (a few
// octets per capture, sorted by hash), never its records read whole. The
// captures chosen become the WarcIndexData that --robots-warc hands the
// threads (../sources/warc/warc-robots.ts), their bodies read where they lie when
// all lie in one shard file, else copied to a spill file of this run.
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Shard } from '../hosts/shard.js';
import { BulkError, reason } from '../base/errors.js';
import { captureKey, type WarcCapture, type WarcIndex, type WarcIndexData, type WarcIndexStats } from '../sources/warc/warc-index.js';
import { tempDir } from '../sources/temp-dir.js';
import { CaptureChoice } from '../sources/warc/capture-choice.js';
import {
  captureShard, crc32, decodeFooter, decodeHeader, decodeRecordHead, DIRECTORY_ENTRY, FOOTER_OCTETS, FORMAT_VERSION, HEADER_OCTETS, keyHash, MANIFEST, RECORD_FIXED,
  type IndexManifest, type RecordHead, type ShardFooter,
} from './robots-index-format.js';

/** Hops a redirect chain may take (responseStep follows 5; one more tells a sixth). */
const MAX_HOPS = 6;

/** A shard file's records of at most `limit` octets are read in one read and held: the chosen bodies are views of
 * them (WarcIndexData.held), the file not read a second time. Larger, they are read a window at a time, and the
 * bodies again from the file. (An object: a test lowers it to read a small shard by windows.) */
export const heldShardOctets = { limit: 128 << 20 };

/** The octets a disposed index held, for the next index read (a run reading crawl after crawl, a bench round after
 * round): a buffer of that size made anew each time cost more than its read (fresh pages, and the collector's work
 * that external memory sets off). Given back by dispose, so never in use when lent again. Held weakly: a WeakRef
 * keeps it until the job that gave it back ends (the reads of one loop share it), then it may be collected (a
 * process that read an index once does not keep its size for good). */
let spare: WeakRef<Buffer> | undefined;

/** Called after each shard file's records are read (a test measures the reader's memory there). */
export const shardReadProbe: { afterRead?: () => void } = {};

export interface ReadIndexOptions {
  /** --shard i/N: shard i of each index (N theirs); none: every shard. */
  shard?: Shard;
  /** --as-of, ms. */
  asOf?: number;
  /** --max-octets of the classification: no more than the bodies were cut to (checked). */
  maxOctets: number;
}

interface Chosen {
  date: number;
  status: number;
  location: string | null;
  damaged?: string;
  unavailable?: string;
  /** Where its body is: a shard file (by number in `files`), offset, length. */
  file: number;
  bodyAt: number;
  bodyLength: number;
}

/** An index directory, its manifest checked. */
interface OpenedIndex {
  dir: string;
  manifest: IndexManifest;
}

/** The manifests of the indexes, checked and agreeing on the shard count (and with --shard's), their bodies
 * cut no shorter than maxOctets. */
export function openIndexes(dirs: string[], maxOctets: number, shard?: Shard): OpenedIndex[] {
  const opened = dirs.map((dir) => ({ dir, manifest: readManifest(dir) }));
  const n = opened[0].manifest.shards;
  for (const o of opened) {
    if (o.manifest.shards !== n) {
      throw new BulkError(`the indexes do not agree on their shards: ${opened[0].dir} has ${n}, ${o.dir} has ${o.manifest.shards} (index the WARCs again with one --shards)`);
    }
  }
  if (shard !== undefined && shard.count !== n) {
    throw new BulkError(`--shard ${shard.index}/${shard.count} does not match the index${dirs.length > 1 ? 'es' : ''}: ${opened[0].dir} has ${n} shard${n === 1 ? '' : 's'} (give --shard i/${n})`);
  }
  // An index's bodies hold its --max-octets' first octets: past them, the rest of a longer file is not there
  // (a line cut in its middle would rule as its cut part). Cut further, they are what a fetch reads.
  const shortest = opened.reduce((a, o) => (bodyLimit(o) < bodyLimit(a) ? o : a));
  if (maxOctets > bodyLimit(shortest)) {
    const asked = Number.isFinite(maxOctets) ? String(maxOctets) : 'Infinity';
    throw new BulkError(`--max-octets ${asked}: --robots-index ${shortest.dir} was made with --max-octets ${bodyLimit(shortest)}, so its bodies are cut there: ` +
      `classify with --max-octets ${bodyLimit(shortest)} or less, or index its WARCs again with robots index --max-octets ${asked}`);
  }
  return opened;
}

function readManifest(dir: string): IndexManifest {
  const file = join(dir, MANIFEST);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new BulkError(`--robots-index ${dir}: cannot read ${file} (${reason(e)}): not a robots index, or its robots index run did not finish`);
  }
  let m: IndexManifest;
  try {
    m = JSON.parse(text);
  } catch {
    throw new BulkError(`--robots-index ${dir}: ${file} is not JSON (damaged, or not a robots index manifest)`);
  }
  if (m === null || typeof m !== 'object' || m.format !== 'robots-index') throw new BulkError(`--robots-index ${dir}: ${file} is not a robots index manifest`);
  if (m.version !== FORMAT_VERSION) throw new BulkError(`--robots-index ${dir}: written in format version ${m.version}; this robots reads version ${FORMAT_VERSION}: index the WARCs again with this robots`);
  if (!Number.isInteger(m.shards) || m.shards < 1 || !Array.isArray(m.files) || m.files.length !== m.shards || typeof m.id !== 'string' || !/^[0-9a-f]{16}$/.test(m.id)) {
    throw new BulkError(`--robots-index ${dir}: ${file} is damaged (its shards, files or id do not read)`);
  }
  if (!(m.maxOctets === null || (typeof m.maxOctets === 'number' && m.maxOctets >= 1))) throw new BulkError(`--robots-index ${dir}: ${file} is damaged (its maxOctets does not read)`);
  return m;
}

/** The octets an index's bodies were cut to (Infinity: not cut). */
function bodyLimit(o: OpenedIndex): number {
  return o.manifest.maxOctets ?? Infinity;
}

/** Reads the shard(s), picks each URL's capture (their bodies in one shard file, or copied to a spill file): what --robots-warc would have indexed. */
export function readRobotsIndexes(dirs: string[], options: ReadIndexOptions): WarcIndex {
  const began = performance.now();
  const indexes = openIndexes(dirs, options.maxOctets, options.shard);
  const n = indexes[0].manifest.shards;
  const loaded = new Set(options.shard === undefined ? Array.from({ length: n }, (_, s) => s) : [options.shard.index]);
  const reader = new ShardReader(options.asOf);
  try {
    for (const index of indexes) for (const s of loaded) reader.readWhole(index, s);
    // Redirect chains out of the loaded shards: their targets looked up, hop by hop.
    const looked = new Set<string>();
    let fresh = [...reader.choice.keys()];
    for (let hop = 0; hop < MAX_HOPS && fresh.length > 0; hop++) {
      const wanted = new Map<number, Set<string>>();
      for (const key of fresh) {
        const target = redirectTarget(key, reader.choice.chosen(key)!);
        if (target === undefined || looked.has(target) || reader.choice.has(target)) continue;
        const s = captureShard(target, n);
        if (loaded.has(s)) continue; // (read whole already: not captured)
        looked.add(target);
        if (!wanted.has(s)) wanted.set(s, new Set());
        wanted.get(s)!.add(target);
      }
      fresh = [];
      for (const [s, keys] of wanted) {
        for (const index of indexes) reader.lookUp(index, s, keys);
        for (const k of keys) if (reader.choice.has(k)) fresh.push(k);
      }
    }
    return reader.finish(began);
  } finally {
    reader.close();
  }
}

/** Where a redirect capture leads (as responseStep resolves its Location), if it may be one. */
function redirectTarget(key: string, c: Chosen): string | undefined {
  if (c.status < 300 || c.status > 399 || c.location === null || c.damaged !== undefined) return undefined;
  try {
    return captureKey(new URL(c.location, key).href);
  } catch {
    return undefined;
  }
}

class ShardReader {
  /** Each URL's captures that may still speak for it (../sources/warc/capture-choice.ts). */
  readonly choice = new CaptureChoice<Chosen>();
  /** The shard files met, by number (Chosen.file): each open only while read (a reduce over
   * thousands of indexes must not hold a descriptor per file), fd -1 when closed. */
  private readonly files: { name: string; fd: number; size: number }[] = [];
  /** The same by name, checked: one shard may be looked up at several hops. */
  private readonly opened = new Map<string, { name: string; footer: ShardFooter; file: number }>();
  /** The records of the last shard file read whole in one read (heldShardOctets): HEADER_OCTETS on, in a buffer
   * of their own (never a slice of Node's pool: it is lent again once disposed). One file's at most: the bodies are
   * read where they lie only when they all lie in one file, and an index read shard after shard held them all
   * (the corpus ×8's index, 16 shards, 126 MB: the audit's peak 159 → 246 MB); the next file's read takes it. */
  private held: { file: number; octets: Buffer; buffer: Buffer } | undefined;
  private records = 0;

  constructor(private readonly asOf: number | undefined) {}

  /** Every record of shard s of the index, checked, offered in order. */
  readWhole(index: OpenedIndex, s: number): void {
    const { name, fd, footer, file } = this.open(index, s);
    try {
      this.readRecords(name, fd, footer, file);
    } finally {
      this.release(file);
    }
  }

  private readRecords(name: string, fd: number, footer: ShardFooter, file: number): void {
    const records = footer.directoryAt - HEADER_OCTETS;
    const whole = records <= heldShardOctets.limit;
    const lent = this.lend(whole ? records : undefined);
    const buffer = lent ?? (whole ? Buffer.allocUnsafeSlow(records) : Buffer.allocUnsafe(WINDOW_OCTETS));
    const input = new SequentialRead(fd, HEADER_OCTETS, footer.directoryAt, name, buffer);
    let count = 0;
    while (!input.done) {
      const at = input.offset;
      const length = input.u32();
      this.checkLength(name, length, at, footer.directoryAt);
      const record = this.readRecord(name, at, input.take(length), input.u32());
      this.offer(record, file);
      count++;
    }
    if (count !== footer.records) throw new BulkError(`${name}: damaged (${count} records, its footer says ${footer.records})`);
    // (Every record's CRC checked above, bodies included: the held octets are those checked.)
    const octets = whole ? input.whole() : undefined;
    if (octets !== undefined) this.held = { file, octets, buffer };
    else if (lent !== undefined) giveBack(lent);
    shardReadProbe.afterRead?.();
  }

  /** A buffer of at least `octets` for a whole read (undefined: a read by windows, which takes none), if one is at
   * hand: the last file's, taken back (no view of it is out yet: the bodies are read once every shard is), else
   * the spare a disposed index left. The last file's is dropped where it is too small, not given back as the
   * spare: a WeakRef made now keeps its buffer to the end of the job, so a read of files each larger than the
   * last kept every file's records to its end (test/bulk/robots-index-held.test.ts). */
  private lend(octets: number | undefined): Buffer | undefined {
    const last = this.held?.buffer;
    this.held = undefined;
    if (octets === undefined) return undefined;
    if (last !== undefined && last.length >= octets) return last;
    const kept = spare?.deref();
    if (kept === undefined || kept.length < octets) return undefined;
    spare = undefined;
    return kept;
  }

  /** The records of shard s of the index whose keys are `keys`, found by its directory. */
  lookUp(index: OpenedIndex, s: number, keys: Set<string>): void {
    const { name, fd, footer, file } = this.open(index, s);
    try {
      this.findRecords(name, fd, footer, file, keys);
    } finally {
      this.release(file);
    }
  }

  private findRecords(name: string, fd: number, footer: ShardFooter, file: number, keys: Set<string>): void {
    const directory = Buffer.allocUnsafe(footer.records * DIRECTORY_ENTRY);
    readExactly(fd, directory, footer.directoryAt, name);
    if (crc32(directory) !== footer.directoryCrc) throw new BulkError(`${name}: damaged directory (checksum mismatch)`);
    const offsets: number[] = [];
    for (const key of keys) {
      const hash = keyHash(key);
      // The first entry of the hash (binary search), then every entry of it.
      let lo = 0;
      let hi = footer.records;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (directory.readUInt32LE(mid * DIRECTORY_ENTRY) < hash) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < footer.records && directory.readUInt32LE(k * DIRECTORY_ENTRY) === hash; k++) {
        offsets.push(Number(directory.readBigUInt64LE(k * DIRECTORY_ENTRY + 4)));
      }
    }
    // In file order: of equal dates the later record wins, as when read whole.
    offsets.sort((a, b) => a - b);
    for (const at of offsets) {
      if (at < HEADER_OCTETS || at + 8 > footer.directoryAt) throw new BulkError(`${name}: damaged directory (an offset outside the records)`);
      let pos = at;
      const take = (n: number) => {
        const b = Buffer.allocUnsafe(n);
        if (pos + n > footer.directoryAt) throw new BulkError(`${name}: damaged record at offset ${at} (longer than the file's records)`);
        readExactly(fd, b, pos, name);
        pos += n;
        return b;
      };
      const length = take(4).readUInt32LE(0);
      this.checkLength(name, length, at, footer.directoryAt);
      const record = this.readRecord(name, at, take(length), take(4).readUInt32LE(0));
      if (keys.has(record.key)) this.offer(record, file); // (another key of the same hash: not this one)
    }
  }

  /** The capture offered to its URL's choice if dated at or before --as-of (of equal dates, the later read is the later). */
  private offer(r: RecordHead & { bodyAt: number }, file: number): void {
    if (this.asOf !== undefined && !(r.date <= this.asOf)) return;
    if (!this.choice.wants(r.key, r.date)) return;
    this.choice.offer(r.key, { date: r.date, status: r.status, location: r.location, damaged: r.damaged, file, bodyAt: r.bodyAt, bodyLength: r.bodyLength });
  }

  /** A record's length (the octets after it, its CRC aside) checked against the records' end. */
  private checkLength(name: string, length: number, at: number, end: number): void {
    if (length < RECORD_FIXED) throw new BulkError(`${name}: damaged record at offset ${at} (a length of ${length} octets)`);
    if (at + 4 + length + 4 > end) throw new BulkError(`${name}: damaged record at offset ${at} (it runs past the records)`);
  }

  /** A record's octets after its length, its CRC checked: the capture but its body, with where its body starts in the file. */
  private readRecord(name: string, at: number, octets: Buffer, crc: number): RecordHead & { bodyAt: number } {
    if (crc32(octets) !== crc) throw new BulkError(`${name}: damaged record at offset ${at} (checksum mismatch)`);
    let record: RecordHead;
    try {
      record = decodeRecordHead(octets);
    } catch (e) {
      throw new BulkError(`${name}: damaged record at offset ${at} (${(e as Error).message})`);
    }
    this.records++;
    // (The record given its body's offset, not copied into a new object: a spread was a cost of every record read.)
    const placed = record as RecordHead & { bodyAt: number };
    placed.bodyAt = at + 4 + octets.length - record.bodyLength;
    return placed;
  }

  /** Shard s of the index opened and its header and footer checked against the manifest. */
  private open(index: OpenedIndex, s: number): { name: string; fd: number; footer: ShardFooter; file: number } {
    const entry = index.manifest.files[s];
    const name = join(index.dir, String(entry?.name));
    const known = this.opened.get(name);
    if (known !== undefined) return { ...known, fd: this.reopen(known.file) };
    let fd: number;
    try {
      fd = openSync(name, 'r');
    } catch (e) {
      throw new BulkError(`cannot read index file ${name}: ${reason(e)}`);
    }
    const size = fstatSync(fd).size;
    this.files.push({ name, fd, size });
    if (size !== entry.octets) throw new BulkError(`${name}: ${size} octets, its manifest says ${entry.octets} (cut short, or replaced)`);
    if (size < HEADER_OCTETS + FOOTER_OCTETS) throw new BulkError(`${name}: too short to be a shard of a robots index`);
    const head = Buffer.allocUnsafe(HEADER_OCTETS);
    readExactly(fd, head, 0, name);
    const foot = Buffer.allocUnsafe(FOOTER_OCTETS);
    readExactly(fd, foot, size - FOOTER_OCTETS, name);
    try {
      const header = decodeHeader(head);
      if (header.id.toString(16).padStart(16, '0') !== index.manifest.id) throw new BulkError(`written by another run of robots index than ${join(index.dir, MANIFEST)}`);
      if (header.shard !== s || header.shards !== index.manifest.shards) throw new BulkError(`holds shard ${header.shard}/${header.shards}, not ${s}/${index.manifest.shards}`);
      const opened = { name, footer: decodeFooter(foot, size), file: this.files.length - 1 };
      this.opened.set(name, opened);
      return { ...opened, fd };
    } catch (e) {
      throw new BulkError(`${name}: ${(e as Error).message}`);
    }
  }

  /** The chosen captures, their bodies read where they lie when all lie in one shard file, else copied to a spill
   * file of this run (removed by dispose, and on a signal). */
  finish(began: number): WarcIndex {
    const chosen = [...this.choice.settle()];
    const stats: WarcIndexStats = { files: this.files.length, octets: 0, records: this.records, responses: this.records, damaged: 0, truncated: 0, ms: 0 };
    for (const f of this.files) stats.octets += f.size;
    const inOneFile = this.bodiesInOneFile(chosen);
    const { data, dispose } = inOneFile !== undefined ? this.inPlace(chosen, inOneFile) : this.spilled(chosen);
    stats.ms = performance.now() - began;
    return { data, stats, dispose };
  }

  /** The one shard file every chosen body (of any length) lies in, if there is one. */
  private bodiesInOneFile(chosen: [string, Chosen][]): number | undefined {
    let file: number | undefined;
    for (const [, c] of chosen) {
      if (c.bodyLength === 0) continue;
      if (file === undefined) file = c.file;
      else if (c.file !== file) return undefined;
    }
    return file ?? (this.files.length > 0 ? 0 : undefined);
  }

  /** The captures with their bodies where they lie in shard file `file` (checked when read; no copy made: a copy
   * was most of an index's read). */
  private inPlace(chosen: [string, Chosen][], file: number): { data: WarcIndexData; dispose: () => void } {
    const captures = new Map<string, WarcCapture>();
    for (const [key, c] of chosen) captures.set(key, captureOf(c, c.bodyAt));
    const held = this.held?.file === file ? this.held : undefined;
    const data: WarcIndexData = { spill: this.files[file].name, captures };
    if (held === undefined) return { data, dispose: () => {} };
    data.held = { at: HEADER_OCTETS, octets: held.octets };
    const dispose = () => {
      if (data.held === undefined) return;
      data.held = undefined;
      giveBack(held.buffer);
    };
    return { data, dispose };
  }

  /** The captures with their bodies copied to a spill file of this run. */
  private spilled(order: [string, Chosen][]): { data: WarcIndexData; dispose: () => void } {
    const dir = tempDir('robots-index-');
    const spill = join(dir.path, 'bodies');
    const dispose = dir.dispose;
    const captures = new Map<string, WarcCapture>();
    const out = openSync(spill, 'w');
    try {
      let spilled = 0;
      // File by file, each in order: one descriptor at a time, read forwards, a window of the file at a time and
      // the bodies written a buffer at a time (a read and a write per body were most of the reading's time).
      order.sort(([, a], [, b]) => a.file - b.file || a.bodyAt - b.bodyAt);
      const window = new FileWindow();
      const pending = new SpillWriter(out);
      let current = -1;
      for (const [key, c] of order) {
        const capture = captureOf(c, spilled);
        if (c.bodyLength > 0) {
          if (c.file !== current) {
            if (current !== -1) this.release(current);
            this.reopen((current = c.file));
            window.clear();
          }
          const f = this.files[c.file];
          pending.write(window.read(f.fd, c.bodyAt, c.bodyLength, f.name, f.size), spilled);
          spilled += c.bodyLength;
        }
        captures.set(key, capture);
      }
      pending.flush();
    } catch (e) {
      closeSync(out);
      dispose();
      throw e;
    }
    closeSync(out);
    return { data: { spill, captures }, dispose };
  }

  /** Shard file `file` open again (its checks passed when first opened). */
  private reopen(file: number): number {
    const f = this.files[file];
    if (f.fd !== -1) return f.fd;
    try {
      f.fd = openSync(f.name, 'r');
    } catch (e) {
      throw new BulkError(`cannot read index file ${f.name}: ${reason(e)}`);
    }
    if (fstatSync(f.fd).size !== f.size) throw new BulkError(`${f.name}: changed while read (${f.size} octets before)`);
    return f.fd;
  }

  private release(file: number): void {
    const f = this.files[file];
    if (f.fd !== -1) closeSync(f.fd);
    f.fd = -1;
  }

  close(): void {
    for (let k = 0; k < this.files.length; k++) this.release(k);
    this.files.length = 0;
    this.opened.clear();
    this.held = undefined;
  }
}

/** A held buffer given back for the next read, unless a larger one is kept. */
function giveBack(buffer: Buffer): void {
  const kept = spare?.deref();
  if (kept === undefined || buffer.length > kept.length) spare = new WeakRef(buffer);
}

/** A chosen capture as WarcIndexData holds it, its body at `bodyAt` of the data's file. */
function captureOf(c: Chosen, bodyAt: number): WarcCapture {
  return {
    date: c.date, status: c.status, location: c.location, bodyAt, bodyLength: c.bodyLength,
    ...(c.damaged !== undefined ? { damaged: c.damaged } : {}), ...(c.unavailable !== undefined ? { unavailable: c.unavailable } : {}),
  };
}

/** Octets of a file read a window at a time, forwards: what [at, at + length) holds, valid until the next read. */
class FileWindow {
  private buffer = Buffer.allocUnsafe(WINDOW_OCTETS);
  /** The file offset of buffer[0], and the octets it holds. */
  private from = 0;
  private held = 0;

  clear(): void {
    this.held = 0;
  }

  read(fd: number, at: number, length: number, name: string, size: number): Buffer {
    if (at < this.from || at + length > this.from + this.held) {
      if (length > this.buffer.length) this.buffer = Buffer.allocUnsafe(length);
      const held = Math.min(this.buffer.length, size - at);
      if (held < length) throw new BulkError(`${name}: cut short at offset ${at + held}`);
      readExactly(fd, this.buffer.subarray(0, held), at, name);
      this.from = at;
      this.held = held;
    }
    return this.buffer.subarray(at - this.from, at - this.from + length);
  }
}

/** Bodies written to the spill in order, a buffer at a time (one too long for it written alone). */
class SpillWriter {
  private readonly buffer = Buffer.allocUnsafe(WINDOW_OCTETS);
  private held = 0;
  /** The spill offset of buffer[0]. */
  private at = 0;

  constructor(private readonly fd: number) {}

  write(octets: Buffer, at: number): void {
    if (this.held > 0 && (this.held + octets.length > this.buffer.length || at !== this.at + this.held)) this.flush();
    if (this.held === 0) this.at = at;
    if (octets.length > this.buffer.length) {
      writeAll(this.fd, octets, at);
      return;
    }
    octets.copy(this.buffer, this.held);
    this.held += octets.length;
  }

  flush(): void {
    if (this.held > 0) writeAll(this.fd, this.buffer.subarray(0, this.held), this.at);
    this.held = 0;
  }
}

const WINDOW_OCTETS = 1 << 20;

function writeAll(fd: number, octets: Buffer, at: number): void {
  for (let done = 0; done < octets.length; ) done += writeSync(fd, octets, done, octets.length - done, at + done);
}

function readExactly(fd: number, into: Buffer, at: number, name: string): void {
  let got = 0;
  try {
    while (got < into.length) {
      const n = readSync(fd, into, got, into.length - got, at + got);
      if (n === 0) break;
      got += n;
    }
  } catch (e) {
    throw new BulkError(`cannot read index file ${name}: ${reason(e)}`);
  }
  if (got < into.length) throw new BulkError(`${name}: cut short at offset ${at + got}`);
}

/** A file's octets [from, to) in order, read a buffer at a time (a record longer than it read whole). */
class SequentialRead {
  private start = 0;
  private end = 0;
  /** Reads made: 1 when `size` held [from, to) whole. */
  private fills = 0;
  /** The file offset of buffer[start]. */
  offset: number;

  constructor(private readonly fd: number, private readonly from: number, private readonly to: number, private readonly name: string, private buffer: Buffer) {
    this.offset = from;
  }

  /** [from, to) when one read gave them all (the views taken are of it). */
  whole(): Buffer | undefined {
    return this.fills === 1 && this.end === this.to - this.from ? this.buffer.subarray(0, this.end) : undefined;
  }

  get done(): boolean {
    return this.offset >= this.to;
  }

  /** The next 4 octets as a little-endian u32 (no view made of them: two of these a record). */
  u32(): number {
    if (this.end - this.start < 4) return this.take(4).readUInt32LE(0);
    const v = this.buffer.readUInt32LE(this.start);
    if (this.offset + 4 > this.to) throw new BulkError(`${this.name}: damaged record at offset ${this.offset} (it runs past the records)`);
    this.start += 4;
    this.offset += 4;
    return v;
  }

  take(n: number): Buffer {
    if (this.offset + n > this.to) throw new BulkError(`${this.name}: damaged record at offset ${this.offset} (it runs past the records)`);
    if (this.end - this.start < n) {
      const kept = this.buffer.subarray(this.start, this.end);
      // (A new buffer at each read after the first: the views taken of the last may still be in use.)
      const next = this.fills === 0 && n <= this.buffer.length ? this.buffer : Buffer.allocUnsafe(Math.max(n, this.buffer.length));
      kept.copy(next, 0);
      this.buffer = next;
      this.end = kept.length;
      this.start = 0;
      const want = Math.min(this.buffer.length - this.end, this.to - (this.offset + this.end));
      let got = 0;
      while (got < want) {
        let r: number;
        try {
          r = readSync(this.fd, this.buffer, this.end + got, want - got, this.offset + this.end + got);
        } catch (e) {
          throw new BulkError(`cannot read index file ${this.name}: ${reason(e)}`);
        }
        if (r === 0) break;
        got += r;
      }
      this.end += got;
      this.fills++;
      if (this.end - this.start < n) throw new BulkError(`${this.name}: cut short at offset ${this.offset + this.end}`);
    }
    const out = this.buffer.subarray(this.start, this.start + n);
    this.start += n;
    this.offset += n;
    return out;
  }
}

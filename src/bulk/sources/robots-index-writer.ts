// `robots index`: the robots.txt captures of WARC files (every one, each date:
// --as-of picks among them later) written into N host shards
// (robots-index-format.ts), the map step of a crawl's classification. Each
// shard file is written under a temporary name and renamed into place, then
// the manifest last: a run cut short leaves no index.json (readers refuse
// the directory), and a reader tells a shard file of another run by its id.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { BulkError, reason } from '../errors.js';
import { WarcFiles } from './warc-list.js';
import { indexWarcs, type WarcCapture, type WarcIndexStats } from './warc-index.js';
import {
  captureShard, crc32, DIRECTORY_ENTRY, encodeFooter, encodeHeader, encodeRecord, FORMAT_VERSION, keyHash, MANIFEST,
  shardFileName, type IndexManifest,
} from './robots-index-format.js';

/** Most shards an index may have (a file each). */
export const MAX_SHARDS = 65536;

export interface WriteIndexOptions {
  shards: number;
  maxOctets: number;
  warn(line: string): void;
  progress?(octets: number, total: number): void;
}

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
  const byShard: { key: string; capture: WarcCapture }[][] = Array.from({ length: shards }, () => []);
  const index = await indexWarcs(files, {
    maxOctets: options.maxOctets,
    warn: options.warn,
    progress: options.progress,
    each: (key, capture) => byShard[captureShard(key, shards)].push({ key, capture }),
  });
  const id = randomBytes(8).readBigUInt64LE(0);
  const temps: string[] = [];
  try {
    const spill = index.data.spill === null ? -1 : openSync(index.data.spill, 'r');
    const written: IndexManifest['files'] = [];
    try {
      for (let s = 0; s < shards; s++) {
        const name = shardFileName(s, shards);
        const temp = join(out, `.${name}.${process.pid}.tmp`);
        temps.push(temp);
        written.push({ name, octets: writeShard(temp, s, shards, id, byShard[s], spill), captures: byShard[s].length });
        byShard[s] = [];
      }
    } finally {
      if (spill !== -1) closeSync(spill);
    }
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
    return { manifest, stats: index.stats, octets: written.reduce((a, f) => a + f.octets, 0) };
  } catch (e) {
    for (const t of temps) rmSync(t, { force: true });
    if (e instanceof BulkError) throw e;
    throw new BulkError(`cannot write the index in ${out}: ${reason(e)}`);
  } finally {
    index.dispose();
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

/** One shard file: header, the records in the order read, the directory, the footer. Its octets. */
function writeShard(file: string, shard: number, shards: number, id: bigint, captures: { key: string; capture: WarcCapture }[], spill: number): number {
  const w = new BufferedFile(file);
  try {
    w.write(encodeHeader(shard, shards, id));
    const directory = Buffer.alloc(captures.length * DIRECTORY_ENTRY);
    const order: { hash: number; at: number }[] = [];
    for (const { key, capture } of captures) {
      let body: Uint8Array = new Uint8Array(0);
      if (capture.bodyLength > 0) {
        const b = Buffer.allocUnsafe(capture.bodyLength);
        if (readSync(spill, b, 0, b.length, capture.bodyAt) !== b.length) throw new BulkError('the spill file was cut short while indexing');
        body = b;
      }
      order.push({ hash: keyHash(key), at: w.offset });
      w.write(encodeRecord({ key, date: capture.date, status: capture.status, location: capture.location, damaged: capture.damaged, body }));
    }
    // Sorted by hash, then offset (a key's captures stay in the order read).
    order.sort((a, b) => a.hash - b.hash || a.at - b.at);
    order.forEach((e, k) => {
      directory.writeUInt32LE(e.hash, k * DIRECTORY_ENTRY);
      directory.writeBigUInt64LE(BigInt(e.at), k * DIRECTORY_ENTRY + 4);
    });
    const directoryAt = w.offset;
    w.write(directory);
    w.write(encodeFooter(directoryAt, captures.length, crc32(directory)));
    w.close();
    return w.offset;
  } catch (e) {
    w.abandon();
    throw e;
  }
}

/** Writes in 1 MiB pieces (a write per record cost a system call each). */
class BufferedFile {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  /** Octets written so far (buffered ones too). */
  offset = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  write(octets: Uint8Array): void {
    this.offset += octets.length;
    if (this.used + octets.length > this.buffer.length) this.flush();
    if (octets.length >= this.buffer.length) return this.all(octets);
    this.buffer.set(octets, this.used);
    this.used += octets.length;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // (already closed)
    }
  }

  private flush(): void {
    this.all(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private all(octets: Uint8Array): void {
    let at = 0;
    while (at < octets.length) at += writeSync(this.fd, octets, at, octets.length - at);
  }
}

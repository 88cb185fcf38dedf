// The robots.txt captures of WARC files (--robots-warc), indexed in one pass
// (warc-captures.ts reads them: plain WARC, gzip per record as Common Crawl
// writes them, or the whole file gzipped).
// Each `response` record's target URL gets the capture that speaks for it (by
// WARC-Date, under the cache's policy: capture-choice.ts): HTTP status,
// Location, and for a 2xx the body, decoded per Content-Encoding
// no further than maxOctets (a gzip bomb inflates no further; the captures
// cut are counted in a warning, cut-captures.ts), written as it is to a temporary spill file
// (deflating each body was the largest part of the pass: warc-fast-records.ts). Threads then
// read a host's capture synchronously when the host is first needed
// (warc-robots.ts), so memory holds the index (a few dozen octets and the URL
// per capture), never the bodies. robots index reads WARCs its own way, on
// threads, straight into its shards (../../index/warc-index-threads.ts).
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BulkError, reason } from '../../base/errors.js';
import { isGzip, readWarcCaptures } from './warc-captures.js';
import { tempDir } from '../temp-dir.js';
import { CutCaptures } from './cut-captures.js';
import { CaptureChoice } from './capture-choice.js';

export { captureKey } from './warc-capture-read.js';

/** One capture: what the policy needs of the response, the body in the spill file. */
export interface WarcCapture {
  /** WARC-Date, ms (NaN sorts first). */
  date: number;
  /** HTTP status; 0 when the response had none that reads. */
  status: number;
  location: string | null;
  /** The body's place in the spill file (2xx only; else length 0). */
  bodyAt: number;
  bodyLength: number;
  /** Why the capture cannot be used (cut short): the host is unreachable. */
  damaged?: string;
  /** Why the policy takes the host as unavailable (unreachable for 30 days with no copy: capture-choice.ts). */
  unavailable?: string;
}

/** The index as plain data (it crosses to the threads). */
export interface WarcIndexData {
  /** The file the bodies lie in (WarcCapture.bodyAt): a spill of this run, or the one shard file of a robots index they were all read from. */
  spill: string | null;
  /** The spill's octets from `at` on, when they were read whole already (an index's one shard file, small
   * enough: robots-index-reader.ts): the bodies there are read from them, the file not read again. Not shared
   * with the threads (they read the file). */
  held?: { at: number; octets: Uint8Array };
  /** By target URL (as new URL() writes it, without fragment): the capture that speaks for it (capture-choice.ts). */
  captures: Map<string, WarcCapture>;
}

export interface WarcIndexStats {
  files: number;
  octets: number;
  records: number;
  responses: number;
  /** Records or files that could not be read, each said in `warnings`. */
  damaged: number;
  /** Captures whose body was cut to maxOctets (counted in one warning, the first few named). */
  truncated: number;
  ms: number;
}

export interface WarcIndex {
  data: WarcIndexData;
  stats: WarcIndexStats;
  /** Removes the spill file (one of this run's; an index's shard file is left as it is). */
  dispose(): void;
}

export interface IndexWarcsOptions {
  maxOctets: number;
  warn(line: string): void;
  progress?(octets: number, total: number): void;
  /** --as-of: only captures dated at or before it (ms); an undated one is then none. */
  asOf?: number;
  /** A file as the user knows it (a list's download: its URL), for a warning said after its reading. */
  name?(file: string): string;
}

/** A WARC file's size, or the one-line error of a path that is not a readable regular file. */
export function warcFileSize(f: string): number {
  try {
    const st = statSync(f);
    if (!st.isFile()) throw new Error(st.isDirectory() ? 'is a directory' : 'not a regular file');
    return st.size;
  } catch (e) {
    throw new BulkError(`cannot read WARC file ${f}: ${reason(e)}`);
  }
}

/** files: local WARC files, all checked before the first is read; or a sequence of them (a
 * --robots-warc-list's: each checked as it comes, the progress total growing with them). */
export async function indexWarcs(files: readonly string[] | AsyncIterable<string>, options: IndexWarcsOptions): Promise<WarcIndex> {
  const began = performance.now();
  const sizes = isList(files) ? files.map(warcFileSize) : [];
  let total = sizes.reduce((a, b) => a + b, 0);
  const dir = tempDir('robots-warc-');
  const spill = join(dir.path, 'bodies');
  const fd = openSync(spill, 'w');
  const choice = new CaptureChoice<WarcCapture>();
  const stats: WarcIndexStats = { files: 0, octets: 0, records: 0, responses: 0, damaged: 0, truncated: 0, ms: 0 };
  const dispose = dir.dispose;
  // Bodies are gathered here and written in batches: a write per capture cost more than the body.
  const batch = new SpillBatch(fd);
  const cut = new CutCaptures(options.maxOctets);
  const close = () => closeSync(fd);
  try {
    for await (const file of files) {
      const done = stats.octets;
      const size = stats.files < sizes.length ? sizes[stats.files] : warcFileSize(file);
      if (stats.files >= sizes.length) total += size;
      stats.files++;
      const gzip = isGzip(file);
      /** Captures indexed from this file: (record offset, key), to mark those near damage. */
      const mine: { offset: number; key: string; capture: WarcCapture }[] = [];
      const counts = { records: 0, responses: 0 };
      const read = readWarcCaptures(file, {
        maxOctets: options.maxOctets,
        counts,
        // One after --as-of (or undated then) is not read, nor one that can no longer count.
        wants: (key, date) => (options.asOf === undefined || date <= options.asOf) && choice.wants(key, date),
        progress: (octets) => options.progress?.(done + octets, total),
      });
      for await (const item of read) {
        if (item.kind === 'capture') {
          const { key, offset } = item;
          if (item.truncated) cut.add(options.name?.(file) ?? file, key, offset, gzip);
          const capture: WarcCapture = { date: item.date, status: item.status, location: item.location, bodyAt: 0, bodyLength: 0 };
          if (item.damaged !== undefined) capture.damaged = item.damaged;
          else if (item.body !== null && item.body.length > 0) {
            capture.bodyAt = batch.add(item.body);
            capture.bodyLength = item.body.length;
          }
          mine.push({ offset, key, capture });
          choice.offer(key, capture);
        } else if (item.kind === 'damage') {
          // What was read just before the damage may come from the damaged part: those hosts are unreachable.
          let marked = 0;
          const why = `read just before the damage in ${file}`;
          for (let k = mine.length - 1; k >= 0 && mine[k].offset >= item.trustedBefore; k--) {
            const { key, capture } = mine[k];
            if (!choice.holds(key, capture)) continue; // (replaced by a later one, also here)
            if (capture.damaged === undefined) {
              capture.damaged = why;
              marked++;
            }
          }
          stats.damaged++;
          options.warn(`${file}: cannot read past ${gzip ? 'uncompressed ' : ''}offset ${item.offset} (${item.why}): the captures after it are skipped` +
            (marked > 0 ? `, and ${marked} read just before it taken as unreachable` : ''));
        } else if (size > 0) {
          stats.damaged++;
          options.warn(`${file}: no WARC record could be read (not a WARC file, or damaged)`);
        }
      }
      stats.records += counts.records;
      stats.responses += counts.responses;
      stats.octets += size;
    }
    batch.flush();
    stats.truncated = cut.size;
    const said = cut.line();
    if (said !== undefined) options.warn(said);
  } catch (e) {
    close();
    dispose();
    throw e;
  }
  close();
  const captures = choice.settle();
  stats.ms = performance.now() - began;
  return { data: { spill, captures }, stats, dispose };
}

/** The spill file written in batches of about BATCH octets (a body longer than that alone). */
class SpillBatch {
  private static readonly BATCH = 1 << 20;
  private buf = Buffer.allocUnsafe(SpillBatch.BATCH);
  private used = 0;
  /** Octets written to the file. */
  private written = 0;

  constructor(private readonly fd: number) {}

  /** Copies the body in; its place in the file. */
  add(body: Uint8Array): number {
    if (this.used + body.length > this.buf.length) {
      this.flush();
      if (body.length > this.buf.length) {
        const at = this.written;
        writeAll(this.fd, body, at);
        this.written += body.length;
        return at;
      }
    }
    this.buf.set(body, this.used);
    this.used += body.length;
    return this.written + this.used - body.length;
  }

  flush(): void {
    writeAll(this.fd, this.buf.subarray(0, this.used), this.written);
    this.written += this.used;
    this.used = 0;
  }
}

function writeAll(fd: number, octets: Uint8Array, at: number): void {
  for (let done = 0; done < octets.length; ) done += writeSync(fd, octets, done, octets.length - done, at + done);
}

function isList(files: readonly string[] | AsyncIterable<string>): files is readonly string[] {
  return Array.isArray(files);
}

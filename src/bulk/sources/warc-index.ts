// The robots.txt captures of WARC files (--robots-warc), indexed in one pass
// by the main thread with warcio (webrecorder's WARC library: plain WARC,
// gzip per record as Common Crawl writes them, or the whole file gzipped).
// Each `response` record's target URL gets its latest capture (by WARC-Date):
// HTTP status, Location, and for a 2xx the body, decoded per Content-Encoding
// as a stream that stops at maxOctets (a gzip bomb inflates no further; a cut
// capture is named in a warning), written deflated to a temporary spill file. Threads then
// read a host's capture synchronously when the host is first needed
// (warc-robots.ts), so memory holds the index (a few dozen octets and the URL
// per capture), never the bodies.
import { closeSync, createReadStream, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip, deflateRawSync } from 'node:zlib';
import { AsyncIterReader, concatChunks, WARCParser, type LimitReader, type WARCRecord } from 'warcio';
import { BulkError, reason } from '../errors.js';

/** One capture: what the policy needs of the response, the body in the spill file. */
export interface WarcCapture {
  /** WARC-Date, ms (NaN sorts first). */
  date: number;
  /** HTTP status; 0 when the response had none that reads. */
  status: number;
  location: string | null;
  /** The deflated body's place in the spill file (2xx only; else length 0). */
  bodyAt: number;
  bodyLength: number;
  /** Why the capture cannot be used (cut short): the host is unreachable. */
  damaged?: string;
  /** (While indexing: the deflated body to spill.) */
  body?: Uint8Array;
}

/** The index as plain data (it crosses to the threads). */
export interface WarcIndexData {
  spill: string | null;
  /** By target URL (as new URL() writes it, without fragment). */
  captures: Map<string, WarcCapture>;
}

/** zlib's output chunk: at a gzip error, the captures read from the last one are not
 * trusted (zlib hands out a member's octets before its checksum tells them bad). */
const SUSPECT_OCTETS = 1 << 16;

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface WarcIndexStats {
  files: number;
  octets: number;
  records: number;
  responses: number;
  /** Records or files that could not be read, each said in `warnings`. */
  damaged: number;
  /** Captures whose body was cut to maxOctets, each said in `warnings`. */
  truncated: number;
  ms: number;
}

export interface WarcIndex {
  data: WarcIndexData;
  stats: WarcIndexStats;
  /** Removes the spill file. */
  dispose(): void;
}

/** The key of a URL in the index: new URL()'s form, no fragment, the host without a trailing dot
 * (as urlOrigin() names it); undefined when it is none. */
export function captureKey(url: string): string | undefined {
  try {
    const u = new URL(url);
    u.hash = '';
    if (u.hostname.length > 1 && u.hostname.endsWith('.')) u.hostname = u.hostname.slice(0, -1);
    return u.href;
  } catch {
    return undefined;
  }
}

export interface IndexWarcsOptions {
  maxOctets: number;
  warn(line: string): void;
  progress?(octets: number, total: number): void;
  /** --as-of: only captures dated at or before it (ms); an undated one is then none. */
  asOf?: number;
  /** robots index: every capture handed here as read (its body in the spill), none kept in `captures`;
   * one read just before damage is marked so afterwards (its `damaged` set). */
  each?(key: string, capture: WarcCapture): void;
}

/** files: local WARC files, all checked before the first is read; or a sequence of them (a
 * --robots-warc-list's: each checked as it comes, the progress total growing with them). */
export async function indexWarcs(files: readonly string[] | AsyncIterable<string>, options: IndexWarcsOptions): Promise<WarcIndex> {
  const began = performance.now();
  const sizeOf = (f: string) => {
    try {
      const st = statSync(f);
      if (!st.isFile()) throw new Error(st.isDirectory() ? 'is a directory' : 'not a regular file');
      return st.size;
    } catch (e) {
      throw new BulkError(`cannot read WARC file ${f}: ${reason(e)}`);
    }
  };
  const sizes = isList(files) ? files.map(sizeOf) : [];
  let total = sizes.reduce((a, b) => a + b, 0);
  const dir = mkdtempSync(join(tmpdir(), 'robots-warc-'));
  const spill = join(dir, 'bodies');
  const fd = openSync(spill, 'w');
  let spilled = 0;
  const captures = new Map<string, WarcCapture>();
  const stats: WarcIndexStats = { files: 0, octets: 0, records: 0, responses: 0, damaged: 0, truncated: 0, ms: 0 };
  // Removed at the end, on an error, and when the run is interrupted (Ctrl-C, a
  // kill): the spill may hold gigabytes. The signal is then raised again, so
  // the process ends as it would have.
  const onSignal = (signal: NodeJS.Signals) => {
    dispose();
    process.kill(process.pid, signal);
  };
  const dispose = () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    rmSync(dir, { recursive: true, force: true });
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
  try {
    for await (const file of files) {
      const done = stats.octets;
      const size = stats.files < sizes.length ? sizes[stats.files] : sizeOf(file);
      if (stats.files >= sizes.length) total += size;
      stats.files++;
      const gzip = isGzip(file);
      // Gzip (per record, or the whole file) inflated by zlib, which also checks
      // each member (warcio's own inflating passes over a damaged one without a word).
      const stream = createReadStream(file, { highWaterMark: 1 << 20 });
      let read = 0;
      stream.on('data', (chunk) => {
        read += chunk.length;
        options.progress?.(done + read, total);
      });
      let source: Readable = stream;
      if (gzip) {
        const gunzip = createGunzip({ chunkSize: SUSPECT_OCTETS });
        stream.on('error', (e) => gunzip.destroy(e));
        source = stream.pipe(gunzip);
      }
      const parser = new WARCParser(source);
      /** Captures indexed from this file: (record offset, key), to mark those near damage. */
      const mine: { offset: number; key: string; capture: WarcCapture }[] = [];
      let records = 0;
      try {
        for await (const record of parser) {
          try {
            records++;
            stats.records++;
            const offset = parser.offset;
            if (!record.warcType) throw new Error('not a WARC record: no WARC-Type');
            if (record.warcType !== 'response') continue;
            const key = captureKey(record.warcTargetURI ?? '');
            if (key === undefined) continue;
            stats.responses++;
            const date = Date.parse(record.warcDate ?? '');
            if (options.asOf !== undefined && !(date <= options.asOf)) continue; // after --as-of (or undated)
            const kept = options.each === undefined ? captures.get(key) : undefined;
            if (kept !== undefined && !(date >= kept.date)) continue; // an earlier capture: the latest wins
            const { truncated, ...capture } = await readResponse(record, date, options.maxOctets);
            if (truncated) {
              stats.truncated++;
              options.warn(`${file}: the capture of ${key} (record at ${gzip ? 'uncompressed ' : ''}offset ${offset}) is longer than --max-octets once decoded: its first ${options.maxOctets} octets are used`);
            }
            if (capture.bodyLength > 0) {
              writeSync(fd, capture.body!, 0, capture.bodyLength, spilled);
              capture.bodyAt = spilled;
              spilled += capture.bodyLength;
              delete capture.body;
            }
            mine.push({ offset, key, capture });
            if (options.each !== undefined) options.each(key, capture);
            else captures.set(key, capture);
          } finally {
            // What is not read of a record is read past here: warcio's own skip waits for ever
            // for the octets a record cut short at the end of the file promised.
            await readPast(record.reader as LimitReader).catch(() => 0); // (a read that fails, the parser's next read says)
          }
        }
      } catch (e) {
        // What was read just before the damage may come from the damaged part: those hosts are unreachable.
        let marked = 0;
        const from = parser.offset - SUSPECT_OCTETS;
        for (let k = mine.length - 1; k >= 0 && mine[k].offset >= from; k--) {
          const { key, capture } = mine[k];
          if (options.each === undefined && captures.get(key) !== capture) continue; // (replaced by a later one, also here)
          if (capture.damaged === undefined) {
            capture.damaged = `read just before the damage in ${file}`;
            marked++;
          }
        }
        stats.damaged++;
        options.warn(`${file}: cannot read past ${gzip ? 'uncompressed ' : ''}offset ${parser.offset} (${reason(e)}): the captures after it are skipped` +
          (marked > 0 ? `, and ${marked} read just before it taken as unreachable` : ''));
        stats.octets += size;
        continue;
      }
      if (records === 0 && size > 0) {
        stats.damaged++;
        options.warn(`${file}: no WARC record could be read (not a WARC file, or damaged)`);
      }
      stats.octets += size;
    }
  } catch (e) {
    closeSync(fd);
    dispose();
    throw e;
  }
  closeSync(fd);
  stats.ms = performance.now() - began;
  return { data: { spill, captures }, stats, dispose };
}

/** Octets handed to the inflater at a time: what one step may inflate is about 1,000 times as
 * much (deflate's bound), so a step holds at most ~4 MiB however the body is compressed. */
const INFLATE_STEP = 4 << 10;

/** A response record's HTTP outcome, and for a 2xx its payload (warcio reads the headers;
 * chunks and Content-Encoding decoded here as warcio would, as a stream) up to maxOctets:
 * `truncated` says it went on (its first maxOctets octets are the body). A payload cut
 * short is damage. */
async function readResponse(record: WARCRecord, date: number, maxOctets: number): Promise<WarcCapture & { truncated?: boolean }> {
  const status = Number(record.httpHeaders?.statusCode ?? 0) || 0;
  const capture: WarcCapture = { date, status, location: record.httpHeaders?.headers.get('location') ?? null, bodyAt: 0, bodyLength: 0 };
  if (status < 200 || status > 299) return capture; // (its body is not read: the status decides)
  const raw = record.reader as LimitReader;
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  try {
    for await (const chunk of decodedPayload(record, raw)) {
      chunks.push(chunk);
      length += chunk.length;
      if (length > maxOctets) {
        truncated = true;
        break;
      }
    }
  } catch (e) {
    // A body that does not decode: the fetch failed (as fetchRobots says of one).
    return { ...capture, damaged: `body not decodable (${reason(e)})` };
  }
  // The rest of the record is read past (not decoded), to tell a record cut short.
  const unread = await readPast(raw);
  if (unread > 0) return { ...capture, damaged: `capture cut short (${unread} octets missing)` };
  const body = concatChunks(chunks, length);
  capture.body = deflateRawSync(truncated ? body.subarray(0, maxOctets) : body);
  capture.bodyLength = capture.body.length;
  return { ...capture, truncated };
}

/** Reads a record's payload to its end, or the file's: the octets its Content-Length promised and
 * the file did not hold (warcio's record reader keeps that count), then none (so its skip waits for none). */
async function readPast(raw: LimitReader): Promise<number> {
  for await (const _ of raw) void _;
  const unread = raw.limit;
  raw.setLimitSkip(0);
  return unread;
}

/**
 * A 2xx response's payload decoded as warcio's record.readFully(true) decodes
 * it (Transfer-Encoding: chunked, then Content-Encoding by its inflater, the
 * octets as they are when they do not inflate), as a stream of small steps:
 * warcio reads an HTTP chunk whole, and inflates what it is handed at once.
 */
function decodedPayload(record: WARCRecord, raw: LimitReader): AsyncIterable<Uint8Array> {
  const headers = record.httpHeaders!.headers;
  let encoding = headers.get('content-encoding');
  const transfer = headers.get('transfer-encoding');
  const chunked = transfer === 'chunked';
  if (!encoding && !chunked) encoding = transfer; // (as warcio does)
  const payload = chunked ? dechunked(raw) : raw;
  return encoding ? new AsyncIterReader(steps(payload), encoding as 'gzip', false) : payload;
}

/** The octets in pieces of at most INFLATE_STEP. */
async function* steps(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    for (let at = 0; at < chunk.length; at += INFLATE_STEP) yield chunk.subarray(at, at + INFLATE_STEP);
  }
}

/**
 * HTTP chunked transfer coding undone as warcio's dechunk does (a size line
 * that does not read ends the decoding: the rest passes as it is, the size
 * line too when it is the first), but each chunk's data passed on as it
 * comes, never held whole (a chunk may claim 4 GiB); so of a malformed first
 * chunk (short, or not ended by CRLF) its size line is not passed on.
 */
async function* dechunked(raw: LimitReader): AsyncGenerator<Uint8Array> {
  const reader = new AsyncIterReader(raw, null);
  for (let first = true; ; first = false) {
    const line = await reader.readlineRaw(64);
    const size = line ? parseInt(new TextDecoder().decode(line), 16) : 0;
    if (Number.isNaN(size) || size > 2 ** 32) {
      if (first && line) yield line;
      break;
    }
    if (size === 0) return;
    let left = size;
    while (left > 0) {
      const piece = await reader.readSize(Math.min(left, 1 << 16));
      if (piece.length === 0) break;
      left -= piece.length;
      yield piece;
    }
    if (left > 0) return; // (the record ends inside the chunk)
    const crlf = await reader.readSize(2);
    if (crlf[0] !== 13 || crlf[1] !== 10) {
      yield crlf;
      break;
    }
  }
  yield* reader;
}

function isList(files: readonly string[] | AsyncIterable<string>): files is readonly string[] {
  return Array.isArray(files);
}

function isGzip(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

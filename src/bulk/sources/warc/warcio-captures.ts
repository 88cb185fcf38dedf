// The captures of a WARC file as warcio (webrecorder's WARC library) reads
// them: plain WARC, gzip per record, the whole file gzipped, from its start or
// from a record on, or a record alone. What the fast reader (warc-fast-records.ts)
// leaves, and its judge: what it yields must be what this yields.
// A response's payload is decoded (chunks, Content-Encoding) as a stream that
// stops at maxOctets, so a gzip bomb inflates no further.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type * as Warcio from 'warcio';
import type { LimitReader, WARCRecord } from 'warcio';
import { reason } from '../../base/errors.js';
import { captureKey, type CaptureRead, type CaptureReadOptions, type WarcReadItem } from './warc-capture-read.js';
import { warcDateOf } from './warc-date.js';

/** warcio (with pako: ~150 KB of modules to compile), loaded by the first read that needs it: the fast reader
 * (warc-fast-records.ts) leaves it few records or none, and `robots index` compiled it before its first stretch. */
let warcio: typeof Warcio;

/** zlib's output chunk: at a gzip error, the captures read from the last one are not
 * trusted (zlib hands out a member's octets before its checksum tells them bad). */
export const SUSPECT_OCTETS = 1 << 16;

/**
 * The records of `file` read by warcio (over zlib's inflater when `gzip`), from uncompressed
 * octet `skip` (a record's first) on, the first `given` of them read but not counted nor given;
 * offsets said are the file's, uncompressed. A gzip file is inflated from its start, or from
 * `from.start`, a member's start at uncompressed offset `from.base` (at most `skip`).
 */
export async function* warcioCaptures(file: string, gzip: boolean, options: CaptureReadOptions, skip = 0, given = 0, from?: { start: number; base: number }): AsyncGenerator<WarcReadItem> {
  // (Loaded before the stream is made: parsed() must read it, so hear its errors, in the same turn.)
  warcio ??= await import('warcio');
  // Gzip (per record, or the whole file) inflated by zlib, which also checks
  // each member (warcio's own inflating passes over a damaged one without a word).
  const start = gzip ? (from?.start ?? 0) : skip;
  const stream = createReadStream(file, { highWaterMark: 1 << 20, start });
  let read = start;
  stream.on('data', (chunk) => {
    read += chunk.length;
    options.progress?.(read);
  });
  let source: AsyncIterable<Uint8Array> = stream;
  if (gzip) {
    const gunzip = createGunzip({ chunkSize: SUSPECT_OCTETS });
    stream.on('error', (e) => gunzip.destroy(e));
    const inflatedSkip = skip - (from?.base ?? 0);
    source = inflatedSkip > 0 ? skipped(stream.pipe(gunzip), inflatedSkip) : stream.pipe(gunzip);
  }
  try {
    const records = yield* parsed(source, gzip, options, skip, true, given);
    if (records === 0 && skip === 0) yield { kind: 'empty' }; // (after damage, none: that said it)
  } finally {
    stream.destroy();
  }
}

/** The octets of a stream after its first n. */
async function* skipped(source: AsyncIterable<Uint8Array>, n: number): AsyncGenerator<Uint8Array> {
  let left = n;
  for await (const chunk of source) {
    if (left >= chunk.length) left -= chunk.length;
    else {
      yield left > 0 ? chunk.subarray(left) : chunk;
      left = 0;
    }
  }
}

/** One record's octets (a gzip member's, inflated), read by warcio: the fast reader's way with a
 * record it does not read itself. Its records are counted by the caller. */
export function warcioRecordCaptures(record: Uint8Array, options: CaptureReadOptions, offset: number): AsyncGenerator<WarcReadItem> {
  return parsed([record], false, options, offset, false);
}

/** Yields the captures of the records in `source`; the number of records read, or -1 after damage. */
async function* parsed(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, gzip: boolean, options: CaptureReadOptions, base: number, countRecords = true, given = 0): AsyncGenerator<WarcReadItem, number> {
  // warcio's parser ends quietly at octets that are no record (garbage, or a damaged gzip's
  // inflated octets) without reading on; so its source is given it unclosable, and what it
  // leaves is read here to the end: a read that fails there (zlib's "incorrect data check" a
  // chunk after the octets it mangled) is damage, not the quiet end of the file.
  const octets = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as AsyncIterator<Uint8Array> | Iterator<Uint8Array>;
  warcio ??= await import('warcio'); // (every use of it below is reached from here; loaded already for a file)
  const parser = new warcio.WARCParser({ [Symbol.asyncIterator]: () => ({ next: async () => octets.next() }) });
  let records = 0;
  try {
    for await (const record of parser) {
      if (records++ < given) {
        await readPast(record.reader as LimitReader);
        continue;
      }
      let item: WarcReadItem | undefined;
      let failed: unknown;
      try {
        item = await recordCapture(record, base + parser.offset, options, countRecords);
      } finally {
        // What is not read of a record is read past here: warcio's own skip waits for ever
        // for the octets a record cut short at the end of the file promised.
        failed = await readPast(record.reader as LimitReader).then(() => undefined, (e: unknown) => e);
      }
      if (item !== undefined) yield item;
      // A read that fails (the inflater's "unexpected end of file" of a whole-file gzip cut short)
      // is the damage: the parser's next read would find the stream ended, not failed.
      if (failed !== undefined) throw failed;
    }
    while (!(await octets.next()).done);
  } catch (e) {
    // What was read just before the damage may come from the damaged part (see SUSPECT_OCTETS).
    yield { kind: 'damage', offset: base + parser.offset, why: reason(e), trustedBefore: base + parser.offset - (gzip ? SUSPECT_OCTETS : 0) };
    return -1;
  }
  return records;
}

/** A record's capture, its payload read (not past it); none for a record of another kind or a
 * capture `wants` refuses. */
async function recordCapture(record: WARCRecord, offset: number, options: CaptureReadOptions, countRecords: boolean): Promise<WarcReadItem | undefined> {
  if (countRecords) options.counts.records++;
  if (!record.warcType) throw new Error('not a WARC record: no WARC-Type');
  if (record.warcType !== 'response') return undefined;
  const url = record.warcTargetURI ?? '';
  const key = captureKey(url);
  if (key === undefined) return undefined;
  options.counts.responses++;
  const date = warcDateOf(record.warcDate);
  if (options.wants !== undefined && !options.wants(key, date)) return undefined;
  return { kind: 'capture', ...(await readResponse(record, options.maxOctets)), url, key, date, offset };
}

/** What a response record's capture holds beyond its place. */
type Outcome = Pick<CaptureRead, 'status' | 'location' | 'body' | 'truncated' | 'damaged'>;

/** A response record's HTTP outcome, and for a 2xx its payload (warcio reads the headers;
 * chunks and Content-Encoding decoded here as warcio would, as a stream) up to maxOctets:
 * `truncated` says it went on (its first maxOctets octets are the body). A payload cut
 * short is damage. */
async function readResponse(record: WARCRecord, maxOctets: number): Promise<Outcome> {
  const status = Number(record.httpHeaders?.statusCode ?? 0) || 0;
  const capture: Outcome = { status, location: record.httpHeaders?.headers.get('location') ?? null, body: null, truncated: false };
  if (status < 200 || status > 299) return capture; // (its body is not read: the status decides)
  const raw = record.reader as LimitReader;
  const source = watched(raw);
  const chunks: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  try {
    for await (const chunk of decodedPayload(record, source)) {
      chunks.push(chunk);
      length += chunk.length;
      if (length > maxOctets) {
        truncated = true;
        break;
      }
    }
  } catch (e) {
    // The file's own read failing (its gzip cut short or damaged) is damage to the file, not to this body.
    if (source.failed) throw e;
    // A body that does not decode: the fetch failed (as fetchRobots says of one).
    return { ...capture, damaged: `body not decodable (${reason(e)})` };
  }
  // The rest of the record is read past (not decoded), to tell a record cut short.
  const unread = await readPast(raw);
  if (unread > 0) return { ...capture, damaged: `capture cut short (${unread} octets missing)` };
  const body = warcio.concatChunks(chunks, length);
  return { ...capture, body: truncated ? body.subarray(0, maxOctets) : body, truncated };
}

/** The octets of `raw`, and whether reading them failed (so told from their decoding failing). */
function watched(raw: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> & { failed: boolean } {
  const source = {
    failed: false,
    async *[Symbol.asyncIterator]() {
      try {
        yield* raw;
      } catch (e) {
        source.failed = true;
        throw e;
      }
    },
  };
  return source;
}

/** Reads a record's payload to its end, or the file's: the octets its Content-Length promised and
 * the file did not hold (warcio's record reader keeps that count), then none (so its skip waits for none). */
async function readPast(raw: LimitReader): Promise<number> {
  try {
    for await (const _ of raw) void _;
    return raw.limit;
  } finally {
    // Even when the read fails: warcio's skipFully loops while its limit is above 0 on a
    // source that gives no more, as a chain of promises that starves the event loop
    // (the command hung busy, deaf to SIGTERM, on a whole-file gzip cut short).
    raw.setLimitSkip(0);
  }
}

/** Octets handed to the inflater at a time: what one step may inflate is about 1,000 times as
 * much (deflate's bound), so a step holds at most ~4 MiB however the body is compressed. */
const INFLATE_STEP = 4 << 10;

/**
 * A 2xx response's payload decoded as warcio's record.readFully(true) decodes
 * it (Transfer-Encoding: chunked, then Content-Encoding by its inflater, the
 * octets as they are when they do not inflate), as a stream of small steps:
 * warcio reads an HTTP chunk whole, and inflates what it is handed at once.
 */
function decodedPayload(record: WARCRecord, raw: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const headers = record.httpHeaders!.headers;
  let encoding = headers.get('content-encoding');
  const transfer = headers.get('transfer-encoding');
  const chunked = transfer === 'chunked';
  if (!encoding && !chunked) encoding = transfer; // (as warcio does)
  const payload = chunked ? dechunked(raw) : raw;
  return encoding ? new warcio.AsyncIterReader(steps(payload), encoding as 'gzip', false) : payload;
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
async function* dechunked(raw: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = new warcio.AsyncIterReader(raw, null);
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

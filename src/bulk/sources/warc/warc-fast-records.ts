// The fast reader of WARC files: records parsed on the octets of the
// (inflated) stream, as warcio parses them, for the layouts WARC files come in
// (plain, gzip per record as WARC writers write them, the whole file gzipped):
// zlib's streaming inflater (which checks each member's CRC-32) works in
// libuv's thread pool while this thread parses. A record held whole (up to
// HOLD octets) is read in place; a longer one is streamed, its body kept up to
// maxOctets and the rest passed over, so memory is bounded whatever a record
// holds. What it does not read as warcio would it leaves to warcio
// (warcio-captures.ts): a record whose headers are not plain ASCII lines or
// whose payload is encoded (chunks, Content-Encoding) is handed over alone
// ('odd'); a record framed otherwise than the WARC writers frame them
// (Content-Length octets, then CRLFCRLF, then the next "WARC/" or the end),
// cut short, or met by an error (a damaged gzip member) ends it, and warcio
// reads the file from the last record given on ('fallback', that one not given
// again: so its parser is where it would have been, its offsets the same): a
// record is given only once the next one's "WARC/" is seen. So it never reads
// otherwise than warcio.
//
// Why (node --cpu-prof, on the corpus ×10 as a WARC): warcio's pass took
// several times what `gzip -dc` takes to read the file. The largest part of it
// re-deflated each body for the spill (deflateRawSync sets up a 256 KiB deflate
// state per call; level 1 saves only a third); then warcio's own parsing (an
// await per line and per chunk, an undici Headers per header block, each
// header validated, the block decoded to a string); then the per-record
// promise chains (the payload streamed through async generators) and their
// garbage, and the wait for the inflater. The inflating itself is a small
// part, on a thread-pool thread (Node's zlib inflates faster than gzip -dc).
// Inflating each member with its own inflateRawSync was tried: most of its
// time went to making a zlib stream object per record and its 64 KiB output
// chunk (and their garbage). This reader brought the pass near gzip -dc's time,
// with a lower peak memory; what is left is zlib's wait and stream plumbing,
// garbage, and this parsing.
// Then threads (robots index: ../../index/warc-index-threads.ts): a file gzipped per record
// is cut at member starts into ~256 KiB stretches, each inflated whole by a thread
// into a buffer it keeps (member-inflater.ts: no stream plumbing, no wait) and
// parsed here in place (wholeRecords: header names compared in place, not as
// strings), the captures encoded as shard records there; the main thread
// routes. With 2 threads the command beats gzip -dc. Each thread costs CPU to
// start and warm up its JIT, a third of it V8's compiler threads: on 2 cores
// the reading is CPU-bound, and a third thread gains nothing. (The figures, as
// measured when each step was made: docs/benchmarks.md, "Figures behind design
// choices".)
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { captureKey, type CaptureReadOptions, type WarcReadItem } from './warc-capture-read.js';
import { warcDateOf } from './warc-date.js';

/** A record up to this long (headers and block) is held whole; a longer one is streamed. */
export const HOLD = 4 << 20;
/** zlib's output chunk: 256 KiB, a quarter of the trips to the thread pool of warcio's 64 KiB,
 * inflates faster; 1 MiB, and 8 MiB of read-ahead between zlib and the parsing, changed nothing
 * measurable. (Damage is warcio's to judge.) */
const CHUNK = 256 << 10;
/** WARC or HTTP headers longer than this are left to warcio. */
const HEADERS_MAX = 256 << 10;
/** The read-ahead, and the first size of the buffer of unread octets, of a file this long or longer (a
 * smaller file is read whole in one read, as before). */
const READ_AHEAD = 1 << 20;
/** The least record buffer of a smaller file (it grows as records need). */
const SMALLEST_BUFFER = 16 << 10;

export type FastRecordItem =
  | WarcReadItem
  /** A whole record this reader leaves to warcio (its octets, a view: use before the next item); its record is counted. */
  | { kind: 'odd'; record: Uint8Array; offset: number }
  /** Read the file with warcio from uncompressed octet `offset` (a record's first) on, its first
   * `given` records (0 or 1: the last this reader gave) not given again. */
  | { kind: 'fallback'; offset: number; given: number };

const CRLFCRLF = Buffer.from('\r\n\r\n');
const WARC_NAMES = names(['warc-type', 'warc-target-uri', 'warc-date', 'content-length']);
const HTTP_NAMES = names(['location', 'content-encoding', 'transfer-encoding']);
/** What readRecord says of a record it does not read itself. */
const NEED = Symbol('need more octets');
const ODD = Symbol('odd');
const FRAMING = Symbol('framing');

/** A record longer than HOLD, being read as its octets come: its capture, the body kept so far. */
interface Streamed {
  /** The record's first octet, and its block's end, in the stream. */
  offset: number;
  blockEnd: number;
  /** Octets of the block still to come, and of the body still to keep. */
  left: number;
  keep: number;
  capture: Capture | null;
  kept: Buffer[];
  /** It is a response with a target URI (counted when it is read to its end). */
  response: boolean;
}

type Capture = WarcReadItem & { kind: 'capture' };

/**
 * Where a read begins other than at the file's start: at file octet `start` (for a gzip file a member's start), the
 * first octet of a record whose uncompressed offset is `base`; up to file octet `end` (none: the file's end), where a
 * member must end. When it ends as it should, `read` is set to the uncompressed octets read.
 */
export interface ReadFrom {
  start: number;
  base: number;
  end?: number;
  read?: number;
}

/** The captures of `file` in file order (see the file's comment), or of its part `from`. */
export async function* fastRecordCaptures(file: string, gzip: boolean, options: CaptureReadOptions, from?: ReadFrom): AsyncGenerator<FastRecordItem> {
  const start = from?.start ?? 0;
  const end = from?.end;
  // Buffers no larger than the file needs: a list's thousands of small files were each given a MiB of
  // read-ahead (twice: the read that finds the end too) and a MiB of record buffer, and collecting them
  // took much of a run. (zlib's output chunk stays CHUNK: where a damaged file's octets break into
  // chunks decides what is read before the damage, the same as warcio reads.)
  const span = Math.max(0, (end ?? statSync(file).size) - start);
  const stream = createReadStream(file, { highWaterMark: Math.max(1, Math.min(READ_AHEAD, span)), start, end: end === undefined ? undefined : end - 1 });
  let read = start;
  stream.on('data', (chunk) => {
    read += chunk.length;
    options.progress?.(read);
  });
  let source: Readable = stream;
  let gunzip: ReturnType<typeof createGunzip> | undefined;
  if (gzip) {
    gunzip = createGunzip({ chunkSize: CHUNK });
    stream.on('error', (e) => gunzip!.destroy(e));
    source = stream.pipe(gunzip);
  }
  const octets = new Octets(from?.base ?? 0, undefined, Math.min(READ_AHEAD, Math.max(SMALLEST_BUFFER, gzip ? 4 * span : span)));
  /** A long record whose block is coming, and one whose block came (its trailer to check). */
  let streamed: Streamed | null = null;
  let ended: Streamed | null = null;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let c = chunk;
      while (c.length > 0) {
        if (streamed !== null) {
          const take = Math.min(c.length, streamed.left);
          if (streamed.keep > 0) {
            const piece = c.subarray(0, Math.min(take, streamed.keep));
            streamed.kept.push(Buffer.from(piece));
            streamed.keep -= piece.length;
          }
          streamed.left -= take;
          c = c.subarray(take);
          if (streamed.left > 0) break;
          octets.restart(streamed.blockEnd);
          ended = streamed;
          streamed = null;
        }
        octets.append(c);
        c = EMPTY;
        if (ended !== null) {
          const trailer = trailerAt(octets, 0);
          if (trailer === NEED) break;
          if (trailer === FRAMING) return yield octets.fallback();
          octets.skip(4);
          yield* finished(ended, octets, options);
          ended = null;
        }
        for (const item of heldRecords(octets, options)) {
          if (item.kind === 'streamed') {
            streamed = item.streamed;
            c = Buffer.from(octets.takeRest()); // (a copy: the buffer is reused)
          } else {
            yield item;
            if (item.kind === 'fallback') return;
          }
        }
      }
    }
  } catch {
    // A gzip error, a read that fails: warcio reads from the first record not yet given (and
    // meets the same error), so what is given before it, and how it is trusted, are warcio's.
    stream.destroy();
    yield octets.fallback();
    return;
  }
  // At the end: the records left, then a record cut short (or what is no record) is warcio's to read.
  // (A part must end where a member ends: zlib passes over zeros after a member without a word.)
  if (end !== undefined && gunzip !== undefined && gunzip.bytesWritten !== end - start) return yield octets.fallback();
  octets.eof = true;
  const last = streamed ?? ended;
  if (last !== null) {
    if (streamed !== null || trailerAt(octets, 0) !== true) return yield octets.fallback();
    octets.skip(4);
    yield* finished(last, octets, options);
  }
  for (const item of heldRecords(octets, options)) {
    if (item.kind === 'streamed') return yield octets.fallback(); // (cannot be: the rest is short)
    yield item;
    if (item.kind === 'fallback') return;
  }
  if (octets.length > 0) return yield octets.fallback();
  if (octets.offset === 0) yield { kind: 'empty' };
  if (from !== undefined) from.read = octets.offset - from.base;
}

/**
 * The records of `inflated`, uncompressed octets of a WARC from a record's start to the end of one (a part of the
 * file inflated whole, `base` its first octet's offset): as fastRecordCaptures reads them, a record however long
 * read in place. A record cut short at its end (or octets that are no record) is a fallback.
 */
export function* wholeRecords(inflated: Buffer, base: number, options: CaptureReadOptions): Generator<FastRecordItem> {
  const octets = new Octets(base, inflated);
  for (const item of heldRecords(octets, options)) {
    if (item.kind === 'streamed') return yield octets.fallback(); // (cannot be: every record is held)
    yield item;
    if (item.kind === 'fallback') return;
  }
  if (octets.length > 0) yield octets.fallback();
}

const EMPTY = Buffer.alloc(0);

/** A long record read to its end: counted, and its capture with the body kept. */
function* finished(s: Streamed, octets: Octets, options: CaptureReadOptions): Generator<Capture> {
  options.counts.records++;
  octets.lastRecord = s.offset;
  if (s.response) options.counts.responses++;
  if (s.capture !== null) yield { ...s.capture, body: s.capture.body === null ? null : Buffer.concat(s.kept) };
}

/** The records whole in `octets`, read and passed over; then a record longer than HOLD to stream, or a fallback. */
function* heldRecords(octets: Octets, options: CaptureReadOptions): Generator<FastRecordItem | { kind: 'streamed'; streamed: Streamed }> {
  for (;;) {
    const offset = octets.offset;
    const r = readRecord(octets, options);
    if (r === NEED) return;
    if (r === FRAMING) return yield octets.fallback();
    if (r !== ODD && 'left' in r) return yield { kind: 'streamed', streamed: r }; // (counted when read to its end)
    options.counts.records++;
    octets.lastRecord = offset;
    if (r === ODD) {
      yield { kind: 'odd', record: octets.view(octets.consumed), offset };
      octets.skip(octets.consumed);
    } else {
      if (r.item !== null) yield r.item;
      octets.skip(octets.consumed);
    }
  }
}

/** At octets[at]: CRLFCRLF, then the next record ("WARC/") or the end of the stream. */
function trailerAt(octets: Octets, at: number): true | typeof NEED | typeof FRAMING {
  const have = octets.length - at;
  for (let i = 0; i < Math.min(have, TRAILER.length); i++) if (octets.byte(at + i) !== TRAILER[i]) return FRAMING;
  if (have >= TRAILER.length || (octets.eof && have === 4)) return true;
  return octets.eof ? FRAMING : NEED;
}

const TRAILER = Buffer.from('\r\n\r\nWARC/');

/**
 * The unread octets of the stream: a buffer that grows as chunks come, compacted as records are read.
 * `offset` is the stream offset of the first unread octet; `consumed` what readRecord took.
 */
class Octets {
  buf: Buffer;
  start = 0;
  end = 0;
  offset: number;
  consumed = 0;
  eof = false;
  /** A record up to this long is read in place (HOLD; all of them for octets held whole). */
  readonly hold: number;

  /** Octets to come from stream offset `base` (`size` octets of buffer to begin with); or `whole`, all there are. */
  constructor(
    private readonly base = 0,
    whole?: Buffer,
    size = READ_AHEAD,
  ) {
    this.offset = base;
    this.buf = whole ?? Buffer.allocUnsafe(size);
    this.end = whole?.length ?? 0;
    this.eof = whole !== undefined;
    this.hold = whole === undefined ? HOLD : Infinity;
  }

  get length(): number {
    return this.end - this.start;
  }

  byte(i: number): number {
    return this.buf[this.start + i];
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.end + chunk.length > this.buf.length) {
      const live = this.end - this.start;
      const size = Math.max(this.buf.length, 2 * (live + chunk.length));
      const next = size > this.buf.length ? Buffer.allocUnsafe(size) : this.buf;
      this.buf.copy(next, 0, this.start, this.end);
      this.buf = next;
      this.start = 0;
      this.end = live;
    }
    chunk.copy(this.buf, this.end);
    this.end += chunk.length;
  }

  /** Passes over n octets. */
  skip(n: number): void {
    this.start += n;
    this.offset += n;
  }

  /** A view of the next n octets. */
  view(n: number): Buffer {
    return this.buf.subarray(this.start, this.start + n);
  }

  /** The unread octets (a view), now taken. */
  takeRest(): Buffer {
    const rest = this.buf.subarray(this.start, this.end);
    this.offset += this.end - this.start;
    this.start = this.end;
    return rest;
  }

  /** The offset of the last record given (counted), -1 before the first. */
  lastRecord = -1;

  /** Warcio to read on from the last record given (see FastRecordItem). */
  fallback(): FastRecordItem {
    return this.lastRecord < 0 ? { kind: 'fallback', offset: this.base, given: 0 } : { kind: 'fallback', offset: this.lastRecord, given: 1 };
  }

  /** Empties it, the next octet being the stream's at `offset`. */
  restart(offset: number): void {
    this.start = 0;
    this.end = 0;
    this.offset = offset;
  }
}

/**
 * The record at the octets' start, read as warcio reads it (warcparser.ts,
 * statusandheaders.ts): its first line, then header lines up to the first
 * CRLFCRLF, Content-Length octets of block, then CRLFCRLF and the next
 * "WARC/" (or the end). For a request, a response and a revisit with a block,
 * the HTTP status line and header lines must end within the block (warcio
 * reads them past it). Says NEED when more octets must come first; sets
 * octets.consumed to the record's length with its CRLFCRLF.
 */
function readRecord(octets: Octets, options: CaptureReadOptions): { item: Capture | null } | Streamed | typeof NEED | typeof ODD | typeof FRAMING {
  const r = octets.buf.subarray(octets.start, octets.end);
  if (r.length < 5) return NEED;
  if (r[0] !== 0x57 || r[1] !== 0x41 || r[2] !== 0x52 || r[3] !== 0x43 || r[4] !== 0x2f) return FRAMING; // ("WARC/", compared in place)
  const firstEnd = r.indexOf(10);
  const headersEnd = firstEnd < 0 ? -1 : r.indexOf(CRLFCRLF, firstEnd + 1);
  if (headersEnd < 0) return r.length > HEADERS_MAX ? FRAMING : NEED;
  const block = headersEnd + 4;
  const warc = headerValues(r, firstEnd + 1, headersEnd + 2, WARC_NAMES);
  const length = warc === ODD ? oddLength(r, block) : warc.get('content-length');
  if (length === undefined || length === null || !/^[0-9]+$/.test(length)) return FRAMING;
  const end = block + Number(length);
  const held = end + 4 <= octets.hold;
  if (held) {
    // (Its trailer and the next record's "WARC/", or the end of the stream, must be here to tell.)
    const trailer = trailerAt(octets, end);
    if (trailer !== true) return trailer;
  }
  octets.consumed = end + 4;
  if (warc === ODD) return held ? ODD : FRAMING;
  const type = warc.get('warc-type');
  const http = type === 'response' || type === 'request' || (type === 'revisit' && end > block);
  // The HTTP status line and headers, as warcio looks for them (their end searched for after the status line).
  const statusEnd = http ? r.indexOf(10, block) : -1;
  if (http && statusEnd < 0) return r.length > block + HEADERS_MAX ? FRAMING : NEED;
  // (The status line made a string once: whether it is empty, then its code.)
  const statusPlain = statusEnd >= 0 && isPlain(r, block, statusEnd + 1);
  const statusLine = statusPlain ? r.toString('latin1', block, statusEnd + 1).trimEnd() : '';
  const emptyStatus = statusPlain && statusLine === '';
  const crlfcrlf = http && !emptyStatus ? r.indexOf(CRLFCRLF, statusEnd + 1) : -1;
  if (http && !emptyStatus && crlfcrlf < 0) return r.length > statusEnd + HEADERS_MAX ? FRAMING : NEED;
  const httpEnd = !http ? block : emptyStatus ? statusEnd + 1 : crlfcrlf + 4;
  if (httpEnd > end) return FRAMING;
  if (type === undefined) return held ? ODD : FRAMING; // (warcio says it is no WARC record)
  let capture: Capture | null = null;
  const url = warc.get('warc-target-uri') ?? '';
  const key = type === 'response' ? captureKey(url) : undefined;
  if (key !== undefined) {
    let status = 0;
    let location: string | null = null;
    if (!emptyStatus) {
      if (!statusPlain) return held ? ODD : FRAMING;
      const headers = headerValues(r, statusEnd + 1, httpEnd - 2, HTTP_NAMES);
      if (headers === ODD || headers.has('content-encoding') || headers.has('transfer-encoding')) return held ? ODD : FRAMING;
      const parts = statusLine.split(' ');
      status = Number(parts.length > 1 ? Number(parts[1]) : 0) || 0;
      location = headers.get('location') ?? null;
    }
    if (held) options.counts.responses++;
    const date = warcDateOf(warc.get('warc-date'));
    if (options.wants === undefined || options.wants(key, date)) {
      const ok = status >= 200 && status <= 299;
      const truncated = ok && end - httpEnd > options.maxOctets;
      const body = !ok ? null : held ? r.subarray(httpEnd, truncated ? httpEnd + options.maxOctets : end) : Buffer.alloc(0);
      capture = { kind: 'capture', url, key, date, status, location, body, truncated, offset: octets.offset };
    }
  }
  if (held) return { item: capture };
  // Longer than HOLD: what follows its HTTP headers is streamed (see fastRecordCaptures).
  const offset = octets.offset;
  octets.skip(httpEnd);
  const keep = capture?.body != null ? Math.min(options.maxOctets, end - httpEnd) : 0;
  return { offset, blockEnd: offset + end, left: end - httpEnd, keep, capture, kept: [], response: key !== undefined };
}

/** The Content-Length of WARC headers that are not plain lines, when it is one plain line of digits (else undefined). */
function oddLength(r: Buffer, block: number): string | undefined {
  const head = r.toString('latin1', 0, block);
  const m = /\r\ncontent-length:[ \t]*([0-9]+)[ \t]*\r\n/i.exec(head);
  if (m === null || /\r\ncontent-length:/i.test(head.slice(m.index + 2))) return undefined;
  return m[1];
}

/** Octets from..to are printable ASCII, HT, and CRLF only as a pair. */
function isPlain(r: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const k = AFTER_COLON[r[i]];
    if (k === PLAIN) continue;
    if (k === CR && r[i + 1] === 10 && i + 1 < to) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/** Header names asked for, as octets (lower case ASCII letters, '-': each a token, as undici's Headers takes a name). */
type Names = readonly (readonly [string, Buffer])[];
function names(list: string[]): Names {
  return list.map((n) => [n, Buffer.from(n, 'latin1')] as const);
}

/**
 * The values of `names` among the header lines from..to (each ended by CRLF), as
 * warcio's parse into a Headers gets them: a line without a colon passed over, the value
 * trimmed, an empty value dropped. ODD when a byte is not printable ASCII or HT (isPlain's
 * test), a line is a continuation, or a name asked for comes twice. One pass over the octets,
 * each line's end and first colon found by the same loop that checks its octets (a Buffer
 * indexOf per line and a second pass to check them cost more than the loop: a record has a
 * dozen short lines), and a line's name compared in place, never made a string.
 */
function headerValues(r: Buffer, from: number, to: number, wanted: Names): Map<string, string> | typeof ODD {
  const found = new Map<string, string>();
  // (Every caller's block ends with its last line's CRLF, so each line's scan stops at a CR before `to`.)
  if (to - from < 2 || r[to - 2] !== 13 || r[to - 1] !== 10) return ODD;
  for (let line = from; line < to; ) {
    if (r[line] === 32 || r[line] === 9) return ODD;
    let end = line;
    let k: number;
    while ((k = BEFORE_COLON[r[end]]) === PLAIN) end++;
    let colon = -1;
    if (k === COLON) {
      colon = end++;
      while ((k = AFTER_COLON[r[end]]) === PLAIN) end++;
    }
    if (k !== CR || r[end + 1] !== 10) return ODD;
    if (colon >= 0) {
      const name = nameAt(r, line, colon, wanted);
      if (name !== undefined) {
        const value = r.toString('latin1', colon + 1, end).trim();
        if (value !== '') {
          if (found.has(name)) return ODD;
          found.set(name, value);
        }
      }
    }
    line = end + 2;
  }
  return found;
}

/** A header line's octets by class, for headerValues' scans: printable ASCII and HT are PLAIN; the first colon ends
 * the name (COLON, then PLAIN in AFTER_COLON); CR may end the line; anything else makes the record odd. */
const PLAIN = 0;
const COLON = 1;
const CR = 2;
const BAD = 3;
const AFTER_COLON = new Uint8Array(256).fill(BAD);
AFTER_COLON.fill(PLAIN, 0x20, 0x7f);
AFTER_COLON[9] = PLAIN;
AFTER_COLON[13] = CR;
const BEFORE_COLON = AFTER_COLON.slice();
BEFORE_COLON[58] = COLON;

/** The name of `wanted` that octets from..to spell, in any case (undefined when none does). */
function nameAt(r: Buffer, from: number, to: number, wanted: Names): string | undefined {
  const n = to - from;
  next: for (const [name, octets] of wanted) {
    if (octets.length !== n) continue;
    for (let i = 0; i < n; i++) {
      const c = r[from + i];
      // (ASCII letters fold to lower case; '-' and the rest compare as they are.)
      if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== octets[i]) continue next;
    }
    return name;
  }
  return undefined;
}

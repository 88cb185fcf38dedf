// Where a WARC file gzipped per record (as WARC writers write them, Common
// Crawl's among them) can be cut into stretches that threads inflate apart:
// at the start of a gzip member (1f 8b 08, header flags that exist) whose
// first octets inflate to a WARC record's first line. A false start (those
// octets inside a member's data: a stored block holding a gzip body) is told
// later, never trusted: the stretch before it does not end on a member's end
// (../../index/warc-chunk-read.ts), and the file is read on from there in one stream.
import { readSync } from 'node:fs';
import { constants, inflateRawSync } from 'node:zlib';

/** Octets read at a time while looking for a member's start. */
const WINDOW = 64 << 10;
/** Octets of a candidate member inflated to see its record's first line (a deflate block's Huffman tables take a
 * few hundred at most). */
const PROBE = 4 << 10;
/** What the probe may inflate to: a member whose first 4 KiB inflate to more (a bomb's) is passed over. */
const PROBE_OUT = 1 << 20;
const WARC_LINE = /^WARC\/[0-9]+\.[0-9]+\r\n/;

/**
 * The offset of the first member start at or after `at` and before `limit` (the file's `size` at most) whose
 * octets inflate to a line "WARC/x.y" CRLF; -1 when there is none.
 */
export function memberStartAtOrAfter(fd: number, at: number, limit: number, size: number): number {
  const buf = Buffer.allocUnsafe(WINDOW + PROBE);
  const last = Math.min(limit, size);
  for (let from = at; from < last; from += WINDOW) {
    const n = readAt(fd, buf, from, Math.min(buf.length, size - from));
    const octets = buf.subarray(0, n);
    const scan = Math.min(WINDOW, last - from);
    for (let i = octets.indexOf(0x1f); i >= 0 && i < scan; i = octets.indexOf(0x1f, i + 1)) {
      if (octets[i + 1] === 0x8b && octets[i + 2] === 8 && i + 3 < n && (octets[i + 3] & 0xe0) === 0 && startsRecord(octets.subarray(i, i + PROBE))) return from + i;
    }
  }
  return -1;
}

/** Whether the octets (a member's first, maybe cut) inflate, as far as they go, to a WARC record's first line. Only
 * this member's data is inflated (what follows it, a damaged member say, is not this start's to judge). */
export function startsRecord(member: Uint8Array): boolean {
  const data = deflateStart(member);
  if (data < 0) return false;
  try {
    const head = inflateRawSync(member.subarray(data), { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: PROBE_OUT });
    return WARC_LINE.test(head.toString('latin1', 0, 32));
  } catch {
    return false; // (not deflate data, or a bomb's start: not a place to cut)
  }
}

/** Where a gzip member's deflate data begins, past its header (RFC 1952 2.3: FEXTRA, FNAME, FCOMMENT, FHCRC); -1 when
 * the octets are no gzip header or it does not end within them. */
function deflateStart(m: Uint8Array): number {
  if (m.length < 10 || m[0] !== 0x1f || m[1] !== 0x8b || m[2] !== 8 || (m[3] & 0xe0) !== 0) return -1;
  const flags = m[3];
  let at = 10;
  if (flags & 4) at += 2 + (m[10] | (m[11] << 8));
  for (const flag of [8, 16]) {
    if (flags & flag) {
      while (at < m.length && m[at] !== 0) at++;
      at++;
    }
  }
  if (flags & 2) at += 2;
  return at < m.length ? at : -1;
}

function readAt(fd: number, buf: Buffer, at: number, n: number): number {
  let done = 0;
  while (done < n) {
    const got = readSync(fd, buf, done, n - done, at + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

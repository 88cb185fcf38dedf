// The on-disk form of a robots index (`robots index`, read by
// `classify --robots-index`): one file per host shard, checked when read.
//
//   header   32 octets: "ROBOTSIX", u32 version, u32 shard, u32 shards,
//            u32 CRC-32 of the index id, u64 index id (also in the manifest:
//            a shard file of another run of `robots index` is told)
//   records  u32 length, the record (RECORD_FIXED octets, then the key, the
//            Location, why damaged, the body as served), u32 CRC-32 of it
//   directory  u32 hash of the key (keyHash), u64 the record's offset: sorted
//            by hash, to find a few keys (redirect targets) without reading the records
//   footer   32 octets: u64 directory offset, u32 records, u32 CRC-32 of the
//            directory, u32 CRC-32 of these 16 octets, 4 zero octets, "XIROBOTS"
//
// All numbers little-endian. A file cut short lacks its footer; any flipped
// octet fails a CRC; a file of another kind fails the magic.
import * as zlib from 'node:zlib';
import { urlOrigin } from '../../engine/robots-url.js';
import { shardOf } from '../hosts/shard.js';
import { hostHash } from '../hosts/host-hash.js';
import { BulkError } from '../base/errors.js';
import type { CaptureRead } from '../sources/warc/warc-capture-read.js';

export const SHARD_MAGIC = 'ROBOTSIX';
export const FOOTER_MAGIC = 'XIROBOTS';
export const FORMAT_VERSION = 1;
export const HEADER_OCTETS = 32;
export const FOOTER_OCTETS = 32;
export const DIRECTORY_ENTRY = 12;
/** date f64, status u16, flags u8 (1: Location, 2: damaged), 1 zero, then u32 lengths: key, Location, damaged, body. */
export const RECORD_FIXED = 28;
export const MANIFEST = 'index.json';

/** One capture as stored: what WarcCapture holds, with its URL, the body (its octets as served) alongside. */
export interface StoredCapture {
  key: string;
  date: number;
  status: number;
  location: string | null;
  damaged?: string;
  body: Uint8Array;
}

/** The shard a capture lives in: its URL's host's, by the hash --shard takes of a URL line's host
 * (so shard i of an index holds every robots.txt the URLs of shard i need, but redirect targets). */
export function captureShard(key: string, shards: number): number {
  const host = plainHost(key);
  if (host !== undefined) return shardOf(hostHash(host), shards);
  const origin = urlOrigin(key);
  return typeof origin === 'string' ? 0 : shardOf(hostHash(origin.host), shards);
}

/**
 * The host urlOrigin() gives of a key (captureKey's form: new URL()'s href) read from the string, for the
 * common form: http or https, no user info, no IPv6 literal (undefined otherwise: parsed): a thread of robots
 * index spent a measurable share of its CPU parsing each key a second time with new URL().
 */
function plainHost(key: string): string | undefined {
  const from = key.startsWith('https://') ? 8 : key.startsWith('http://') ? 7 : -1;
  if (from < 0) return undefined;
  const end = key.indexOf('/', from);
  if (end < 0) return undefined;
  const authority = key.slice(from, end);
  if (authority.includes('@') || authority.includes('[')) return undefined;
  const colon = authority.indexOf(':');
  const host = colon < 0 ? authority : authority.slice(0, colon);
  // (captureKey drops a trailing dot; a key made otherwise goes the long way.)
  return host === '' || (host.length > 1 && host.endsWith('.')) ? undefined : host;
}

/** The name of shard i of n. */
export function shardFileName(i: number, n: number): string {
  const w = Math.max(5, String(n - 1).length);
  return `shard-${String(i).padStart(w, '0')}-of-${String(n).padStart(w, '0')}.rix`;
}

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** zlib's own crc32 (Node 20.15+, 22.2+): a fifth of `robots index`'s time on the corpus ×10 was this file's
 * table loop over the records; zlib's takes a small part of that. */
const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 (zlib's). */
export function crc32(octets: Uint8Array, crc = 0): number {
  return zlibCrc32 !== undefined ? zlibCrc32(octets, crc) : crc32Table(octets, crc);
}

/** The same in JavaScript, for a Node 20 older than 20.15 (exported for the test that holds both equal). */
export function crc32Table(octets: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < octets.length; i++) c = CRC_TABLE[(c ^ octets[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** The 32-bit hash the directory is sorted by (FNV-1a of the key's UTF-16 units). */
export function keyHash(key: string): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) x = Math.imul(x ^ key.charCodeAt(i), 0x01000193);
  return x >>> 0;
}

export function encodeHeader(shard: number, shards: number, id: bigint): Buffer {
  const b = Buffer.alloc(HEADER_OCTETS);
  b.write(SHARD_MAGIC, 0, 'latin1');
  b.writeUInt32LE(FORMAT_VERSION, 8);
  b.writeUInt32LE(shard, 12);
  b.writeUInt32LE(shards, 16);
  b.writeBigUInt64LE(id, 24);
  b.writeUInt32LE(crc32(b.subarray(24, 32)), 20);
  return b;
}

export interface ShardHeader {
  version: number;
  shard: number;
  shards: number;
  id: bigint;
}

/** The header, or why the file is not a shard of a robots index (one line, without the file's name). */
export function decodeHeader(b: Uint8Array): ShardHeader {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.length);
  if (buf.length < HEADER_OCTETS || buf.toString('latin1', 0, 8) !== SHARD_MAGIC) {
    throw new BulkError('not a shard of a robots index (no ROBOTSIX header)');
  }
  const version = buf.readUInt32LE(8);
  if (version !== FORMAT_VERSION) throw new BulkError(`written in format version ${version}; this robots reads version ${FORMAT_VERSION}: index the WARCs again with this robots`);
  if (crc32(buf.subarray(24, 32)) !== buf.readUInt32LE(20)) throw new BulkError('damaged header (checksum mismatch)');
  return { version, shard: buf.readUInt32LE(12), shards: buf.readUInt32LE(16), id: buf.readBigUInt64LE(24) };
}

/** What a capture read from a WARC is stored as: a damaged capture's body, or a non-2xx's, is none. */
export function storedCapture(c: CaptureRead): StoredCapture {
  const body = c.damaged === undefined && c.body !== null ? c.body : NO_BODY;
  return { key: c.key, date: c.date, status: c.status, location: c.location, ...(c.damaged !== undefined ? { damaged: c.damaged } : {}), body };
}

const NO_BODY = new Uint8Array(0);

/** A record's octets, with its length and CRC (for writeRecord). */
export function recordOctets(c: StoredCapture): number {
  return 4 + RECORD_FIXED + Buffer.byteLength(c.key, 'utf8') + Buffer.byteLength(c.location ?? '', 'utf8') + Buffer.byteLength(c.damaged ?? '', 'utf8') + c.body.length + 4;
}

/** A record with its length before and its CRC after. */
export function encodeRecord(c: StoredCapture): Buffer {
  const octets = recordOctets(c);
  const b = Buffer.allocUnsafe(octets);
  writeRecord(c, b, 0, octets);
  return b;
}

/** The record of c written into b at `at`: its `octets` (recordOctets), the strings written in place (a thread of
 * robots index writes a record per capture: Buffer.from and copy for each string cost more than the body's copy). */
export function writeRecord(c: StoredCapture, b: Buffer, at: number, octets: number): void {
  const length = octets - 8;
  b.writeUInt32LE(length, at);
  b.writeDoubleLE(c.date, at + 4);
  b.writeUInt16LE(c.status & 0xffff, at + 12);
  b[at + 14] = (c.location !== null ? 1 : 0) | (c.damaged !== undefined ? 2 : 0);
  b[at + 15] = 0;
  let o = at + 4 + RECORD_FIXED;
  const key = b.write(c.key, o, 'utf8');
  o += key;
  const location = c.location === null || c.location === '' ? 0 : b.write(c.location, o, 'utf8');
  o += location;
  const damaged = c.damaged === undefined || c.damaged === '' ? 0 : b.write(c.damaged, o, 'utf8');
  o += damaged;
  b.writeUInt32LE(key, at + 16);
  b.writeUInt32LE(location, at + 20);
  b.writeUInt32LE(damaged, at + 24);
  b.writeUInt32LE(c.body.length, at + 28);
  b.set(c.body, o);
  b.writeUInt32LE(crc32(b.subarray(at + 4, at + 4 + length)), at + 4 + length);
}

/** A record's octets (between its length and its CRC, the CRC checked by the caller): the capture, or why it does not read. */
/** A record's capture without its body, which lies in its record's last bodyLength octets (what the reader keeps). */
export interface RecordHead {
  key: string;
  date: number;
  status: number;
  location: string | null;
  damaged?: string;
  bodyLength: number;
}

/** The record's capture but its body (decodeRecord's checks; no view of the body, no array of its lengths:
 * made for every record an index read holds). */
export function decodeRecordHead(r: Buffer): RecordHead {
  if (r.length < RECORD_FIXED) throw new BulkError('record too short');
  const flags = r[10];
  const keyLength = r.readUInt32LE(12);
  const locationLength = r.readUInt32LE(16);
  const damagedLength = r.readUInt32LE(20);
  const bodyLength = r.readUInt32LE(24);
  if (RECORD_FIXED + keyLength + locationLength + damagedLength + bodyLength !== r.length) throw new BulkError('record lengths do not add up');
  const locationAt = RECORD_FIXED + keyLength;
  const damagedAt = locationAt + locationLength;
  const head: RecordHead = {
    key: r.toString('utf8', RECORD_FIXED, locationAt),
    date: r.readDoubleLE(0),
    status: r.readUInt16LE(8),
    location: flags & 1 ? r.toString('utf8', locationAt, damagedAt) : null,
    bodyLength,
  };
  if (flags & 2) head.damaged = r.toString('utf8', damagedAt, damagedAt + damagedLength);
  return head;
}

export function decodeRecord(r: Buffer): StoredCapture {
  if (r.length < RECORD_FIXED) throw new BulkError('record too short');
  const flags = r.readUInt8(10);
  const lengths = [r.readUInt32LE(12), r.readUInt32LE(16), r.readUInt32LE(20), r.readUInt32LE(24)];
  if (RECORD_FIXED + lengths.reduce((a, b) => a + b, 0) !== r.length) throw new BulkError('record lengths do not add up');
  let at = RECORD_FIXED;
  const take = (n: number) => r.subarray(at, (at += n));
  const key = take(lengths[0]).toString('utf8');
  const location = take(lengths[1]).toString('utf8');
  const damaged = take(lengths[2]).toString('utf8');
  const body = take(lengths[3]);
  return {
    key,
    date: r.readDoubleLE(0),
    status: r.readUInt16LE(8),
    location: flags & 1 ? location : null,
    ...(flags & 2 ? { damaged } : {}),
    body,
  };
}

export function encodeFooter(directoryAt: number, records: number, directoryCrc: number): Buffer {
  const b = Buffer.alloc(FOOTER_OCTETS);
  b.writeBigUInt64LE(BigInt(directoryAt), 0);
  b.writeUInt32LE(records, 8);
  b.writeUInt32LE(directoryCrc, 12);
  b.writeUInt32LE(crc32(b.subarray(0, 16)), 16);
  b.write(FOOTER_MAGIC, 24, 'latin1');
  return b;
}

export interface ShardFooter {
  directoryAt: number;
  records: number;
  directoryCrc: number;
}

export function decodeFooter(b: Buffer, fileOctets: number): ShardFooter {
  if (b.toString('latin1', 24, 32) !== FOOTER_MAGIC) throw new BulkError('cut short (no footer: the file was not written to its end)');
  if (crc32(b.subarray(0, 16)) !== b.readUInt32LE(16)) throw new BulkError('damaged footer (checksum mismatch)');
  const directoryAt = Number(b.readBigUInt64LE(0));
  const records = b.readUInt32LE(8);
  if (directoryAt < HEADER_OCTETS || directoryAt + records * DIRECTORY_ENTRY + FOOTER_OCTETS !== fileOctets) {
    throw new BulkError('its length does not match its footer (cut short or padded)');
  }
  return { directoryAt, records, directoryCrc: b.readUInt32LE(12) };
}

/** The manifest (DIR/index.json): what a reader checks the shard files against. */
export interface IndexManifest {
  format: 'robots-index';
  version: number;
  /** Random, in every shard file's header too. */
  id: string;
  shards: number;
  /** --max-octets the bodies were cut to (null: Infinity). */
  maxOctets: number | null;
  created: string;
  sources: { path: string; octets: number }[];
  captures: number;
  files: { name: string; octets: number; captures: number }[];
}

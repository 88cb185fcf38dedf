// RobotsRecord as octets, for stores that keep strings of octets (Redis).
// Layout: 'R' 'W', format version, flags (bit 0: payload deflated), then the
// payload: u32 (little-endian) lengths of the metadata JSON and of the body
// (NO_BODY when there is none), the JSON, the body. The lengths must add up:
// a value cut short does not read.
// Anything else, or a record that does not check, decodes as undefined: a store
// ignores it and the next fetch replaces it.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { RobotsRecord } from './robots-store.js';

export const RECORD_FORMAT = 1;
const MAGIC0 = 0x52; // R
const MAGIC1 = 0x57; // W
const DEFLATED = 1;
const HEADER = 4;
/** Smaller bodies are stored as they are: deflate would save little. */
const COMPRESS_FROM = 256;
/** No record inflates past this (a body is at most maxBodyBytes, 500 KiB by default). */
const MAX_INFLATED = 64 << 20;
const NO_BODY = 0xffffffff;
const STATUSES = new Set(['ok', 'unavailable', 'unreachable']);

export function encodeRecord(record: RobotsRecord): Uint8Array {
  const { body, ...meta } = record;
  const json = Buffer.from(JSON.stringify(meta));
  const payload = Buffer.alloc(8 + json.length + (body?.length ?? 0));
  payload.writeUInt32LE(json.length, 0);
  payload.writeUInt32LE(body?.length ?? NO_BODY, 4);
  json.copy(payload, 8);
  if (body !== undefined) payload.set(body, 8 + json.length);
  let flags = 0;
  let stored: Uint8Array = payload;
  if ((body?.length ?? 0) >= COMPRESS_FROM) {
    const packed = deflateRawSync(payload);
    // Compressed only when that pays.
    if (packed.length < payload.length * 0.9) {
      stored = packed;
      flags |= DEFLATED;
    }
  }
  const out = Buffer.alloc(HEADER + stored.length);
  out[0] = MAGIC0;
  out[1] = MAGIC1;
  out[2] = RECORD_FORMAT;
  out[3] = flags;
  out.set(stored, HEADER);
  return out;
}

export function decodeRecord(octets: Uint8Array): RobotsRecord | undefined {
  if (!(octets instanceof Uint8Array) || octets.length < HEADER + 8) return undefined;
  if (octets[0] !== MAGIC0 || octets[1] !== MAGIC1 || octets[2] !== RECORD_FORMAT || (octets[3] & ~DEFLATED) !== 0) return undefined;
  try {
    let payload = Buffer.from(octets.buffer, octets.byteOffset + HEADER, octets.length - HEADER);
    if (octets[3] & DEFLATED) payload = inflateRawSync(payload, { maxOutputLength: MAX_INFLATED });
    if (payload.length < 8) return undefined;
    const length = payload.readUInt32LE(0);
    const bodyLength = payload.readUInt32LE(4);
    if (8 + length + (bodyLength === NO_BODY ? 0 : bodyLength) !== payload.length) return undefined;
    const meta: unknown = JSON.parse(payload.toString('utf8', 8, 8 + length));
    return checked(meta, bodyLength === NO_BODY ? undefined : new Uint8Array(payload.subarray(8 + length)));
  } catch {
    return undefined;
  }
}

/** The record if every field has its type; else undefined. */
function checked(meta: unknown, body: Uint8Array | undefined): RobotsRecord | undefined {
  if (meta === null || typeof meta !== 'object') return undefined;
  const m = meta as Record<string, unknown>;
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const optNum = (v: unknown) => v === undefined || num(v);
  if (typeof m.robotsUrl !== 'string' || typeof m.status !== 'string' || !STATUSES.has(m.status)) return undefined;
  if (typeof m.reason !== 'string' || typeof m.finalUrl !== 'string' || typeof m.stale !== 'boolean' || typeof m.reachedLimit !== 'boolean') return undefined;
  if (!num(m.fetchedAt) || !num(m.expiresAt) || !num(m.redirects) || !num(m.failures) || !optNum(m.httpStatus) || !optNum(m.unreachableSince)) return undefined;
  if ((m.status === 'ok') !== (body !== undefined)) return undefined;
  return {
    robotsUrl: m.robotsUrl,
    status: m.status as RobotsRecord['status'],
    httpStatus: m.httpStatus as number | undefined,
    reason: m.reason,
    fetchedAt: m.fetchedAt as number,
    expiresAt: m.expiresAt as number,
    stale: m.stale,
    finalUrl: m.finalUrl,
    redirects: m.redirects as number,
    reachedLimit: m.reachedLimit,
    unreachableSince: m.unreachableSince as number | undefined,
    failures: m.failures as number,
    body,
  };
}

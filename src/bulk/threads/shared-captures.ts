// The captures of a WARC index (--robots-warc, --robots-index) in shared
// memory, for the worker threads: one table the main thread writes once and
// every thread reads where it is. Handed over as a Map, the table was copied
// into each thread (a structured clone of every capture per thread, and each
// thread's heap then held and marked all of them at every full GC); a thread
// looks a capture up once per host it loads.
// Layout: a hash table of entry numbers (open addressing, FNV-1a of the key's
// UTF-8), each entry's fields in typed arrays, the strings' UTF-8 in a heap.
import type { WarcCapture, WarcIndexData } from '../sources/warc/warc-index.js';

/** What crosses to a thread: the buffer, and where each part of it is. */
export interface SharedCapturesData {
  spill: string | null;
  buffer: SharedArrayBuffer;
  count: number;
  slots: number;
  heapOctets: number;
}

/** Per entry: date and bodyAt (f64); status, bodyLength, then at/length of key, location, damage and why unavailable (i32; at -1: none). */
const F64 = 2;
const I32 = 10;
const [STATUS, BODY_LENGTH, KEY_AT, KEY_LEN, LOCATION_AT, LOCATION_LEN, DAMAGED_AT, DAMAGED_LEN, UNAVAILABLE_AT, UNAVAILABLE_LEN] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function fnv1a(octets: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ octets[i], 0x01000193);
  return h >>> 0;
}

/** The parts of the buffer, as views. */
function views(d: Omit<SharedCapturesData, 'spill'>): { f64: Float64Array; i32: Int32Array; table: Int32Array; heap: Uint8Array } {
  let at = 0;
  const f64 = new Float64Array(d.buffer, at, d.count * F64);
  at += f64.byteLength;
  const i32 = new Int32Array(d.buffer, at, d.count * I32);
  at += i32.byteLength;
  const table = new Int32Array(d.buffer, at, d.slots);
  at += table.byteLength;
  return { f64, i32, table, heap: new Uint8Array(d.buffer, at, d.heapOctets) };
}

/** The index's captures written into shared memory (once, by the main thread). */
export function shareCaptures(data: WarcIndexData): SharedCapturesData {
  const strings: Uint8Array[] = [];
  let heapOctets = 0;
  const add = (s: string): Uint8Array => {
    const octets = encoder.encode(s);
    strings.push(octets);
    heapOctets += octets.length;
    return octets;
  };
  const entries = [...data.captures];
  const keys = entries.map(([key]) => add(key));
  for (const [, c] of entries) {
    if (c.location !== null) add(c.location);
    if (c.damaged !== undefined) add(c.damaged);
    if (c.unavailable !== undefined) add(c.unavailable);
  }
  const count = entries.length;
  let slots = 16;
  while (slots < count * 2) slots *= 2;
  const size = count * (F64 * 8 + I32 * 4) + slots * 4 + heapOctets;
  const shared: Omit<SharedCapturesData, 'spill'> = { buffer: new SharedArrayBuffer(size), count, slots, heapOctets };
  const { f64, i32, table, heap } = views(shared);
  let at = 0;
  const put = (octets: Uint8Array, field: number, e: number): void => {
    heap.set(octets, at);
    i32[e * I32 + field] = at;
    i32[e * I32 + field + 1] = octets.length;
    at += octets.length;
  };
  let next = count; // (the strings after the keys: locations, damages and whys, in entry order)
  entries.forEach(([, c], e) => {
    f64[e * F64] = c.date;
    f64[e * F64 + 1] = c.bodyAt;
    i32[e * I32 + STATUS] = c.status;
    i32[e * I32 + BODY_LENGTH] = c.bodyLength;
    put(keys[e], KEY_AT, e);
    i32[e * I32 + LOCATION_AT] = -1;
    i32[e * I32 + DAMAGED_AT] = -1;
    i32[e * I32 + UNAVAILABLE_AT] = -1;
  });
  entries.forEach(([, c], e) => {
    if (c.location !== null) put(strings[next++], LOCATION_AT, e);
    if (c.damaged !== undefined) put(strings[next++], DAMAGED_AT, e);
    if (c.unavailable !== undefined) put(strings[next++], UNAVAILABLE_AT, e);
  });
  for (let e = 0; e < count; e++) {
    const key = keys[e];
    for (let s = fnv1a(key, 0, key.length) & (slots - 1); ; s = (s + 1) & (slots - 1)) {
      if (table[s] === 0) {
        table[s] = e + 1;
        break;
      }
    }
  }
  return { spill: data.spill, ...shared };
}

/**
 * A thread's view of the shared captures, as the Map that WarcRobots reads
 * (get and has; the table is read-only, and not iterated: a thread looks up).
 */
export class SharedCaptureMap extends Map<string, WarcCapture> {
  private readonly f64: Float64Array;
  private readonly i32: Int32Array;
  private readonly table: Int32Array;
  private readonly heap: Uint8Array;
  private readonly count: number;
  private key = new Uint8Array(256);

  constructor(data: SharedCapturesData) {
    super();
    ({ f64: this.f64, i32: this.i32, table: this.table, heap: this.heap } = views(data));
    this.count = data.count;
  }

  override get size(): number {
    return this.count;
  }

  override has(url: string): boolean {
    return this.find(url) >= 0;
  }

  override get(url: string): WarcCapture | undefined {
    const e = this.find(url);
    if (e < 0) return undefined;
    const { f64, i32 } = this;
    const q = e * I32;
    const capture: WarcCapture = {
      date: f64[e * F64],
      status: i32[q + STATUS],
      location: i32[q + LOCATION_AT] < 0 ? null : this.text(i32[q + LOCATION_AT], i32[q + LOCATION_LEN]),
      bodyAt: f64[e * F64 + 1],
      bodyLength: i32[q + BODY_LENGTH],
    };
    if (i32[q + DAMAGED_AT] >= 0) capture.damaged = this.text(i32[q + DAMAGED_AT], i32[q + DAMAGED_LEN]);
    if (i32[q + UNAVAILABLE_AT] >= 0) capture.unavailable = this.text(i32[q + UNAVAILABLE_AT], i32[q + UNAVAILABLE_LEN]);
    return capture;
  }

  override set(): this {
    throw new TypeError('the shared captures are read-only');
  }

  /** The entry of url, or -1. */
  private find(url: string): number {
    if (url.length * 3 > this.key.length) this.key = new Uint8Array(url.length * 3);
    const n = encoder.encodeInto(url, this.key).written;
    const { table, i32, heap, key } = this;
    const mask = table.length - 1;
    for (let s = fnv1a(key, 0, n) & mask; ; s = (s + 1) & mask) {
      const e = table[s] - 1;
      if (e < 0) return -1;
      if (i32[e * I32 + KEY_LEN] !== n) continue;
      const at = i32[e * I32 + KEY_AT];
      let k = 0;
      while (k < n && heap[at + k] === key[k]) k++;
      if (k === n) return e;
    }
  }

  private text(at: number, length: number): string {
    // (TextDecoder reads no shared memory: copied out first.)
    return decoder.decode(this.heap.slice(at, at + length));
  }
}

/** The index data a thread classifies with, over the shared captures. */
export function sharedIndexData(data: SharedCapturesData): WarcIndexData {
  return { spill: data.spill, captures: new SharedCaptureMap(data) };
}

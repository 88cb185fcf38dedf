// A shard's directory: its entries by the key's hash, then by offset (a key's captures in the order read), as the
// reader's binary search expects; held to a plain sort of the entries, with hashes that collide and that use the top
// bit, offsets past 2^32, and more entries than the packed sort key numbers (the comparator's way).
import { describe, expect, it } from 'vitest';
import { ShardDirectory } from '../../src/bulk/index/shard-directory.js';
import { DIRECTORY_ENTRY } from '../../src/bulk/index/robots-index-format.js';

/** The directory as the entries sorted plainly would write it. */
function plain(entries: { hash: number; at: number }[]): Buffer {
  const sorted = entries.map((e, i) => ({ ...e, i })).sort((a, b) => a.hash - b.hash || a.i - b.i);
  const b = Buffer.alloc(sorted.length * DIRECTORY_ENTRY);
  sorted.forEach((e, k) => {
    b.writeUInt32LE(e.hash, k * DIRECTORY_ENTRY);
    b.writeUInt32LE(e.at % 2 ** 32, k * DIRECTORY_ENTRY + 4);
    b.writeUInt32LE(Math.floor(e.at / 2 ** 32), k * DIRECTORY_ENTRY + 8);
  });
  return b;
}

/** n entries at rising offsets (from `base`), their hashes from a small pool (collisions) or any 32 bits. */
function entries(n: number, base: number, pool: number): { hash: number; at: number }[] {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const hashes = Array.from({ length: pool }, () => next());
  hashes.push(0, 0xffffffff, 0x80000000);
  const out: { hash: number; at: number }[] = [];
  let at = base;
  for (let i = 0; i < n; i++) {
    out.push({ hash: pool > 0 ? hashes[next() % hashes.length] : next(), at });
    at += 1 + (next() % 5000);
  }
  return out;
}

function written(list: { hash: number; at: number }[]): ShardDirectory {
  const d = new ShardDirectory();
  for (const e of list) d.add(e.hash, e.at);
  return d;
}

describe('a shard directory', () => {
  it('is empty with no entry', () => {
    expect(written([]).encode().length).toBe(0);
  });

  it('orders by hash, then offset, as a plain sort does (collisions, the top bit, offsets past 2^32)', () => {
    for (const [n, base, pool] of [[1, 0, 0], [300, 0, 7], [5000, 2 ** 32 - 100_000, 50], [20_000, 2 ** 40, 0]] as const) {
      const list = entries(n, base, pool);
      const d = written(list);
      expect(d.length).toBe(n);
      expect(d.encode().equals(plain(list))).toBe(true);
    }
  });

  it('orders more entries than the packed key numbers (2^21) by the comparator, the same way', () => {
    const n = 2 ** 21 + 3;
    const d = new ShardDirectory();
    const hashes = new Uint32Array(n);
    let seed = 7;
    for (let i = 0; i < n; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      hashes[i] = seed % 1000; // (collisions: most hashes have ~2,000 entries, which keep their order)
      d.add(hashes[i], 2 ** 32 + i * 3);
    }
    const b = d.encode();
    const offset = (k: number) => b.readUInt32LE(k * DIRECTORY_ENTRY + 4) + b.readUInt32LE(k * DIRECTORY_ENTRY + 8) * 2 ** 32;
    const seen = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const i = (offset(k) - 2 ** 32) / 3;
      if (b.readUInt32LE(k * DIRECTORY_ENTRY) !== hashes[i] || seen[i]++ > 0) throw new Error(`entry ${k} is not entry ${i}'s, or twice`);
      if (k > 0) {
        const [h0, h1] = [b.readUInt32LE((k - 1) * DIRECTORY_ENTRY), hashes[i]];
        if (h0 > h1 || (h0 === h1 && offset(k - 1) >= offset(k))) throw new Error(`entries ${k - 1} and ${k} out of order`);
      }
    }
  }, 120_000);
});

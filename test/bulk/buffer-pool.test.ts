// The spare buffers handed between threads (buffer-pool.ts): a request takes the smallest
// spare that holds it, so that a small one does not take the large spare a later large one needs.
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/bulk/base/buffer-pool.js';

describe('BufferPool', () => {
  it('gives the smallest spare that holds the octets asked for, and a fresh buffer when none does', () => {
    const pool = new BufferPool(4);
    const [big, small, mid] = [8 << 20, 2 << 20, 4 << 20].map((n) => new ArrayBuffer(n));
    for (const b of [big, small, mid]) pool.give(b);
    // (Compared by identity, told apart by size: a failed toBe would print the buffers.)
    const a = pool.take(1 << 16);
    expect([a.buffer === small, a.length]).toEqual([true, 1 << 16]);
    expect(pool.take(3 << 20).buffer === mid).toBe(true);
    expect(pool.take(5 << 20).buffer === big).toBe(true);
    const fresh = pool.take(1 << 16);
    expect([big, small, mid].some((b) => b === fresh.buffer)).toBe(false);
    expect(fresh.buffer.byteLength).toBe(2 << 20); // (the smallest made: most later blocks fit)
  });

  it('keeps no more spares than its size, and no empty or shared buffers', () => {
    const pool = new BufferPool(2);
    const kept = [new ArrayBuffer(1 << 20), new ArrayBuffer(1 << 20)];
    for (const b of [...kept, new ArrayBuffer(1 << 20), new ArrayBuffer(0), new SharedArrayBuffer(1 << 20)]) pool.give(b);
    const inKept = () => {
      const b = pool.take(1).buffer;
      return kept.some((k) => k === b);
    };
    expect([inKept(), inKept(), inKept()]).toEqual([true, true, false]);
  });
});

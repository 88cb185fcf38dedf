// The spare buffers handed between threads (buffer-pool.ts): a request takes the smallest
// spare that holds it, so that a small one does not take the large spare a later large one needs.
import { describe, expect, it } from 'vitest';
import { BufferPool } from '../../src/bulk/base/buffer-pool.js';

describe('BufferPool', () => {
  it('gives the smallest spare that holds the octets asked for, and a fresh buffer when none does', () => {
    const pool = new BufferPool(4);
    const [big, small, mid] = [8 << 20, 2 << 20, 4 << 20].map((n) => new ArrayBuffer(n));
    for (const b of [big, small, mid]) pool.give(b);
    const a = pool.take(1 << 16);
    expect(a.buffer).toBe(small);
    expect(a.length).toBe(1 << 16);
    expect(pool.take(3 << 20).buffer).toBe(mid);
    expect(pool.take(5 << 20).buffer).toBe(big);
    const fresh = pool.take(1 << 16);
    expect([big, small, mid]).not.toContain(fresh.buffer);
    expect(fresh.buffer.byteLength).toBe(2 << 20); // (the smallest made: most later blocks fit)
  });

  it('keeps no more spares than its size, and no empty or shared buffers', () => {
    const pool = new BufferPool(2);
    const kept = [new ArrayBuffer(1 << 20), new ArrayBuffer(1 << 20)];
    for (const b of [...kept, new ArrayBuffer(1 << 20), new ArrayBuffer(0), new SharedArrayBuffer(1 << 20)]) pool.give(b);
    expect(kept).toContain(pool.take(1).buffer);
    expect(kept).toContain(pool.take(1).buffer);
    expect(kept).not.toContain(pool.take(1).buffer);
  });
});

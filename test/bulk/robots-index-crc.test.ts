// The shard files' CRC-32: zlib's own where Node has it, the table loop otherwise; both must agree,
// or an index written by one Node would read as damaged on another.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Table } from '../../src/bulk/index/robots-index-format.js';

describe('robots index CRC-32', () => {
  it('is the standard CRC-32 (the check value of "123456789")', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32Table(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('gives the same value both ways, whole and continued piece by piece', () => {
    for (const n of [0, 1, 7, 64, 4096, 100_003]) {
      const b = randomBytes(n);
      expect(crc32(b)).toBe(crc32Table(b));
      const half = n >> 1;
      expect(crc32(b.subarray(half), crc32(b.subarray(0, half)))).toBe(crc32Table(b));
    }
  });
});

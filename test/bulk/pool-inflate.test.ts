// robots index's inflate on libuv's threadpool (pool-inflate.ts): the members of
// a stretch inflated as gunzipSync inflates them, into one output buffer kept
// from one stretch to the next (a fresh one a stretch made V8 collect far more
// often); past its limit TooLarge, a damaged member zlib's error, and the
// inflater goes on after either.
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PoolInflater } from '../../src/bulk/sources/warc/pool-inflate.js';
import { TooLarge } from '../../src/bulk/sources/warc/member-inflater.js';

/** Members of text that compresses about as WARC records do. */
function members(n: number, tag: string): Buffer {
  return Buffer.concat(Array.from({ length: n }, (_, k) => gzipSync(`WARC/1.1\r\nWARC-Target-URI: http://${tag}${k}.example/robots.txt\r\n\r\n${'Disallow: /x\n'.repeat(50 + k)}`)));
}

describe('PoolInflater', () => {
  it("inflates members as gunzipSync does, into the buffer it keeps (the next stretch's octets in the same memory)", async () => {
    const inflater = new PoolInflater(16 << 20);
    const a = members(40, 'a');
    const b = members(30, 'b');
    const first = await inflater.inflate(a);
    expect(first.octets.equals(gunzipSync(a))).toBe(true);
    expect(first.consumed).toBe(a.length);
    const second = await inflater.inflate(b);
    expect(second.octets.equals(gunzipSync(b))).toBe(true);
    expect(second.consumed).toBe(b.length);
    expect(second.octets.buffer === first.octets.buffer).toBe(true);
  });

  it('grows its buffer when a stretch inflates past it, and keeps the larger one', async () => {
    const inflater = new PoolInflater(64 << 20);
    // (Its first buffer: 1 MiB, or 6× the input; these members inflate some 500×.)
    const big = gzipSync(Buffer.alloc(5 << 20, 'x'));
    const r = await inflater.inflate(big);
    expect(r.octets.equals(gunzipSync(big))).toBe(true);
    const again = await inflater.inflate(big);
    expect(again.octets.equals(r.octets)).toBe(true);
    expect(again.octets.buffer === r.octets.buffer).toBe(true);
  });

  it('rejects with TooLarge past its limit and with zlib error on a damaged member; then inflates again', async () => {
    const inflater = new PoolInflater(1 << 20);
    await expect(inflater.inflate(gzipSync(Buffer.alloc(3 << 20)))).rejects.toBeInstanceOf(TooLarge);
    const ok = members(5, 'ok');
    expect((await inflater.inflate(ok)).octets.equals(gunzipSync(ok))).toBe(true);
    const damaged = Buffer.from(ok);
    damaged[30] ^= 0xff;
    await expect(inflater.inflate(damaged)).rejects.toThrow();
    expect((await inflater.inflate(ok)).octets.equals(gunzipSync(ok))).toBe(true);
    // Zeros after a member: zlib stops at them, and says so by the octets it took.
    const zeros = await inflater.inflate(Buffer.concat([ok, Buffer.alloc(8)]));
    expect(zeros.consumed).toBe(ok.length);
  });
});

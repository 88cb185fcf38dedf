// robots index's shard appends on libuv's threadpool (robots-index-writer.ts's
// ShardWriter): each shard's records in the order given, whatever the appends
// in flight; the octets being written bounded (room() waits while more than
// 8 MiB are); a records buffer told written only once its append is; an
// append's failure said by room() and finish(), never lost.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShardWriter } from '../../src/bulk/index/robots-index-writer.js';
import { decodeFooter, decodeRecord, FOOTER_OCTETS, HEADER_OCTETS } from '../../src/bulk/index/robots-index-format.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-appends-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const capture = (k: number) => ({ date: k, status: 200, location: null, bodyAt: 0, bodyLength: 0 });

describe('ShardWriter appends', () => {
  it("keeps each shard's records in order, bounds the octets in flight, and tells a record written only once it is", async () => {
    const files = [0, 1, 2].map((s) => path.join(dir, `order-${s}.rix`));
    const w = new ShardWriter(files, 7n);
    const released: Uint8Array[] = [];
    w.onReleased = (r) => released.push(r);
    const body = Buffer.alloc(64 << 10, 'x');
    let waited = 0;
    const given: Uint8Array[] = [];
    // 3 shards × 200 records of 64 KiB: 37.5 MiB, more than the 8 MiB the appends may hold at once.
    for (let k = 0; k < 600; k++) {
      given.push(body);
      w.add(k % 3, `http://h${k}.example/robots.txt`, capture(k), body)();
      const room = w.room();
      if (room !== undefined) {
        waited++;
        await room;
      }
    }
    expect(waited).toBeGreaterThan(0);
    await w.finish();
    await w.close();
    // (Each record is made by add(), a buffer of its own: all told written, none twice.)
    expect(new Set(released).size).toBe(released.length);
    expect(released.filter((r) => r.length > (64 << 10)).length).toBe(600);
    for (const [s, file] of files.entries()) {
      const b = readFileSync(file);
      expect(decodeFooter(b.subarray(b.length - FOOTER_OCTETS), b.length).records).toBe(200);
      expect(w.octets(s)).toBe(b.length);
      let at = HEADER_OCTETS;
      for (let i = 0; i < 200; i++) {
        const len = b.readUInt32LE(at);
        expect(decodeRecord(b.subarray(at + 4, at + 4 + len)).key).toBe(`http://h${3 * i + s}.example/robots.txt`);
        at += len + 8;
      }
    }
  }, 60_000);

  it("an append's failure (its directory gone) is said by room() or finish(), not lost", async () => {
    const gone = mkdtempSync(path.join(dir, 'gone-'));
    const w = new ShardWriter([path.join(gone, 'a.rix')], 1n);
    rmSync(gone, { recursive: true });
    const body = Buffer.alloc(1 << 20, 'y');
    const run = async () => {
      for (let k = 0; k < 40; k++) {
        w.add(0, `http://g${k}.example/robots.txt`, capture(k), body)();
        await w.room();
      }
      await w.finish();
    };
    await expect(run()).rejects.toThrow(/ENOENT/);
    await w.close();
  }, 60_000);
});

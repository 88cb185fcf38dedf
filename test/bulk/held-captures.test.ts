// robots index's hold on the captures just read (held-captures.ts, robots-index-writer.ts's ShardWriter):
// a damage marks the ones read in the SUSPECT_OCTETS before it, which must not have been written yet,
// and those written after being marked carry the mark in their shard record.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HeldCaptures } from '../../src/bulk/sources/warc/held-captures.js';
import { SUSPECT_OCTETS } from '../../src/bulk/sources/warc/warcio-captures.js';
import { ShardWriter } from '../../src/bulk/index/robots-index-writer.js';
import { decodeFooter, decodeRecord, FOOTER_OCTETS, HEADER_OCTETS } from '../../src/bulk/index/robots-index-format.js';
import type { WarcCapture } from '../../src/bulk/sources/warc/warc-index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-held-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('HeldCaptures', () => {
  it('hands on a capture once one read SUSPECT_OCTETS after it comes, in the order read', () => {
    const out: number[] = [];
    const held = new HeldCaptures();
    const step = SUSPECT_OCTETS / 4;
    for (let k = 0; k < 10; k++) held.add(k * step, {}, () => out.push(k));
    // Read at 9 steps: those before 5 steps (0..4) can no longer be marked.
    expect(out).toEqual([0, 1, 2, 3, 4]);
    held.release(Infinity);
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a damage marks the held captures read at or after its trustedBefore, and only those not marked already', () => {
    const held = new HeldCaptures();
    const captures: { damaged?: string }[] = Array.from({ length: 6 }, (_, k) => (k === 5 ? { damaged: 'cut short' } : {}));
    const seen: (string | undefined)[] = [];
    captures.forEach((c, k) => held.add(k * 1000, c, () => seen.push(c.damaged)));
    expect(held.markFrom(3000, 'read just before the damage')).toBe(2);
    held.release(Infinity);
    expect(seen).toEqual([undefined, undefined, undefined, 'read just before the damage', 'read just before the damage', 'cut short']);
  });
});

describe('ShardWriter', () => {
  it('a capture marked between its read and its writing is written marked, its body kept', async () => {
    const file = path.join(dir, 'shard.rix');
    const w = new ShardWriter([file], 1n);
    const capture: WarcCapture = { date: 1, status: 200, location: null, bodyAt: 0, bodyLength: 5 };
    const body = Buffer.from('hello');
    const handOn = w.add(0, 'http://a.example/robots.txt', capture, body);
    body.fill(0); // (the reader's buffer, reused)
    capture.damaged = 'read just before the damage in x.warc.gz';
    const other = w.add(0, 'http://b.example/robots.txt', { date: 2, status: 404, location: null, bodyAt: 0, bodyLength: 0 }, new Uint8Array(0));
    handOn();
    other();
    await w.finish();
    await w.close();
    const b = readFileSync(file);
    const footer = decodeFooter(b.subarray(b.length - FOOTER_OCTETS), b.length);
    expect(footer.records).toBe(2);
    const len = b.readUInt32LE(HEADER_OCTETS);
    const first = decodeRecord(b.subarray(HEADER_OCTETS + 4, HEADER_OCTETS + 4 + len));
    expect(first).toMatchObject({ key: 'http://a.example/robots.txt', status: 200, damaged: 'read just before the damage in x.warc.gz' });
    expect(Buffer.from(first.body).toString()).toBe('hello');
    expect(w.octets(0)).toBe(b.length);
  });
});

// robots index's threads read a WARC gzipped per record in stretches cut at
// gzip member starts (gzip-members.ts, warc-chunk-read.ts): a start is found at
// and across the scan's window edges, a false one (a gzip body that inflates to
// "WARC/", stored in a member's data) is found but never trusted (the stretch
// before it does not end on a member's end), a damaged member or zeros after a
// member make the stretch an anomaly, and a stretch's records are the fast
// reader's captures, encoded as the shard records robots index writes.
import { createHook } from 'node:async_hooks';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { urlOrigin } from '../../src/engine/robots-url.js';
import { shardOf } from '../../src/bulk/hosts/shard.js';
import { hostHash } from '../../src/bulk/hosts/host-hash.js';
import { captureKey } from '../../src/bulk/sources/warc/warc-capture-read.js';
import { memberStartAtOrAfter, startsRecord } from '../../src/bulk/sources/warc/gzip-members.js';
import { META, WarcChunkReader, INFLATED_MAX, type ChunkTask } from '../../src/bulk/index/warc-chunk-read.js';
import { MemberInflater, TooLarge } from '../../src/bulk/sources/warc/member-inflater.js';
import { captureShard, decodeRecord, encodeRecord, keyHash, storedCapture } from '../../src/bulk/index/robots-index-format.js';
import { readWarcCaptures, type CaptureRead } from '../../src/bulk/sources/warc/warc-captures.js';
import { serializeCapture, type Capture } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-stretches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);
const rules = (tag: string) => `User-agent: *\nDisallow: /private-${tag}\n`;

/** Members of the records (gzip per record, as warcio writes them), and where each begins. */
async function members(captures: Capture[]): Promise<{ octets: Buffer; starts: number[] }> {
  const parts = await Promise.all(captures.map((c) => serializeCapture(c, true)));
  const starts: number[] = [];
  let o = 0;
  for (const p of parts) {
    starts.push(o);
    o += p.length;
  }
  return { octets: Buffer.concat(parts), starts };
}

/** A record's member stored (deflate level 0: its octets appear as they are) and exactly `octets` long. */
async function storedMemberOf(octets: number, tag: string): Promise<Buffer> {
  // (Stored, a member is its data and a few octets a block: a body n octets shorter makes it about n shorter.)
  for (let n = octets, tries = 0; tries < 20; tries++) {
    const record = await serializeCapture({ url: `http://pad-${tag}.example/robots.txt`, body: 'x'.repeat(n) }, false);
    const member = gzipSync(record, { level: 0 });
    if (member.length === octets) return member;
    n -= member.length > octets ? Math.max(1, member.length - octets) : -1;
  }
  throw new Error(`no member of ${octets} octets`);
}

function fileOf(name: string, octets: Buffer): { file: string; fd: number; size: number } {
  const file = at(name);
  writeFileSync(file, octets);
  return { file, fd: openSync(file, 'r'), size: octets.length };
}

/** Octets that do not compress (a stored block keeps a gzip inside them as it is). */
function noise(n: number): string {
  let x = 12345;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += String.fromCharCode(33 + ((x >>> 16) % 90));
  }
  return out;
}

const CAPTURES: Capture[] = Array.from({ length: 30 }, (_, k) =>
  k % 7 === 3 ? { url: `http://h${k}.example/robots.txt`, status: 301, headers: { Location: `https://h${k}.example/robots.txt` } } : { url: `http://h${k}.example/robots.txt`, body: rules(`h${k}`) },
);

describe('gzip member starts', () => {
  it('finds each member start: at it, and from any octet before it', async () => {
    const { octets, starts } = await members(CAPTURES);
    const { fd, size } = fileOf('plain-members.warc.gz', octets);
    try {
      for (let k = 0; k < starts.length; k++) {
        expect(memberStartAtOrAfter(fd, starts[k], size, size)).toBe(starts[k]);
        if (k > 0) expect(memberStartAtOrAfter(fd, starts[k - 1] + 1, size, size)).toBe(starts[k]);
      }
      expect(memberStartAtOrAfter(fd, starts.at(-1)! + 1, size, size)).toBe(-1);
      // Not at or past the limit.
      expect(memberStartAtOrAfter(fd, starts[1] + 1, starts[2], size)).toBe(-1);
      expect(memberStartAtOrAfter(fd, starts[1] + 1, starts[2] + 1, size)).toBe(starts[2]);
    } finally {
      closeSync(fd);
    }
  });

  it('finds a member start at the edges of its 64 KiB read window (the probe reads past the window)', async () => {
    for (const edge of [65535, 65536, 65537, 2 * 65536 - 3]) {
      const pad = await storedMemberOf(edge, `e${edge}`);
      const { octets } = await members(CAPTURES.slice(0, 3));
      const { fd, size } = fileOf(`edge-${edge}.warc.gz`, Buffer.concat([pad, octets]));
      try {
        expect(memberStartAtOrAfter(fd, 1, size, size)).toBe(edge);
        expect(memberStartAtOrAfter(fd, edge, size, size)).toBe(edge);
        expect(memberStartAtOrAfter(fd, edge - 1, size, size)).toBe(edge);
      } finally {
        closeSync(fd);
      }
    }
  });

  it('a gzip body that inflates to "WARC/", stored in a member, is found as a start: startsRecord cannot tell it', async () => {
    // (Longer than the probe's 4 KiB: a short one is told by the octets after it, which are no member.)
    const inner = gzipSync(await serializeCapture({ url: 'http://inner.example/robots.txt', body: noise(8000) }, false));
    const outer = gzipSync(await serializeCapture({ url: 'http://outer.example/robots.txt', body: inner, headers: { 'Content-Type': 'application/gzip' } }, false), { level: 0 });
    const falseStart = outer.indexOf(inner);
    expect(falseStart).toBeGreaterThan(0);
    expect(startsRecord(inner)).toBe(true);
    const { fd, size } = fileOf('false-start.warc.gz', Buffer.concat([outer, (await members(CAPTURES.slice(0, 2))).octets]));
    try {
      expect(memberStartAtOrAfter(fd, 1, size, size)).toBe(falseStart);
    } finally {
      closeSync(fd);
    }
  });

  it('passes over 1f 8b 08 that is no member, and a member of something else', async () => {
    const { octets, starts } = await members(CAPTURES.slice(0, 2));
    const junk = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 0x1f, 0x8b, 0x08, 0xe0, 0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
    const other = gzipSync('not a WARC record\r\n');
    const { fd, size } = fileOf('junk.warc.gz', Buffer.concat([junk, other, octets]));
    try {
      expect(memberStartAtOrAfter(fd, 0, size, size)).toBe(junk.length + other.length + starts[0]);
    } finally {
      closeSync(fd);
    }
  });
});

/** The stretch read by `reader`, inflated on this thread or (`ahead`) on libuv's threadpool first, as the main thread
 * reads it. */
function readStretch(reader: WarcChunkReader, task: ChunkTask, ahead: boolean) {
  return ahead ? reader.read(task, reader.inflateAhead(task)) : reader.read(task);
}

describe.each([false, true])('a stretch read by a thread (inflated ahead on the threadpool: %s)', (ahead) => {
  const options = (maxOctets = Infinity) => ({ maxOctets, counts: { records: 0, responses: 0 } });

  async function fastCaptures(file: string, maxOctets = Infinity): Promise<CaptureRead[]> {
    const out: CaptureRead[] = [];
    for await (const item of readWarcCaptures(file, options(maxOctets))) {
      if (item.kind === 'capture') out.push({ ...item, body: item.body === null ? null : Buffer.from(item.body) });
    }
    return out;
  }

  it("holds the one reader's captures of its records as shard records, offsets from the stretch's start", async () => {
    const { octets, starts } = await members(CAPTURES);
    const { file, fd } = fileOf('stretch.warc.gz', octets);
    closeSync(fd);
    for (const maxOctets of [Infinity, 20]) {
      const whole = await fastCaptures(file, maxOctets);
      const reader = new WarcChunkReader(8, maxOctets);
      // Stretches of 1, 4 and the rest of the members.
      const cuts = [0, starts[1], starts[5], octets.length];
      let base = 0;
      let k = 0;
      for (let s = 0; s + 1 < cuts.length; s++) {
        const read = await readStretch(reader, { seq: s, file, start: cuts[s], end: cuts[s + 1] }, ahead);
        expect(read.anomaly).toBeUndefined();
        let o = 0;
        for (let i = 0; i < read.captures; i++, k++) {
          const m = i * META;
          const c = whole[k];
          expect(base + read.meta[m]).toBe(c.offset);
          expect(read.meta[m + 1]).toBe(captureShard(c.key, 8));
          expect(read.meta[m + 2]).toBe(keyHash(c.key));
          const record = Buffer.from(read.records.subarray(o, o + read.meta[m + 3]));
          expect(record).toEqual(encodeRecord(storedCapture(c)));
          o += read.meta[m + 3];
        }
        expect(read.notes.filter((n) => n.truncated).length).toBe(whole.slice(k - read.captures, k).filter((c) => c.truncated).length);
        base += read.length;
        reader.spare(read.records.buffer as ArrayBuffer); // (filled again by the next stretch)
      }
      expect(k).toBe(whole.length);
      expect(decodeRecord(encodeRecord(storedCapture(whole[0])).subarray(4, -4)).key).toBe('http://h0.example/robots.txt');
    }
  });

  it('is an anomaly when it ends inside a member (a false start), a member is damaged, or zeros follow a member', async () => {
    const { octets, starts } = await members(CAPTURES.slice(0, 6));
    const reader = new WarcChunkReader(4, Infinity);
    const { file, fd } = fileOf('anomalies.warc.gz', octets);
    closeSync(fd);
    expect((await readStretch(reader, { seq: 0, file, start: 0, end: starts[2] - 1 }, ahead)).anomaly).toMatch(/unexpected end of file/);
    const damaged = Buffer.from(octets);
    damaged[starts[3] + 20] ^= 0xff;
    const bad = fileOf('damaged.warc.gz', damaged);
    closeSync(bad.fd);
    expect((await readStretch(reader, { seq: 1, file: bad.file, start: starts[2], end: octets.length }, ahead)).anomaly).toBeDefined();
    // The stretch before the damaged member reads (the reader goes on after an error).
    expect((await readStretch(reader, { seq: 2, file: bad.file, start: 0, end: starts[3] }, ahead)).anomaly).toBeUndefined();
    const zeros = fileOf('zeros.warc.gz', Buffer.concat([octets.subarray(0, starts[2]), Buffer.alloc(8), octets.subarray(starts[2])]));
    closeSync(zeros.fd);
    expect((await readStretch(reader, { seq: 3, file: zeros.file, start: 0, end: starts[2] + 8 }, ahead)).anomaly).toMatch(/after a member/);
    // A stretch that begins at a member that is no record: left to the one reader (warcio's, which says what it is).
    const foreign = gzipSync('not a WARC record\r\n\r\n');
    const odd = fileOf('foreign.warc.gz', Buffer.concat([foreign, octets]));
    closeSync(odd.fd);
    expect((await readStretch(reader, { seq: 4, file: odd.file, start: 0, end: foreign.length + starts[2] }, ahead)).anomaly).toMatch(/not read alone/);
    expect((await readStretch(reader, { seq: 5, file: odd.file, start: foreign.length, end: foreign.length + starts[2] }, ahead)).anomaly).toBeUndefined();
  });

  it('reads a stretch inflated whole without a promise per record (a plain loop: its work does not grow with them)', async () => {
    const many: Capture[] = Array.from({ length: 400 }, (_, k) => ({ url: `http://p${k}.example/robots.txt`, body: rules(`p${k}`) }));
    const { octets } = await members(many);
    const { file, fd } = fileOf('promises.warc.gz', octets);
    closeSync(fd);
    const reader = new WarcChunkReader(4, Infinity);
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) });
    hook.enable();
    let read;
    try {
      read = await readStretch(reader, { seq: 0, file, start: 0, end: octets.length }, ahead);
    } finally {
      hook.disable();
    }
    expect(read.anomaly).toBeUndefined();
    expect(read.captures).toBe(400);
    // (`for await` over the records' generator made several a record: over 1,000 here.)
    expect(promises).toBeLessThan(40);
  });

  it('a stretch inflating past INFLATED_MAX is read as a stream, the same records', async () => {
    const body = 'Disallow: /x\n'.repeat(Math.ceil((INFLATED_MAX + (1 << 20)) / 13));
    const { octets, starts } = await members([{ url: 'http://big.example/robots.txt', body }, ...CAPTURES.slice(0, 3)]);
    const { file, fd } = fileOf('big.warc.gz', octets);
    closeSync(fd);
    expect(() => new MemberInflater(INFLATED_MAX).inflate(octets)).toThrow(TooLarge);
    const reader = new WarcChunkReader(4, 1000);
    const read = await readStretch(reader, { seq: 0, file, start: 0, end: octets.length }, ahead);
    expect(read.anomaly).toBeUndefined();
    expect(read.captures).toBe(4);
    expect(read.notes).toEqual([{ capture: 0, key: 'http://big.example/robots.txt', truncated: true }]);
    expect(read.meta[META]).toBeGreaterThan(INFLATED_MAX); // (the second record's offset)
    expect(starts.length).toBe(4);
  });
});

describe("a capture's shard, its host read from the key", () => {
  const parsed = (key: string, n: number) => {
    const origin = urlOrigin(key);
    return typeof origin === 'string' ? 0 : shardOf(hostHash(origin.host), n);
  };
  it('is the shard of the host urlOrigin() parses, whatever the URL', () => {
    const urls = [
      'http://Example.COM/robots.txt', 'https://example.com:8443/robots.txt', 'http://example.com:80/robots.txt', 'http://user:pw@example.com/robots.txt',
      'http://[::1]:8080/robots.txt', 'http://[2001:db8::1]/robots.txt', 'http://example.com./robots.txt', 'http://bücher.example/robots.txt',
      'http://xn--bcher-kva.example/robots.txt', 'http://127.0.0.1/robots.txt', 'http://0x7f.1/robots.txt', 'ftp://example.com/robots.txt',
      'foo://Example.com/robots.txt', 'http://example.com/robots.txt#frag', 'http://example.com/a#b@c/', 'https://a.b.c.d.example/x?y=1',
      'http://%65xample.com/robots.txt', 'http://.../robots.txt', 'http://a./robots.txt', 'http://./robots.txt', 'file:///etc/robots.txt',
    ];
    for (const url of urls) {
      const key = captureKey(url);
      if (key === undefined) continue;
      for (const n of [1, 16, 1000]) expect(captureShard(key, n), key).toBe(parsed(key, n));
    }
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.integer({ min: 1, max: 65536 }), (url, n) => {
        const key = captureKey(url);
        return key === undefined || captureShard(key, n) === parsed(key, n);
      }),
      { numRuns: 2000 },
    );
  });
});

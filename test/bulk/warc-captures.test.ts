// The fast WARC reader (warc-fast-records.ts) against warcio (warcio-captures.ts),
// the judge: on every WARC file here, written by warcio in the three layouts
// (plain, gzip per record, the whole file gzipped), cut short anywhere, damaged,
// or with garbage around, both yield the same captures (URL, date, status,
// Location, body cut to maxOctets, cut or damaged), the same damage and the same
// counts; and the records the fast reader leaves to warcio (encoded payloads,
// headers that are not plain ASCII) or streams (longer than HOLD) are among them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWarcCaptures, type CaptureReadOptions } from '../../src/bulk/sources/warc/warc-captures.js';
import { HOLD, wholeRecords } from '../../src/bulk/sources/warc/warc-fast-records.js';
import { serializeCapture, writeWarc, type Capture, type WarcLayout } from '../helpers/warc-files.js';
import { propertySeed } from '../helpers/seed.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-captures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);
const rules = (tag: string) => `User-agent: *\nDisallow: /private-${tag}\n`;
const chunked = (body: string) => `${(5).toString(16)}\r\n${body.slice(0, 5)}\r\n${(body.length - 5).toString(16)}\r\n${body.slice(5)}\r\n0\r\n\r\n`;

const CAPTURES: Capture[] = [
  { url: 'http://ok.example/robots.txt', body: rules('ok') },
  { url: 'https://tls.example/robots.txt', body: rules('tls'), date: '2024-02-01T00:00:00Z' },
  { url: 'http://empty.example/robots.txt', status: 204 },
  { url: 'http://gzip.example/robots.txt', body: gzipSync(rules('gzip')), headers: { 'Content-Encoding': 'gzip' } },
  { url: 'http://deflate.example/robots.txt', body: deflateSync(rules('deflate')), headers: { 'Content-Encoding': 'deflate' } },
  { url: 'http://chunked.example/robots.txt', body: chunked(rules('chunked')), headers: { 'Transfer-Encoding': 'chunked' } },
  { url: 'http://gone.example/robots.txt', status: 404, body: 'not found' },
  { url: 'http://down.example/robots.txt', status: 503 },
  { url: 'http://moved.example/robots.txt', status: 301, headers: { Location: 'https://www.moved.example/robots.txt' } },
  { url: 'http://spaced.example/robots.txt', status: 302, headers: { Location: '   /elsewhere.txt   ' } },
  { url: 'http://often.example/robots.txt', body: rules('newest'), date: '2024-03-01T00:00:00Z' },
  { url: 'http://often.example/robots.txt', body: rules('oldest'), date: '2023-01-01T00:00:00Z' },
  { url: 'http://baddate.example/robots.txt', body: rules('baddate'), date: 'not a date' },
  { url: 'http://ok.example/robots.txt', type: 'request' },
  { url: 'http://other.example/robots.txt', type: 'metadata', body: 'x' },
  { url: 'http://revisit.example/robots.txt', type: 'revisit' },
  { url: 'http://info.example/', type: 'warcinfo', body: 'software: test\r\n' },
  { url: 'http://ok.example/page.html', body: 'User-agent: *\nDisallow: /\n' },
  { url: 'http://bíen.example/robots.txt', body: rules('idn') }, // (a target URI that is not ASCII: warcio's)
  { url: 'http://latin.example/robots.txt', body: rules('latin'), headers: { 'X-Note': 'caf\u00e9' } },
  { url: 'http://long.example/robots.txt', body: `${rules('long')}${'#'.repeat(3000)}\n` },
  { url: 'not a url', body: rules('nourl') },
];

/** The items of a file as a reader yields them, bodies as text (so a difference reads). */
async function items(file: string, reader: 'auto' | 'warcio', options: Partial<CaptureReadOptions> = {}) {
  const counts = { records: 0, responses: 0 };
  const out: unknown[] = [];
  for await (const item of readWarcCaptures(file, { maxOctets: 100, counts, ...options }, reader)) {
    out.push(item.kind === 'capture' ? { ...item, body: item.body === null ? null : Buffer.from(item.body).toString('latin1') } : item);
  }
  return { items: out, counts };
}

async function same(file: string, options: Partial<CaptureReadOptions> = {}) {
  const fast = await items(file, 'auto', options);
  const judge = await items(file, 'warcio', options);
  expect(fast, file).toEqual(judge);
  return fast;
}

const LAYOUTS: WarcLayout[] = ['plain', 'gzip-records', 'gzip-whole'];

describe('the fast WARC reader reads as warcio does', () => {
  const whole: Record<string, Buffer> = {};
  beforeAll(async () => {
    for (const layout of LAYOUTS) whole[layout] = await writeWarc(at(`all-${layout}.warc`), CAPTURES, layout);
  });

  for (const layout of LAYOUTS) {
    it(`every record kind, status, encoding and header (${layout}), bodies cut to maxOctets or not`, async () => {
      for (const maxOctets of [100, 512000, 10]) {
        const r = await same(at(`all-${layout}.warc`), { maxOctets });
        expect(r.counts).toEqual({ records: CAPTURES.length, responses: CAPTURES.filter((c) => (c.type ?? 'response') === 'response').length - 1 });
      }
      // The latest-wins filter: a capture refused is neither read nor yielded.
      const r = await same(at(`all-${layout}.warc`), { wants: (key) => !key.includes('often') });
      expect(JSON.stringify(r.items)).not.toContain('often');
    });

    // The whole file gzipped too: a cut there is the inflater's error in the middle of a record,
    // which once hung the read for ever (warcio's skip of the record's rest looped on the ended
    // stream as a chain of promises, e.g. at 2,294 of this file's octets: no timer here could
    // fire; test/cli/warc-limits.test.ts reads such cuts in a child killed after seconds).
    it(`cut short anywhere (${layout}): the same captures, damage and counts`, async () => {
      const octets = whole[layout];
      const cuts = new Set<number>([1, 3, 5, 9, 10, 11, 100]);
      for (let k = 1; k < 60; k++) cuts.add(Math.floor((octets.length * k) / 60));
      if (layout === 'gzip-whole') for (let cut = 2200; cut < 2400; cut += 7) cuts.add(cut);
      for (const cut of [...cuts].filter((c) => c < octets.length)) {
        writeFileSync(at('cut.warc'), octets.subarray(0, cut));
        const r = await same(at('cut.warc'));
        // (One octet does not say gzip yet: the file is read as plain, and holds no record.)
        if (layout === 'gzip-whole' && cut >= 2) expect(r.items.filter((i) => (i as { kind: string }).kind === 'damage'), `cut at ${cut}`).toHaveLength(1);
      }
    }, 60_000);
  }

  it('garbage: not a WARC file, garbage after the records, between them, gzip of garbage, a damaged member', async () => {
    const plain = whole.plain;
    const records = whole['gzip-records'];
    const cases: [string, Uint8Array][] = [
      ['text', Buffer.from('this is not a WARC file\n'.repeat(10))],
      ['binary', Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256))],
      ['gzip-text', gzipSync('this is not a WARC file\n'.repeat(10))],
      ['after-plain', Buffer.concat([plain, Buffer.from('trailing garbage\r\n')])],
      ['after-gzip', Buffer.concat([records, Buffer.from('trailing garbage')])],
      ['between', Buffer.concat([plain.subarray(0, plain.indexOf('WARC/1.1', 10)), Buffer.from('garbage line\r\n'), plain.subarray(plain.indexOf('WARC/1.1', 10))])],
      ['blank-lines', Buffer.concat([plain.subarray(0, plain.indexOf('WARC/1.1', 10)), Buffer.from('\r\n\r\n'), plain.subarray(plain.indexOf('WARC/1.1', 10))])],
      ['empty', Buffer.alloc(0)],
    ];
    const damaged = Buffer.from(records);
    for (let k = damaged.length - 300; k < damaged.length - 280; k++) damaged[k] ^= 0x5a;
    cases.push(['damaged', damaged]);
    for (const [name, octets] of cases) {
      writeFileSync(at(`${name}.warc`), octets);
      await same(at(`${name}.warc`));
    }
  });

  for (const layout of ['plain', 'gzip-records'] as const) {
    it(`a record longer than HOLD (${layout}) is streamed: its body cut to maxOctets, the records after it read`, async () => {
      const big = `${rules('big')}${'#'.repeat(HOLD + 1000)}\n`;
      const captures: Capture[] = [
        { url: 'http://before.example/robots.txt', body: rules('before') },
        { url: 'http://big.example/robots.txt', body: big },
        { url: 'http://big-404.example/robots.txt', status: 404, body: big },
        { url: 'http://after.example/robots.txt', body: rules('after') },
      ];
      const octets = await writeWarc(at(`big-${layout}.warc`), captures, layout);
      for (const maxOctets of [100, 500000, Infinity]) {
        const r = await same(at(`big-${layout}.warc`), { maxOctets });
        expect(r.items.map((i) => (i as { key: string }).key)).toEqual(captures.map((c) => c.url));
      }
      // Cut inside the long record, and in the one after it.
      for (const cut of [octets.length - 100, Math.floor(octets.length / 2)]) {
        writeFileSync(at('big-cut.warc'), octets.subarray(0, cut));
        await same(at('big-cut.warc'));
      }
    });
  }

  // Header lines at their edges, written by hand (warcio writes none of them): the fast reader's one pass over a
  // header block (its lines' ends, colons and octets found together) takes and leaves what warcio does.
  it('header lines at their edges: a lone CR or LF, controls, HT, continuations, lines without a colon, duplicates', async () => {
    const record = (n: number, warcHeaders: string, http: string, body = 'User-agent: *\nDisallow: /x\n') => {
      const block = `${http}${body}`;
      return `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://h${n}.example/robots.txt\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n` +
        `${warcHeaders}Content-Length: ${Buffer.byteLength(block, 'latin1')}\r\n\r\n${block}\r\n\r\n`;
    };
    const ok = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n';
    const cases: [string, string][] = [
      ['', ok],
      ['X-Note: a\tb\r\n', ok],
      ['X-Note:\r\n', ok],
      ['no colon here\r\n', ok],
      ['X-Time: 12:00:00\r\n', ok],
      ['X-Lone: a\rb\r\n', ok],
      ['X-Lone: a\nb\r\n', ok],
      ['X-Control: a\x01b\r\n', ok],
      ['X-Del: a\x7fb\r\n', ok],
      ['X-High: caf\xe9\r\n', ok],
      ['X-A\rB: c\r\n', ok],
      ['X-CR: a\r\r\n', ok],
      ['\x00X: y\r\n', ok],
      ['X-Name\x01: y\r\n', ok],
      ['X-Folded: a\r\n b\r\n', ok],
      ['X-Tab-Folded: a\r\n\tb\r\n', ok],
      ['WARC-Date: 2025-01-01T00:00:00Z\r\n', ok],
      ['warc-target-uri: http://other.example/robots.txt\r\n', ok],
      ['', 'HTTP/1.1 301 Moved\r\nLocation:   /moved.txt  \r\n\r\n'],
      ['', 'HTTP/1.1 301 Moved\r\nLOCATION: /a\r\nlocation: /b\r\n\r\n'],
      ['', 'HTTP/1.1 301 Moved\r\nLocation:\r\nLocation: /b\r\n\r\n'],
      ['', 'HTTP/1.1 301 Moved\r\nLocation: /a\tb\r\n\r\n'],
      ['', 'HTTP/1.1 301 Moved\r\nLocation: /a\x02\r\n\r\n'],
      ['', 'HTTP/1.1 301 Moved\r\n Location: /a\r\n\r\n'],
      ['', 'HTTP/1.1 301 Moved\r\nLocation /a\r\nX: y\r\n\r\n'],
      ['', 'HTTP/1.1  200\r\nContent-Type: text/plain\r\n\r\n'],
      ['', 'HTTP/1.1 0x1F OK\r\nContent-Type: text/plain\r\n\r\n'],
      ['', 'HTTP/1.1 200 caf\xe9\r\nContent-Type: text/plain\r\n\r\n'],
      ['', '   \r\n'],
    ];
    const octets = Buffer.from(cases.map(([warc, http], n) => record(n, warc, http)).join(''), 'latin1');
    writeFileSync(at('edges.warc'), octets);
    const r = await same(at('edges.warc'));
    // (Most are read, or taken as damage, as warcio takes them; the plain ones are read.)
    expect(r.items.length).toBeGreaterThan(2);
  });

  it('records written one by one (each its own gzip member) with odd ones in between, several times over', async () => {
    const parts: Uint8Array[] = [];
    for (let k = 0; k < 200; k++) parts.push(await serializeCapture(CAPTURES[k % CAPTURES.length], true));
    writeFileSync(at('many.warc.gz'), Buffer.concat(parts));
    const r = await same(at('many.warc.gz'));
    expect(r.counts.records).toBe(200);
  });
});

// A gzip damaged near its end (octets of a member's deflate data, or its CRC-32 or ISIZE,
// flipped): zlib says so only a chunk after the mangled octets it hands out, and warcio's parser
// ended quietly at those (no "WARC/" where a record should be) without reading on to the error:
// e.g. 53 captures of 60 and no damage said (of the octets of these files flipped one at a time
// past 85%, some in each layout did so). The damage is said, the captures before it intact.
describe('header blocks of millions of lines, read in place (a thread reads a stretch inflated whole)', () => {
  it('are read in one pass: no error, no time growing with the square of the lines', () => {
    // 4.5 million lines of 'a' (no colon) as a response's HTTP headers: 13.5 MB, under a stretch's 16 MiB. A regular
    // expression repeating over the lines ran out of its backtracking stack there (RangeError), and a search for each
    // line's colon from the line's start went to the block's end for every line.
    const http = `HTTP/1.1 200 OK\r\n${'a\r\n'.repeat(4_500_000)}\r\nUser-agent: *\nDisallow: /x\n`;
    const record = `WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: https://long.example/robots.txt\r\nContent-Length: ${http.length}\r\n\r\n${http}\r\n\r\n`;
    const counts = { records: 0, responses: 0 };
    const read = [...wholeRecords(Buffer.from(record, 'latin1'), 0, { maxOctets: 512000, counts })];
    expect(read.map((r) => (r.kind === 'capture' ? [r.key, r.status, Buffer.from(r.body ?? []).toString()] : r.kind))).toEqual([['https://long.example/robots.txt', 200, 'User-agent: *\nDisallow: /x\n']]);
    expect(counts).toEqual({ records: 1, responses: 1 });
  }, 60_000); // (a hang guard: one pass over 13.5 MB takes well under a second on a quiet machine)
});

describe('a gzip damaged near its end is damage, the captures before it intact', () => {
  const SEED = propertySeed();
  const captures: Capture[] = Array.from({ length: 60 }, (_, i) => ({ url: `http://host${i}.example/robots.txt`, body: `User-agent: *\nDisallow: /p${i}\n${'#'.repeat(3000)}${`${i}\n`.repeat(20)}` }));

  for (const layout of ['gzip-records', 'gzip-whole'] as const) {
    for (const where of ['data', 'crc', 'isize'] as const) {
      it(`${layout}, its ${where} flipped`, async () => {
        // (As writeWarc writes them, the members kept to know where capture 54's is.)
        const parts = await Promise.all(captures.map((c) => serializeCapture(c, layout === 'gzip-records')));
        const octets = layout === 'gzip-records' ? Buffer.concat(parts) : gzipSync(Buffer.concat(parts));
        // The damaged member: capture 54's record (gzip per record), or the whole file.
        const start = layout === 'gzip-records' ? parts.slice(0, 54).reduce((a, b) => a + b.length, 0) : 0;
        const end = layout === 'gzip-records' ? start + parts[54].length : octets.length;
        // Every other octet of its deflate data (past the 10 of the gzip header; of the whole file, 85% to 95%; which half:
        // the run's seed), and of a member its last (where a flip may touch the padding only); or its 4 of CRC-32 or ISIZE.
        // (Flipped at every octet, each outcome came at several octets spread over the range: every other octet reaches them,
        // at half the reads; which half changes from run to run.)
        const flips = where === 'data'
          ? (layout === 'gzip-records' ? [...new Set([...everyOther(start + 10, end - 8, SEED), end - 9])] : everyOther(Math.floor(end * 0.85), Math.floor(end * 0.95), SEED))
          : [where === 'crc' ? end - 8 : end - 4];
        for (const from of flips) {
          const damaged = Buffer.from(octets);
          for (let k = from; k < from + (where === 'data' ? 1 : 4); k++) damaged[k] ^= 0x5a;
          const file = at(`damage-${layout}-${where}.warc`);
          writeFileSync(file, damaged);
          const r = await same(file, { maxOctets: 100_000 });
          const damage = r.items.filter((i) => (i as { kind: string }).kind === 'damage') as { offset: number; trustedBefore: number }[];
          // A flip of the deflate data's last octet can fall on its padding bits only (where the
          // stream's last code ends in it: the record IDs make that vary from run to run): the
          // member inflates to the same octets, its CRC-32 holds, there is no damage to say.
          if (where === 'data' && unchanged(damaged.subarray(start, end), octets.subarray(start, end))) {
            expect(damage, `flipped at ${from}, padding only`).toHaveLength(0);
            expect(r.items.filter((i) => (i as { kind: string }).kind === 'capture')).toHaveLength(60);
            continue;
          }
          expect(damage, `flipped at ${from}`).toHaveLength(1);
          const read = r.items.filter((i) => (i as { kind: string }).kind === 'capture') as { url: string; body: string; offset: number }[];
          // The captures read before trustedBefore are the first ones, whole; those from it on may
          // hold mangled octets (the damaged member's, handed out before its CRC-32 is checked: the
          // index takes them as unreachable); none comes after the damaged member.
          const trusted = read.filter((c) => c.offset < damage[0].trustedBefore);
          expect(trusted.map((c) => [c.url, c.body])).toEqual(captures.slice(0, trusted.length).map((c) => [c.url, c.body]));
          expect(trusted.length).toBeLessThanOrEqual(layout === 'gzip-records' ? 54 : 59);
          expect(read.length).toBeLessThanOrEqual(layout === 'gzip-records' ? 55 : 60);
          expect(read.length).toBeGreaterThan(30);
          expect(read.every((c) => c.offset <= damage[0].offset)).toBe(true);
        }
      }, 60_000);
    }
  }
});

/** Whether a damaged gzip member (or file) still inflates, CRC-32 and ISIZE checked, to the octets of the whole one. */
function unchanged(damaged: Uint8Array, whole: Uint8Array): boolean {
  try {
    return gunzipSync(damaged).equals(gunzipSync(whole));
  } catch {
    return false;
  }
}

/** The octets from `from` to `to` (not included) whose distance from `from` is even for an even seed, odd for an odd one. */
const everyOther = (from: number, to: number, seed: number) => Array.from({ length: Math.max(0, Math.ceil((to - from - (seed % 2)) / 2)) }, (_, k) => from + (seed % 2) + 2 * k);

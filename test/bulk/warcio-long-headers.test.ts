// Header blocks longer than the fast reader holds (warc-fast-records.ts leaves WARC or HTTP headers over
// 256 KiB to warcio) are read by warcio in one pass: its header parser searched each line's colon from the
// line's start to the block's end, so a block of colon-less lines took time growing with the square of its
// lines (320,000 lines: 2.3 CPU-s; 640,000: 9.4; 4.5 million ran for minutes). warcio is patched at
// `npm ci` (patches/warcio+2.4.11.patch): a line's colon is searched for within the line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readWarcCaptures, type WarcReadItem } from '../../src/bulk/sources/warc/warc-captures.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warcio-headers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES = 2_000_000;

/** A response record of `host`'s robots.txt, `warcExtra` among its WARC headers and `httpExtra` among its HTTP headers. */
function record(host: string, body: string, warcExtra = '', httpExtra = ''): Buffer {
  const http = `HTTP/1.1 200 OK\r\n${httpExtra}Content-Type: text/plain\r\n\r\n${body}`;
  return Buffer.from(`WARC/1.0\r\nWARC-Type: response\r\n${warcExtra}WARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Target-URI: https://${host}/robots.txt\r\nContent-Length: ${http.length}\r\n\r\n${http}\r\n\r\n`, 'latin1');
}

/** Each capture read, as [URL, status, body]. */
async function capturesOf(file: string): Promise<unknown[]> {
  const read: unknown[] = [];
  for await (const item of readWarcCaptures(file, { maxOctets: 512_000, counts: { records: 0, responses: 0 } }) as AsyncGenerator<WarcReadItem>) {
    read.push(item.kind === 'capture' ? [item.url, item.status, Buffer.from(item.body ?? []).toString()] : item.kind);
  }
  return read;
}

describe('a header block of millions of lines read by warcio', () => {
  const cases = {
    'HTTP headers without a colon': ['', 'a\r\n'.repeat(LINES)],
    'WARC headers without a colon': ['a\r\n'.repeat(LINES), ''],
    'HTTP headers, one name over and over': ['', 'X-A: b\r\n'.repeat(LINES / 2)],
  } as const;
  for (const [name, [warcExtra, httpExtra]] of Object.entries(cases)) {
    it(`${name}: read in one pass, the records around it intact`, async () => {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.warc.gz`);
      const records = [record('before.example', 'User-agent: *\nDisallow: /b\n'), record('long.example', 'User-agent: *\nDisallow: /x\n', warcExtra, httpExtra), record('after.example', 'User-agent: *\nDisallow: /a\n')];
      writeFileSync(file, Buffer.concat(records.map((r) => gzipSync(r))));
      expect(await capturesOf(file)).toEqual([
        ['https://before.example/robots.txt', 200, 'User-agent: *\nDisallow: /b\n'],
        ['https://long.example/robots.txt', 200, 'User-agent: *\nDisallow: /x\n'],
        ['https://after.example/robots.txt', 200, 'User-agent: *\nDisallow: /a\n'],
      ]);
    }, 60_000); // (a hang guard: one pass takes a few seconds on a quiet machine; the search to the block's end took minutes)
  }
});

// A small WARC file is read with buffers of its size, not a reader's full
// read-ahead: a --robots-warc-list of Common Crawl's names thousands of files,
// and one of 10,000 small ones spent a third of its run collecting the 3 MiB of
// buffers each file was given (its read-ahead, twice, and its record buffer).
// Measured as the buffers held while the file's capture is in hand, each layout
// (zlib's output chunk, 256 KiB, stays: see warc-fast-records.ts); and a file
// past one read-ahead and one record buffer reads the same all the same.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readWarcCaptures, type WarcReadItem } from '../../src/bulk/sources/warc/warc-captures.js';
import { serializeCapture, writeWarc, type WarcLayout } from '../helpers/warc-files.js';
import { gc } from '../helpers/gc.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-small-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);

const LAYOUTS: WarcLayout[] = ['plain', 'gzip-records', 'gzip-whole'];
const BODY = 'User-agent: *\nDisallow: /private\n';

/** The file's items, and the most octets of buffers held beyond those before the read, seen at each item. */
async function readHolding(file: string): Promise<{ items: WarcReadItem[]; held: number }> {
  gc();
  gc();
  const before = process.memoryUsage().arrayBuffers;
  let held = 0;
  const items: WarcReadItem[] = [];
  for await (const item of readWarcCaptures(file, { maxOctets: 500_000, counts: { records: 0, responses: 0 } })) {
    held = Math.max(held, process.memoryUsage().arrayBuffers - before);
    items.push(item.kind === 'capture' && item.body !== null ? { ...item, body: Buffer.from(item.body) } : item);
  }
  return { items, held };
}

describe('a small WARC file is read with buffers of its size', () => {
  for (const layout of LAYOUTS) {
    it(`one capture (${layout}): under 512 KiB of buffers held while it is read, not 3 MiB`, async () => {
      const octets = await writeWarc(at(`small-${layout}.warc`), [{ url: 'http://a.example/robots.txt', body: BODY }], layout);
      expect(octets.length).toBeLessThan(1_000);
      const { items, held } = await readHolding(at(`small-${layout}.warc`));
      expect(items).toMatchObject([{ kind: 'capture', key: 'http://a.example/robots.txt', status: 200, body: Buffer.from(BODY) }]);
      expect(held).toBeLessThan(512 << 10);
    });
  }

  // Sized to the file, the reader still reads a file whose records outgrow its first buffer (and, plain, its read-ahead).
  it('a file of 500 captures of up to 4 KiB (1.1 MB, each layout) is read whole', async () => {
    // (Ten records, each written once by warcio, repeated: warcio writes a few hundred records a second.)
    const captures = Array.from({ length: 10 }, (_, k) => ({ url: `http://h${k}.example/robots.txt`, body: `${BODY}# ${'x'.repeat(k * 420)}\n` }));
    const plain = await Promise.all(captures.map((c) => serializeCapture(c, false)));
    const gzipped = await Promise.all(captures.map((c) => serializeCapture(c, true)));
    const fifty = <T>(xs: T[]) => Array.from({ length: 50 }, () => xs).flat();
    const files: Record<WarcLayout, Uint8Array> = {
      plain: Buffer.concat(fifty(plain)),
      'gzip-records': Buffer.concat(fifty(gzipped)),
      'gzip-whole': gzipSync(Buffer.concat(fifty(plain))),
    };
    expect(files.plain.length).toBeGreaterThan(1 << 20);
    for (const layout of LAYOUTS) {
      writeFileSync(at(`many-${layout}.warc`), files[layout]);
      const keys: string[] = [];
      for await (const item of readWarcCaptures(at(`many-${layout}.warc`), { maxOctets: 500_000, counts: { records: 0, responses: 0 } })) {
        keys.push(item.kind === 'capture' ? `${item.key} ${item.body?.length}` : item.kind);
      }
      expect(keys, layout).toEqual(fifty(captures).map((c) => `${c.url} ${c.body.length}`));
    }
  });
});

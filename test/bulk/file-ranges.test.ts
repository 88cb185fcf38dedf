// Ranges of a URL file read by the classification threads themselves: every line
// belongs to exactly one range (the one it starts in), whatever the cut points.
// And the line limit, drawn at the same octet by both readers of input (ranges
// of a file, and a stream's chunks), wherever the cuts fall.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLinesOfRange } from '../../src/bulk/sources/file-ranges.js';
import { lineBlocks } from '../../src/bulk/sources/line-blocks.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-ranges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const take = (n: number) => new Uint8Array(n);

function withFile<T>(content: Uint8Array, f: (fd: number) => T): T {
  const p = path.join(dir, 'urls.txt');
  writeFileSync(p, content);
  const fd = openSync(p, 'r');
  try {
    return f(fd);
  } finally {
    closeSync(fd);
  }
}

/** All ranges of `step` octets, read and joined. */
function readAllRanges(fd: number, size: number, step: number, maxLine: number, readStep?: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let start = 0; start < size; start += step) out.push(readLinesOfRange({ fd, start, end: Math.min(size, start + step), size }, maxLine, take, readStep));
  return out;
}

// Short lines, blank ones, and a few long ones (longer than the cut sizes and the read steps).
const line = fc.oneof(fc.constant(''), fc.string({ maxLength: 12 }), fc.integer({ min: 40, max: 3_000 }).map((n) => 'y'.repeat(n)));
const lines = fc.array(line, { maxLength: 30 });

describe('readLinesOfRange', () => {
  it('cuts a file into whole lines, each in the range where it starts, for any cut size', () => {
    fc.assert(fc.property(lines, fc.boolean(), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 100 }), (ls, finalLf, step, readStep) => {
      const text = ls.join('\n') + (finalLf && ls.length > 0 ? '\n' : '');
      const bytes = new TextEncoder().encode(text);
      withFile(bytes, (fd) => {
        const parts = readAllRanges(fd, bytes.length, step, 1 << 30, readStep);
        expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
        let at = 0;
        parts.forEach((p, i) => {
          if (p.length > 0) {
            // It starts a line at or after its range's start and ends one (or the file).
            expect(at).toBeGreaterThanOrEqual(i * step);
            expect(at === 0 || bytes[at - 1] === 10).toBe(true);
            expect(at + p.length === bytes.length || p[p.length - 1] === 10).toBe(true);
          }
          at += p.length;
        });
      });
    }), { numRuns: 300 });
  });

  it('refuses a line longer than the cap, in the range where the line starts', () => {
    const bytes = new TextEncoder().encode(`/a\n/${'b'.repeat(300_000)}\n/c\n`);
    withFile(bytes, (fd) => {
      expect(() => readAllRanges(fd, bytes.length, 1 << 16, 200_000)).toThrow(/longer than 200000 octets/);
      expect(() => readLinesOfRange({ fd, start: 0, end: 4, size: bytes.length }, 200_000, take)).toThrow(/longer than 200000/);
      expect(new TextDecoder().decode(readLinesOfRange({ fd, start: 0, end: 3, size: bytes.length }, 200_000, take))).toBe('/a\n');
      // The ranges inside the long line hold no line of their own.
      expect(readLinesOfRange({ fd, start: 100_000, end: 200_000, size: bytes.length }, 200_000, take)).toHaveLength(0);
      // With a cap it fits, all is read.
      expect(Buffer.concat(readAllRanges(fd, bytes.length, 1 << 16, 400_000)).equals(Buffer.from(bytes))).toBe(true);
    });
  });
});

describe('the line limit: a line of maxLine octets before its LF (a CR counted) passes, one more is refused, by either reader', () => {
  const maxLine = 64;
  // Lines about the limit (some ending in CR), short ones, blank ones; the last one with or without LF.
  const nearLimit = fc.tuple(fc.integer({ min: maxLine - 2, max: maxLine + 2 }), fc.boolean()).map(([n, cr]) => 'u'.repeat(cr ? n - 1 : n) + (cr ? '\r' : ''));
  const text = fc.tuple(fc.array(fc.oneof(fc.constant(''), fc.string({ maxLength: 10 }), nearLimit), { maxLength: 12 }), fc.boolean())
    .map(([ls, finalLf]) => new TextEncoder().encode(ls.join('\n') + (finalLf && ls.length > 0 ? '\n' : '')));
  const longest = (bytes: Uint8Array) => Math.max(0, ...Buffer.from(bytes).toString('latin1').split('\n').map((l) => l.length));
  /** Whether f is refused for a line too long (any other failure fails the test). */
  const refused = async (f: () => unknown) => {
    try {
      await f();
      return false;
    } catch (e) {
      expect((e as Error).message).toMatch(`longer than ${maxLine} octets`);
      return true;
    }
  };

  it('from ranges of a file (threads), for any cut and read size', async () => {
    await fc.assert(fc.asyncProperty(text, fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 100 }), async (bytes, step, readStep) => {
      const refusal = withFile(bytes, (fd) => refused(() => readAllRanges(fd, bytes.length, step, maxLine, readStep)));
      expect(await refusal).toBe(longest(bytes) > maxLine);
    }), { numRuns: 500 });
  });

  it('from a stream (stdin, a pipe, one thread), for any chunking', async () => {
    await fc.assert(fc.asyncProperty(text, fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 8 }), async (bytes, sizes) => {
      const chunks: Buffer[] = [];
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const n = sizes[i % sizes.length];
        chunks.push(Buffer.from(bytes.subarray(at, at + n)));
        at += n;
      }
      const read: Uint8Array[] = [];
      const refusal = await refused(async () => {
        for await (const { parts } of lineBlocks(Readable.from(chunks), maxLine)) read.push(...parts);
      });
      expect(refusal).toBe(longest(bytes) > maxLine);
      if (!refusal) expect(Buffer.concat(read).equals(Buffer.from(bytes))).toBe(true);
    }), { numRuns: 500 });
  });
});

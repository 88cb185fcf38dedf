// The ranges of the input asked of robots classify's reading thread ahead of the
// classifying one (src/bulk/threads/ranges-ahead.ts): when a range's classification
// begins, the reader has been asked for the `window` ranges after it, whatever the
// run's loop (which asks only once an earlier output is written) has asked; each
// range is asked once, and the lines read are the file's. Counted on a real file,
// its ranges read by readLinesOfRange as the reader reads them.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RangesAhead } from '../../src/bulk/threads/ranges-ahead.js';
import { readLinesOfRange, type FileRange } from '../../src/bulk/sources/file-ranges.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-ranges-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STEP = 4096;
const file = path.join(dir, 'urls.txt');
writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `https://h${i % 97}.example/page/${i}`).join('\n') + '\n');
const size = readFileSync(file).length;
const RANGES = Math.ceil(size / STEP);

describe('ranges asked ahead of the classifier', () => {
  it.each([1, 4])('window %i: at each range\'s start the next ones are asked, each range once, its lines the file\'s', async (window) => {
    const fd = openSync(file, 'r');
    try {
      const asked: number[] = [];
      const ahead = new RangesAhead<Uint8Array>((range) => {
        asked.push(range.start);
        return Promise.resolve(readLinesOfRange(range, 1 << 16, (n) => new Uint8Array(n)));
      }, window, STEP);
      // The run's loop: a range taken only when the one IN_FLIGHT before it is done (its output written).
      const IN_FLIGHT = 2;
      const taken: Promise<Uint8Array>[] = [];
      const ranges: FileRange[] = [];
      for (let start = 0; start < size; start += STEP) ranges.push({ fd, start, end: Math.min(size, start + STEP), size });
      const lines: Uint8Array[] = [];
      for (let k = 0; k < ranges.length; k++) {
        if (k >= IN_FLIGHT) {
          const j = k - IN_FLIGHT;
          lines.push(await taken[j]);
        }
        taken.push(ahead.take(ranges[k]));
        if (k >= IN_FLIGHT - 1) {
          // Range k - IN_FLIGHT + 1 begins: the ranges up to `window` past it are asked.
          const j = k - IN_FLIGHT + 1;
          ahead.begin(ranges[j]);
          expect(Math.max(...asked)).toBe(ranges[Math.min(ranges.length - 1, j + window)].start);
        }
      }
      for (let j = lines.length; j < ranges.length; j++) lines.push(await taken[j]);
      expect(asked).toEqual(ranges.map((r) => r.start));
      expect(ahead.asks).toBe(RANGES);
      expect(Buffer.concat(lines).equals(readFileSync(file))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('a range that is not the next one asked (another file, say) is asked afresh, and the ones asked before are let go', async () => {
    const fd = openSync(file, 'r');
    try {
      let asks = 0;
      const ahead = new RangesAhead<FileRange>((range) => (asks++, Promise.resolve(range)), 3, STEP);
      const first = { fd, start: 0, end: STEP, size };
      expect(await ahead.take(first)).toEqual(first);
      ahead.begin(first);
      expect(asks).toBe(4);
      const other = { fd: fd + 1000, start: 0, end: STEP, size };
      expect(await ahead.take(other)).toEqual(other);
      expect(asks).toBe(5);
    } finally {
      closeSync(fd);
    }
  });
});

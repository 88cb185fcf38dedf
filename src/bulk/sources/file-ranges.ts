// A regular file of lines cut into byte ranges that threads read on their own
// (positional reads of a shared descriptor), so that no single thread reads and
// hands out the whole input. A range stands for the lines that start in it: the
// line running into it from the range before is skipped, the one running out of
// it is read to its end.
import { readSync } from 'node:fs';
import { lineTooLong, longestLine } from './line-blocks.js';

const LF = 10;
/** Octets read at a time past a range's ends, looking for the line's end. */
const STEP = 64 << 10;
let scratch = new Uint8Array(0); // for skipping the line that runs into a range

export interface FileRange {
  fd: number;
  start: number;
  end: number;
  /** The file's size when the run began. */
  size: number;
}

/**
 * The whole lines that start in [start, end), read into a buffer from `take`
 * (a view of exactly those octets; empty if no line starts there). A line longer
 * than maxLine is an error, raised by the range where it starts.
 */
export function readLinesOfRange(range: FileRange, maxLine: number, take: (n: number) => Uint8Array, step = STEP): Uint8Array {
  const { fd, start, end, size } = range;
  const first = start === 0 ? 0 : nextLineStart(fd, start - 1, end, size, step);
  if (first >= end || first >= size) return new Uint8Array(0);
  let buf = take(Math.min(size, end + step) - first);
  const want = Math.min(size, end) - first;
  let have = readAll(fd, buf, 0, first, want);
  let eof = have < want || first + have >= size;
  // The lines end at the first LF from end-1 on (that LF ends a line that started before end).
  let from = end - 1 - first;
  const lastStart = buf.subarray(0, Math.min(from, have)).lastIndexOf(LF) + 1;
  // (Lines inside the range can pass the limit only when the range is longer than it.)
  if (lastStart > maxLine && longestLine(buf, 0, lastStart - 1) > maxLine) throw lineTooLong(maxLine);
  for (;;) {
    const lf = from < have ? buf.subarray(0, have).indexOf(LF, from) : -1;
    // The line running out of the range ends at lf, or at the end of the file, or later.
    if ((lf >= 0 ? lf : have) - lastStart > maxLine) throw lineTooLong(maxLine);
    if (lf >= 0) return buf.subarray(0, lf + 1);
    if (eof) return buf.subarray(0, have); // the last line of the file, without LF
    from = Math.max(from, have);
    if (have + step > buf.length) {
      const bigger = take(Math.max(have + step, buf.length * 2));
      bigger.set(buf.subarray(0, have));
      buf = bigger;
    }
    const got = readAll(fd, buf, have, first + have, step);
    have += got;
    eof = got < step;
  }
}

/** The offset after the first LF at or after `from` (the start of the next line), or `end` if none comes before it. */
function nextLineStart(fd: number, from: number, end: number, size: number, step: number): number {
  if (scratch.length < step) scratch = new Uint8Array(step);
  const buf = scratch.subarray(0, step);
  for (let at = from; at < end && at < size; ) {
    const n = readAll(fd, buf, 0, at, Math.min(buf.length, size - at));
    const lf = buf.subarray(0, n).indexOf(LF);
    if (lf >= 0) return at + lf + 1;
    at += n;
  }
  return end;
}

/** Reads exactly n octets at `position` (fewer only at the end of the file). */
function readAll(fd: number, buf: Uint8Array, offset: number, position: number, n: number): number {
  let done = 0;
  while (done < n) {
    const got = readSync(fd, buf, offset + done, n - done, position + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

// Input of any size as a stream of blocks of whole lines: bounded memory, the
// lines never split across blocks. A block is a list of views of what was read.
import type { Readable } from 'node:stream';
import { BulkError } from '../base/errors.js';

/** Target block size: big enough that per-block costs vanish, small enough to keep threads busy. */
export const BLOCK_OCTETS = 1 << 20;
/** A longer line than this (octets before its LF; a CR counts) is not a URL
 * list: stop with an error rather than buffer it. Every way of reading input
 * (here, and file-ranges.ts for threads) draws the line exactly there. */
export const MAX_LINE_OCTETS = 16 << 20;

export function lineTooLong(maxLine: number): BulkError {
  return new BulkError(`an input line is longer than ${maxLine} octets: not a list of URLs`);
}

export interface LineBlock {
  /** Whole lines, in parts as read (views of the input's buffers: no copy). */
  parts: Uint8Array[];
  /** Input octets consumed so far, this block included (for progress). */
  consumed: number;
}

export async function* lineBlocks(input: Readable, maxLine = MAX_LINE_OCTETS): AsyncGenerator<LineBlock> {
  let parts: Uint8Array[] = []; // read, not yet yielded; starts at a line's start
  let size = 0;
  let unfinished = 0; // octets after the last LF read: a line still going on
  let consumed = 0;
  // Chunks are gathered to about BLOCK_OCTETS (a pipe gives 64 KiB at a time).
  for await (const chunk of input as AsyncIterable<Buffer>) {
    consumed += chunk.length;
    parts.push(chunk);
    size += chunk.length;
    const lastLf = chunk.lastIndexOf(10);
    if (lastLf < 0) {
      unfinished += chunk.length;
      if (unfinished > maxLine) throw lineTooLong(maxLine);
      continue;
    }
    // The line the chunk ends, and (only in a chunk longer than a line may be) the lines inside it.
    const firstLf = chunk.indexOf(10);
    if (unfinished + firstLf > maxLine || (chunk.length > maxLine && longestLine(chunk, firstLf + 1, lastLf) > maxLine)) throw lineTooLong(maxLine);
    unfinished = chunk.length - lastLf - 1;
    if (unfinished > maxLine) throw lineTooLong(maxLine);
    if (size < BLOCK_OCTETS) continue;
    parts[parts.length - 1] = chunk.subarray(0, lastLf + 1);
    yield { parts, consumed: consumed - unfinished };
    parts = unfinished > 0 ? [chunk.subarray(lastLf + 1)] : [];
    size = unfinished;
  }
  if (size > 0) yield { parts, consumed };
}

/** The longest of the lines of chunk that start at `from` and end by the LF at lastLf. */
export function longestLine(chunk: Uint8Array, from: number, lastLf: number): number {
  let longest = 0;
  for (let at = from; at <= lastLf; ) {
    const lf = chunk.indexOf(10, at);
    longest = Math.max(longest, lf - at);
    at = lf + 1;
  }
  return longest;
}

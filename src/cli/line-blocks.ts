// Input of any size as a stream of blocks of whole lines: bounded memory, the
// lines never split across blocks. A block is a list of views of what was read.
import type { Readable } from 'node:stream';
import { CliError } from './errors.js';

/** Target block size: big enough that per-block costs vanish, small enough to keep threads busy. */
export const BLOCK_OCTETS = 1 << 20;
/** A longer line than this is not a URL list: stop with an error rather than buffer it. */
export const MAX_LINE_OCTETS = 16 << 20;

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
      if (unfinished > maxLine) throw new CliError(`an input line is longer than ${maxLine} octets: not a list of URLs`);
      continue;
    }
    unfinished = chunk.length - lastLf - 1;
    if (size < BLOCK_OCTETS) continue;
    parts[parts.length - 1] = chunk.subarray(0, lastLf + 1);
    yield { parts, consumed: consumed - unfinished };
    parts = unfinished > 0 ? [chunk.subarray(lastLf + 1)] : [];
    size = unfinished;
  }
  if (size > 0) yield { parts, consumed };
}

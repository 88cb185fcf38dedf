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
  let carry: Uint8Array[] = []; // the start of a line that has not ended yet
  let carried = 0;
  let consumed = 0;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    consumed += chunk.length;
    const lastLf = chunk.lastIndexOf(10);
    if (lastLf < 0) {
      carry.push(chunk);
      carried += chunk.length;
      if (carried > maxLine) throw new CliError(`an input line is longer than ${maxLine} octets: not a list of URLs`);
      continue;
    }
    const parts = carry;
    parts.push(chunk.subarray(0, lastLf + 1));
    carry = lastLf + 1 < chunk.length ? [chunk.subarray(lastLf + 1)] : [];
    carried = chunk.length - lastLf - 1;
    yield { parts, consumed: consumed - carried };
  }
  if (carried > 0) yield { parts: carry, consumed };
}


// The lines of a stream, each as text, in bounded memory: a line longer than
// the bound is skipped whole (reported as such, never buffered), so one broken
// line of a file never stops a report built from the rest.
import type { Readable } from 'node:stream';

export interface InputLine {
  /** 1-based, in its input. */
  number: number;
  /** The line without its LF (and CR); null when it was longer than the bound. */
  text: string | null;
}

export async function* inputLines(input: Readable, maxOctets: number): AsyncGenerator<InputLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 0;
  const line = (): InputLine => {
    number++;
    const text = tooLong ? null : Buffer.concat(parts, size).toString('utf8').replace(/\r$/, '');
    parts = [];
    size = 0;
    tooLong = false;
    return { number, text };
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let at = 0;
    for (let lf = chunk.indexOf(10, at); lf >= 0; at = lf + 1, lf = chunk.indexOf(10, at)) {
      take(chunk.subarray(at, lf));
      yield line();
    }
    take(chunk.subarray(at));
  }
  if (size > 0 || tooLong) yield line();

  function take(part: Buffer): void {
    if (tooLong || part.length === 0) return;
    if (size + part.length > maxOctets) {
      tooLong = true;
      parts = [];
      size = 0;
      return;
    }
    parts.push(part);
    size += part.length;
  }
}

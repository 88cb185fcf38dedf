// The output area of the line classifier in the core's memory, where the core
// writes output lines itself (classifyLines, classifyLinesMulti), and what
// becomes of them: copied out into OutputBuffers, or handed to an OutputWriter
// as views of the core's memory (no copy), the block's last piece possibly
// kept there while the writer waits for its turn.
//
// In: octets the core wrote at ptr + len (it is told ptr + len and ptr + cap).
// Out: whole lines, in order, to the block's target. Invariants: JSON lines
// leave as valid UTF-8; one kept piece at a time (in the spare area, while the
// next block is written in the other); an area only grows.
import { isUtf8 } from 'node:buffer';
import type { Core } from '../../engine/wasm/core.js';
import { concatOctets } from '../../engine/parse/octets.js';
import type { OutputBuffers, OutputWriter } from './classification.js';

const utf8 = new TextDecoder();
export const newBuffer: OutputBuffers = (n) => new Uint8Array(n);

export class CoreOutput {
  /** The area the core writes to, its size, and the octets written there not yet taken. */
  ptr = 0;
  cap = 0;
  len = 0;
  /** The other area, and the output kept in it (see OutputWriter.keep). */
  private sparePtr = 0;
  private spareCap = 0;
  private keptLen = 0;
  private pieces: Uint8Array[] = [];
  /** Where the block being classified goes. */
  private target: OutputBuffers | OutputWriter = newBuffer;

  constructor(
    private readonly core: Core,
    private readonly json: boolean,
    size: number,
  ) {
    this.reserve(size);
  }

  /** The output of the next block goes to `target`. */
  begin(target: OutputBuffers | OutputWriter): void {
    this.target = target;
  }

  /** The core's last writer ended its output at `end` (its lastOutEnd()). */
  wroteTo(end: number): void {
    this.len = end - this.ptr;
  }

  /** Room for n octets at least, what was written flushed first. */
  reserve(n: number): void {
    if (n <= this.cap) return;
    this.flush();
    if (this.ptr) this.core.free(this.ptr);
    this.cap = n;
    this.ptr = this.core.alloc(n);
  }

  /** Hands what was written to the target (the block's last piece, when `last`: a writer may keep it). */
  flush(last = false): void {
    if (this.len === 0) return;
    const written = this.core.u8.subarray(this.ptr, this.ptr + this.len);
    const length = this.len;
    this.len = 0;
    const target = this.target;
    if (typeof target !== 'function') {
      const octets = this.json ? validUtf8(written) : written;
      if (last && octets === written && target.keep?.(octets)) {
        if (this.keptLen !== 0) throw new Error('OutputWriter.keep: the output kept before was not released');
        // Kept where it is: the next block goes to the other area.
        [this.ptr, this.cap, this.sparePtr, this.spareCap] = [this.sparePtr, this.spareCap, this.ptr, this.cap];
        this.keptLen = length;
        if (this.cap < this.spareCap) this.reserve(this.spareCap);
        return;
      }
      return target.write(octets);
    }
    const piece = target(written.length);
    piece.set(written);
    this.pieces.push(piece);
  }

  /** The block's output: its last piece flushed; what the OutputBuffers took, in one buffer (empty for an OutputWriter). */
  take(): Uint8Array {
    this.flush(true);
    const target = this.target;
    if (typeof target !== 'function') return new Uint8Array(0);
    const pieces = this.pieces;
    this.pieces = [];
    const out = pieces.length === 1 ? pieces[0] : pieces.length === 0 ? target(0) : concatOctets(pieces);
    return this.json ? validUtf8(out) : out;
  }

  /** The output a writer kept (a fresh view: the memory may have grown since); empty when none. */
  get kept(): Uint8Array {
    return this.core.u8.subarray(this.sparePtr, this.sparePtr + this.keptLen);
  }

  /** The kept output is written: its area is free again. */
  releaseKept(): void {
    this.keptLen = 0;
  }
}

/** JSON text is UTF-8: a URL's invalid octets become U+FFFD (the core copies
 * octets >= 0x80 as they are; everything else it writes is ASCII). */
function validUtf8(octets: Uint8Array): Uint8Array {
  return isUtf8(octets) ? octets : new TextEncoder().encode(utf8.decode(octets));
}

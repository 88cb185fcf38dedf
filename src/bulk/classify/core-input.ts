// A block of input lines in the core's memory, where the core splits and
// classifies them: grown as needed, and read straight into when the caller can
// (the line classifier and the host router both take their input so).
import type { Core } from '../../engine/wasm/core.js';

export class CoreInput {
  ptr = 0;
  private cap = 0;

  constructor(private readonly core: Core) {}

  /** The area, room for n octets: input read straight into it is used where it is (pass this view to stage()). */
  area(n: number): Uint8Array {
    if (this.core.u8.length === 0) this.core.refresh(); // (another user of the core grew its memory)
    this.reserve(n);
    return this.core.u8.subarray(this.ptr, this.ptr + n);
  }

  /** The input in the area (copied there unless it is the area's own view); returns its length. */
  stage(input: Uint8Array | readonly Uint8Array[]): number {
    const c = this.core;
    if (c.u8.length === 0) c.refresh();
    const parts = input instanceof Uint8Array ? [input] : input;
    const length = parts.reduce((n, p) => n + p.length, 0);
    const inPlace = input instanceof Uint8Array && input.buffer === c.u8.buffer && input.byteOffset === this.ptr;
    if (!inPlace) {
      this.reserve(length);
      for (let at = this.ptr, k = 0; k < parts.length; at += parts[k++].length) c.u8.set(parts[k], at);
    }
    return length;
  }

  private reserve(n: number): void {
    if (n + 16 <= this.cap) return;
    if (this.ptr) this.core.free(this.ptr);
    this.cap = Math.max(n + 16, this.cap * 2);
    this.ptr = this.core.alloc(this.cap); // the core reads up to 16 octets past a line (SIMD)
  }
}

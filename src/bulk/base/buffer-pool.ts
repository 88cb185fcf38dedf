// Spare buffers for blocks of input and output, handed back and forth between
// threads instead of allocated per block: a fresh 1.5 MiB buffer costs page
// faults and zeroing (measured here: a fresh slice() cost several times a set() into a spare).

/** Smallest buffer made, so that spares fit most later blocks. */
const MIN_OCTETS = 2 << 20;

export class BufferPool {
  private readonly spare: ArrayBuffer[] = [];

  constructor(private readonly keep = 8) {}

  /** A view of n octets over a spare buffer (the smallest that holds them: a small block that took the
   * largest spare left a larger one to be made fresh, page by page), or over a new one. */
  take(n: number): Uint8Array {
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const size = this.spare[i].byteLength;
      if (size >= n && (best < 0 || size < this.spare[best].byteLength)) best = i;
    }
    if (best >= 0) return new Uint8Array(this.spare.splice(best, 1)[0], 0, n);
    return new Uint8Array(new ArrayBuffer(Math.max(n, MIN_OCTETS)), 0, n);
  }

  /** Takes a buffer back for reuse (kept only up to the pool's size). */
  give(buffer: ArrayBufferLike): void {
    if (this.spare.length < this.keep && buffer.byteLength > 0 && buffer instanceof ArrayBuffer) this.spare.push(buffer);
  }
}

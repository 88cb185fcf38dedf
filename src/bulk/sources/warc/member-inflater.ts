// gzip members inflated whole into one buffer that is kept and reused: a
// thread of robots index inflates a stretch of a WARC (about 256 KiB of gzip,
// 1 MiB inflated) dozens of times a second, and gunzipSync's fresh 16 MiB
// output buffer each time was garbage that V8 let pile up (a peak RSS well
// above what a GC after each stretch left).
// It drives zlib's own handle, as zlib's gunzipSync does (Node's zlib.js
// processChunkSync: writeSync, then the handle's counts in _writeState); a Node
// without that handle gets gunzipSync.
import { constants, createGunzip, gunzipSync, type Gunzip } from 'node:zlib';

/** What inflating a stretch gave: its octets (a view of the inflater's buffer, valid until the next inflate), and
 * the input octets zlib took (fewer than given when what follows a member is zeros, which zlib passes over). */
export interface Inflated {
  octets: Buffer;
  consumed: number;
}

/** zlib's native handle, as Node's zlib.js drives it. */
interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  onerror(message: string, errno: number): void;
}

/** An inflate that would pass `limit` octets. */
export class TooLarge extends Error {}

export class MemberInflater {
  private engine: Gunzip | null = null;
  private out = Buffer.alloc(0);
  private failure: Error | null = null;

  constructor(private readonly limit: number) {}

  /** The members of `input` (gzip, one or more, to its end) inflated; throws zlib's error, or TooLarge. */
  inflate(input: Uint8Array): Inflated {
    const handle = this.handle();
    if (handle === null) {
      try {
        const r = gunzipSync(input, { info: true, maxOutputLength: this.limit } as object) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
        return { octets: r.buffer, consumed: r.engine.bytesWritten };
      } catch (e) {
        throw (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? new TooLarge() : e;
      }
    }
    const state = (this.engine as unknown as { _writeState: Uint32Array })._writeState;
    if (this.out.length === 0) this.out = Buffer.allocUnsafe(Math.min(this.limit, Math.max(1 << 20, 6 * input.length)));
    let inOff = 0;
    let inLen = input.length;
    let outOff = 0;
    try {
      for (;;) {
        const room = this.out.length - outOff;
        handle.writeSync(constants.Z_FINISH, input, inOff, inLen, this.out, outOff, room);
        if (this.failure !== null) throw this.failure;
        const [outLeft, inLeft] = state;
        outOff += room - outLeft;
        inOff += inLen - inLeft;
        inLen = inLeft;
        if (outLeft > 0) break;
        // The buffer is full: a larger one (kept), up to the limit.
        if (this.out.length >= this.limit) throw new TooLarge();
        const grown = Buffer.allocUnsafe(Math.min(this.limit, 2 * this.out.length));
        this.out.copy(grown, 0, 0, outOff);
        this.out = grown;
      }
    } catch (e) {
      this.drop(); // (zlib cannot go on after an error: a new one next time)
      throw e;
    }
    return { octets: this.out.subarray(0, outOff), consumed: inOff };
  }

  /** The engine's handle, reset for a new stretch; null when this Node's zlib has none to drive. */
  private handle(): ZlibHandle | null {
    if (this.engine === null) {
      this.engine = createGunzip();
      this.failure = null;
      const handle = (this.engine as unknown as { _handle?: ZlibHandle })._handle;
      if (handle === undefined || typeof handle.writeSync !== 'function' || !((this.engine as unknown as { _writeState?: unknown })._writeState instanceof Uint32Array)) return null;
      // (Node's own handler destroys the stream: an error is taken here, as it comes.)
      handle.onerror = (message, errno) => {
        this.failure = Object.assign(new Error(message), { errno });
      };
    } else (this.engine as unknown as { reset(): void }).reset();
    return (this.engine as unknown as { _handle: ZlibHandle })._handle;
  }

  private drop(): void {
    this.engine?.close();
    this.engine = null;
  }
}

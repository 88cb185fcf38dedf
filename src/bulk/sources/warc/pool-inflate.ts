// gzip members inflated on libuv's threadpool (zlib's asynchronous call), not on
// a JavaScript thread: robots index's main thread parses one stretch while the
// next inflates beside it, on the other core, without a worker thread (an
// isolate to start, and its JIT compiling the reading code again).
// Like member-inflater.ts, it keeps its zlib engine and its output buffer from
// one stretch to the next: zlib.gunzip's fresh output buffer a stretch (4 MiB
// and more, outside V8's heap) made V8 collect far more often (its concurrent
// marking). It drives the engine as zlib's own asynchronous path does (Node's
// zlib.js processChunk, by _processChunk with a callback: the output in
// _outBuffer from _outOffset, handed to push); a Node without those gets gunzip.
import { constants, createGunzip, gunzip, type Gunzip } from 'node:zlib';
import { TooLarge, type Inflated } from './member-inflater.js';

/** The parts of zlib's stream that its asynchronous path reads and writes. */
interface EngineParts {
  _processChunk(chunk: Uint8Array, flush: number, cb: () => void): void;
  _outBuffer: Buffer;
  _outOffset: number;
  _chunkSize: number;
  bytesWritten: number;
  push(chunk: Buffer | null): boolean;
  reset(): void;
  _handle?: { onerror(message: string, errno: number): void };
}

/** One inflate at a time off this thread; its octets are valid until the next. */
export class PoolInflater {
  private engine: (Gunzip & EngineParts) | null = null;
  private out = Buffer.alloc(0);

  constructor(private readonly limit: number) {}

  /** The members of `input` (gzip, one or more, to its end) inflated; rejects with zlib's error, or TooLarge past the
   * limit. `input` must not change until it settles. */
  inflate(input: Uint8Array): Promise<Inflated> {
    const engine = this.take();
    if (engine === null) return gunzipped(input, this.limit);
    if (this.out.length === 0) this.out = Buffer.allocUnsafe(Math.min(this.limit, Math.max(1 << 20, 6 * input.length)));
    return new Promise<Inflated>((resolve, reject) => {
      const before = engine.bytesWritten;
      const chunks: Buffer[] = [];
      let octets = 0;
      let settled = false;
      const fail = (e: Error) => {
        if (settled) return;
        settled = true;
        this.drop(); // (zlib cannot go on after an error, nor after a write left stalled: a new one next time)
        reject(e);
      };
      engine._handle!.onerror = (message, errno) => fail(Object.assign(new Error(message), { errno }));
      engine.push = (chunk) => {
        if (chunk === null || settled) return true;
        octets += chunk.length;
        chunks.push(chunk);
        // (false stalls zlib's loop: nothing more is written into this engine, which is dropped.)
        if (octets > this.limit) return fail(new TooLarge()), false;
        return true;
      };
      engine._outBuffer = this.out;
      engine._outOffset = 0;
      engine._chunkSize = this.out.length;
      engine._processChunk(input, constants.Z_FINISH, () => {
        if (settled) return;
        settled = true;
        // More than the buffer held: one buffer as large (kept), up to the limit.
        if (chunks.length > 1) {
          const grown = Buffer.allocUnsafe(Math.min(this.limit, Math.max(octets, 2 * this.out.length)));
          let at = 0;
          for (const c of chunks) at += c.copy(grown, at);
          this.out = grown;
        }
        resolve({ octets: chunks.length === 1 ? chunks[0] : this.out.subarray(0, octets), consumed: engine.bytesWritten - before });
      });
    });
  }

  /** The engine, reset for a new stretch; null when this Node's zlib has not the parts driven here. */
  private take(): (Gunzip & EngineParts) | null {
    if (this.engine !== null) {
      this.engine.reset();
      return this.engine;
    }
    const e = createGunzip() as Gunzip & EngineParts;
    if (typeof e._processChunk !== 'function' || !Buffer.isBuffer(e._outBuffer) || typeof e._outOffset !== 'number' || typeof e._chunkSize !== 'number' || typeof e.bytesWritten !== 'number' || e._handle === undefined) {
      e.close();
      return null;
    }
    return (this.engine = e);
  }

  private drop(): void {
    this.engine?.close();
    this.engine = null;
  }
}

/** zlib.gunzip's inflate (a fresh output buffer each time). */
function gunzipped(input: Uint8Array, limit: number): Promise<Inflated> {
  const chunkSize = Math.min(limit, Math.max(1 << 20, 6 * input.length));
  return new Promise((resolve, reject) => {
    gunzip(input, { info: true, chunkSize, maxOutputLength: limit } as object, (e, r) => {
      if (e !== null) return reject((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? new TooLarge() : e);
      const { buffer, engine } = r as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      resolve({ octets: buffer, consumed: engine.bytesWritten });
    });
  });
}

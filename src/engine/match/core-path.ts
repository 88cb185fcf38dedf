// The core's view of a URL's path, for tests: what the matcher compares with the
// rules (assembly/path.ts's extraction, then the profile's normalisation), read
// back out of the core. The reference (reference.ts) computes the same in
// TypeScript; the property tests hold the two together.
import { core } from '../wasm/core.js';
import { traitsOf, type Profile } from '../parse/profile.js';

/** The core's view of a URL's path (extraction, then the rfc normalisation when asked), for tests. */
export function corePath(url: string, profile: Profile): Uint8Array {
  const traits = traitsOf(profile);
  const c = core();
  const n = c.writeUrl(url);
  const out = c.alloc(12);
  const src = c.alloc(n + 16);
  try {
    c.u8.copyWithin(src, c.urlPtr, c.urlPtr + n);
    c.exports.pathOf(src, n, traits.pathEndsAtNul, out);
    const i32 = new Int32Array(c.exports.memory.buffer, out, 3);
    const path = Uint8Array.from([...(i32[2] ? [0x2f] : []), ...c.u8.subarray(src + i32[0], src + i32[1])]);
    if (!traits.normalises) return path;
    const a = c.alloc(path.length + 16);
    const b = c.alloc(path.length * 3 + 16);
    c.u8.set(path, a);
    const len = c.exports.normalize(a, path.length, b);
    const normal = c.u8.slice(b, b + len);
    c.free(a);
    c.free(b);
    return normal;
  } finally {
    c.free(out);
    c.free(src);
  }
}

// The core's view of a URL's path, for tests: what the matcher compares with the
// rules (assembly/parse/path.ts's extraction, then the profile's normalisation and,
// under rfc, dot-segment removal: assembly/parse/dot-segments.ts), read
// back out of the core. The reference (reference.ts) computes the same in
// TypeScript; the property tests hold the two together.
import { core } from '../wasm/core.js';
import { CORE_READ_SLACK, PATH_END, PATH_RECORD, PATH_SLASH, PATH_START } from '../wasm/layout.js';
import { traitsOf, type Profile } from '../parse/profile.js';

/** The core's view of a URL's path (extraction, then the rfc normalisation and dot-segment removal when asked), for tests. */
export function corePath(url: string, profile: Profile): Uint8Array {
  const traits = traitsOf(profile);
  const c = core();
  const n = c.writeUrl(url);
  const out = c.alloc(PATH_RECORD);
  const src = c.alloc(n + CORE_READ_SLACK);
  try {
    c.u8.copyWithin(src, c.urlPtr, c.urlPtr + n);
    c.exports.pathOf(src, n, traits.pathEndsAtNul, out);
    const record = new Int32Array(c.exports.memory.buffer, out, PATH_RECORD >>> 2);
    const field = (at: number) => record[at >>> 2];
    const path = Uint8Array.from([...(field(PATH_SLASH) ? [0x2f] : []), ...c.u8.subarray(src + field(PATH_START), src + field(PATH_END))]);
    if (!traits.normalises) return path;
    const a = c.alloc(path.length + CORE_READ_SLACK);
    const b = c.alloc(path.length * 3 + CORE_READ_SLACK);
    c.u8.set(path, a);
    const len = c.exports.dropDotSegments(b, c.exports.normalize(a, path.length, b));
    const normal = c.u8.slice(b, b + len);
    c.free(a);
    c.free(b);
    return normal;
  } finally {
    c.free(out);
    c.free(src);
  }
}

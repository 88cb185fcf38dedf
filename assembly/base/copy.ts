// Copies of a few octets. V8 compiles wasm's memory.copy to a call into its runtime
// (bounds, then memmove): for a rule's value (~15 octets) the call costs more than
// the octets. Words instead: the first and last 8 (or 4) of the run, overlapping,
// 16 at a time between, never past its end.

/** Copies n octets from src to dst (the two runs do not overlap). */
@inline export function copyShort(dst: usize, src: usize, n: usize): void {
  if (n >= 16) {
    if (n > 64) {
      memory.copy(dst, src, n);
      return;
    }
    const last = v128.load(src + n - 16); // (read before any store: the runs may be adjacent)
    for (let i: usize = 0; i + 16 < n; i += 16) v128.store(dst + i, v128.load(src + i));
    v128.store(dst + n - 16, last);
  } else if (n >= 8) {
    const last = load<u64>(src + n - 8);
    store<u64>(dst, load<u64>(src));
    store<u64>(dst + n - 8, last);
  } else if (n >= 4) {
    const last = load<u32>(src + n - 4);
    store<u32>(dst, load<u32>(src));
    store<u32>(dst + n - 4, last);
  } else if (n > 0) {
    store<u8>(dst, load<u8>(src));
    if (n > 1) store<u16>(dst + n - 2, load<u16>(src + n - 2));
  }
}

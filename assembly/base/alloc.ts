// The core's allocations, counted: what its matchers and areas really take,
// which the memory's size (it only grows) does not say. The host allocates
// through index.ts's exports; the core's own long-lived blocks (a cold list's
// index: cold-index.ts) through these too, so the count holds them.

let allocated: usize = 0;

/** A block's size, from the allocator's header before it (TLSF: size | 2 tag bits). */
@inline function blockSize(ptr: usize): usize {
  return load<usize>(ptr - 4) & ~3;
}

export function alloc(size: usize): usize {
  const ptr = heap.alloc(size);
  if (ptr != 0) allocated += blockSize(ptr);
  return ptr;
}

export function free(ptr: usize): void {
  allocated -= blockSize(ptr);
  heap.free(ptr);
}

export function allocatedBytes(): usize {
  return allocated;
}

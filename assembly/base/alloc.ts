// The core's allocations, counted: what its matchers and areas really take,
// which the memory's size (it only grows) does not say. The host allocates
// through index.ts's exports; the core's own long-lived blocks (a cold list's
// index: cold-index.ts) through these too, so the count holds them.
//
// Small blocks freed here wait in lists by size (QUICK_*) for the next
// allocation of their size, up to QUICK_OCTETS in all: a crawler compiles and
// disposes a matcher per host, two blocks of a few hundred octets each time,
// and TLSF's allocation and free of such a block (its bins searched, the block
// split off the free memory after it and merged back) were ~500 instructions
// a pair, a tenth of a small file's compile; a list's pop or push is a few.

let allocated: usize = 0;

/** Blocks of up to this many octets (TLSF's size, less its 4-octet header) wait in the lists. */
const QUICK_MAX: usize = 2044;
/** Octets the waiting blocks may hold in all (past it, a free goes to TLSF). */
const QUICK_OCTETS: usize = 64 << 10;
/** Per size class (a block's size >> 4: TLSF's sizes are 12, 28, 44, ...: 16 apart), the last block freed, 0 for none; each holds the next in its first word. */
const QUICK = memory.data(<i32>((QUICK_MAX >> 4) + 1) << 2, 16);
let quickOctets: usize = 0;
/** Allocations TLSF made (none for a block taken from the lists), for tests. */
let heapAllocs: u32 = 0;

/** A block's size, from the allocator's header before it (TLSF: size | 2 tag bits). */
@inline function blockSize(ptr: usize): usize {
  return load<usize>(ptr - 4) & ~3;
}

export function alloc(size: usize): usize {
  if (size <= QUICK_MAX) {
    // The class of TLSF's size for it (tlsf.ts computeSize: at least 12, a multiple of 16 with its header).
    const head = QUICK + ((((size + 19) >> 4) - 1) << 2);
    const ptr = load<usize>(head);
    if (ptr != 0) {
      store<usize>(head, load<usize>(ptr));
      const n = blockSize(ptr);
      quickOctets -= n;
      allocated += n;
      return ptr;
    }
  }
  const ptr = heap.alloc(size);
  if (ptr != 0) allocated += blockSize(ptr);
  heapAllocs++;
  return ptr;
}

export function free(ptr: usize): void {
  const n = blockSize(ptr);
  allocated -= n;
  if (n <= QUICK_MAX && quickOctets + n <= QUICK_OCTETS) {
    const head = QUICK + ((n >> 4) << 2);
    store<usize>(ptr, load<usize>(head));
    store<usize>(head, ptr);
    quickOctets += n;
    return;
  }
  heap.free(ptr);
}

export function allocatedBytes(): usize {
  return allocated;
}

export function heapAllocations(): u32 {
  return heapAllocs;
}

// The copies parse() keeps of bodies (the caller may reuse its octets once
// parse() returns): a small body's copy is a view into a shared block, as
// Node's Buffer.allocUnsafe pools small buffers. A buffer of its own per body
// (each a backing store the collector tracks and frees) took a sixth of a
// first verdict over the corpus, whose median file is a few hundred octets. A copy
// keeps its whole block alive, so a block is small, and a body kept for long
// (a cache asks its heldBytes) is moved to a buffer of its own (ownedOctets).

/** Octets per block: a kept copy holds at most this much besides its own. */
const BLOCK_OCTETS = 32 << 10;
/** Bodies up to this size are pooled (95% of the corpus's files); larger ones get a buffer of their own. */
export const POOLED_MAX = 8 << 10;

/** Node's (and Bun's) Buffer, for allocUnsafeSlow: a buffer of its own whose
 * octets are not zeroed first. Every octet a copy shows is written before it
 * is returned, so zeroing wrote each copied octet twice. Elsewhere, ArrayBuffer. */
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow?(n: number): { buffer: ArrayBufferLike } } }).Buffer;

/** A buffer of n octets, its own (not a view into Node's pool), not zeroed where the runtime can. */
function octetsOf(n: number): ArrayBuffer {
  if (NodeBuffer?.allocUnsafeSlow === undefined) return new ArrayBuffer(n);
  const buffer = NodeBuffer.allocUnsafeSlow(n).buffer;
  return buffer.byteLength === n && buffer instanceof ArrayBuffer ? buffer : new ArrayBuffer(n); // (a runtime that pools it after all)
}

let block: ArrayBuffer | null = null; // (made by the first parse, not the import)
let used = BLOCK_OCTETS;

/** n octets of a block (n <= POOLED_MAX), as a view. */
function take(n: number): Uint8Array<ArrayBuffer> {
  if (block === null || used + n > BLOCK_OCTETS) {
    block = octetsOf(BLOCK_OCTETS);
    used = 0;
  }
  const view = new Uint8Array(block, used, n);
  used += (n + 7) & ~7; // (8-aligned, as an allocator would)
  return view;
}

/** A copy of the octets, pooled when small. */
export function copyOctets(octets: Uint8Array): Uint8Array<ArrayBuffer> {
  // (Not octets.slice(): a Buffer's is a view of the same octets.)
  const copy = octets.length > POOLED_MAX ? new Uint8Array(octetsOf(octets.length)) : take(octets.length);
  copy.set(octets);
  return copy;
}

const encoder = new TextEncoder();

/** The UTF-8 encoding of text, pooled when small. */
export function encodeOctets(text: string): Uint8Array<ArrayBuffer> {
  // (A UTF-16 unit is at most 3 octets of UTF-8.)
  if (text.length * 3 > POOLED_MAX) return encoder.encode(text);
  const room = take(text.length * 3);
  const { written } = encoder.encodeInto(text, room);
  used -= ((text.length * 3 + 7) & ~7) - ((written + 7) & ~7); // (the room not written goes back to the block)
  return room.subarray(0, written);
}

/** The octets in a buffer of their own: these, or a copy of a pooled view (for
 * what is kept long, so that it does not hold a block of others' copies). */
export function ownedOctets(octets: Uint8Array): Uint8Array {
  if (octets.byteLength === octets.buffer.byteLength) return octets;
  const own = new Uint8Array(octetsOf(octets.length));
  own.set(octets);
  return own;
}

// A shard file's directory (robots-index-format.ts: the key's hash and the record's offset, sorted by hash, then
// offset), gathered as robots index writes the shard's records: two typed arrays, not an object a record (the
// command's main thread made one for each of its captures), sorted at the end by the typed array's own sort (the
// sort with a comparator over those objects was ~0.1 s of the corpus ×16's run, on one core, after the reading).
import { DIRECTORY_ENTRY } from './robots-index-format.js';

/** Entries a packed sort key can number: hash · 2^21 + entry stays below 2^53, exact in a double. */
const PACKED_ENTRIES = 2 ** 21;

export class ShardDirectory {
  private hashes = new Uint32Array(256);
  private offsets = new Float64Array(256);
  private entries = 0;

  get length(): number {
    return this.entries;
  }

  /** A record's entry; records come in the order of their offsets. */
  add(hash: number, at: number): void {
    if (this.entries === this.hashes.length) {
      const hashes = new Uint32Array(2 * this.entries);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const offsets = new Float64Array(2 * this.entries);
      offsets.set(this.offsets);
      this.offsets = offsets;
    }
    this.hashes[this.entries] = hash;
    this.offsets[this.entries++] = at;
  }

  /** The directory's octets: each entry's hash (u32) and offset (u64 as two u32 halves), by hash, then offset. */
  encode(): Buffer {
    const n = this.entries;
    const order = this.order();
    const directory = Buffer.alloc(n * DIRECTORY_ENTRY);
    const view = new DataView(directory.buffer, directory.byteOffset, directory.length);
    for (let k = 0; k < n; k++) {
      const e = order[k];
      const at = this.offsets[e];
      view.setUint32(k * DIRECTORY_ENTRY, this.hashes[e], true);
      // (The u64 offset as two u32 halves: a BigInt made per record cost more than the rest of the entry.)
      view.setUint32(k * DIRECTORY_ENTRY + 4, at % 2 ** 32, true);
      view.setUint32(k * DIRECTORY_ENTRY + 8, Math.floor(at / 2 ** 32), true);
    }
    return directory;
  }

  /** The entries' indexes by hash, then by index (= by offset). */
  private order(): Uint32Array {
    const n = this.entries;
    const order = new Uint32Array(n);
    if (n <= PACKED_ENTRIES) {
      const keys = new Float64Array(n);
      for (let k = 0; k < n; k++) keys[k] = this.hashes[k] * PACKED_ENTRIES + k;
      keys.sort();
      for (let k = 0; k < n; k++) order[k] = keys[k] % PACKED_ENTRIES;
    } else {
      for (let k = 0; k < n; k++) order[k] = k;
      order.sort((a, b) => this.hashes[a] - this.hashes[b] || a - b);
    }
    return order;
  }
}

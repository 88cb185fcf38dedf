// The hosts a classifier has seen, by the core's two hashes of each: an open
// addressing table in a typed array, asked once per run of URLs of a host (once
// per URL of an interleaved input), and the run's hosts over all its blocks and
// threads (by the 53-bit keys the blocks report). A Set of those keys boxed each
// key as a heap number, kept for the run: a tenth of an interleaved run's time,
// and in a run host after host a Set.add per host and its boxes for the
// collector to copy.

export class HostSet {
  /** Pairs (hash1, hash2's top 21 bits); hash1 0 marks an empty slot (the core's hash1 of a host is odd). */
  private table = new Int32Array(1 << 12);
  private mask = (1 << 11) - 1;
  size = 0;

  /** Adds the host of hashes h1 (not 0) and h2; true when it was not there. */
  add(h1: number, h2: number): boolean {
    return this.addPair(h1, h2 >>> 11);
  }

  /** Adds a host by its 53-bit key, h1 * 2^21 + (h2 >>> 11), as a classifier's newHosts give them; true when it was not there. */
  addKey(key: number): boolean {
    const h1 = Math.floor(key / 0x200000);
    return this.addPair(h1, key - h1 * 0x200000);
  }

  private addPair(h1: number, lo: number): boolean {
    const t = this.table;
    for (let i = (Math.imul(h1, 0x9e3779b1) >>> 0) & this.mask; ; i = (i + 1) & this.mask) {
      const k = t[2 * i];
      if (k === 0) {
        t[2 * i] = h1;
        t[2 * i + 1] = lo;
        if (++this.size * 2 > this.mask) this.grow();
        return true;
      }
      if (k === (h1 | 0) && t[2 * i + 1] === lo) return false;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    this.size = 0;
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0) this.addPair(old[i] >>> 0, old[i + 1]);
  }
}

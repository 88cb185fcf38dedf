// The host cache's order and bound (host-matchers.ts), flat: its keys (53-bit
// origin keys, origin-runs.ts originKey) in an open-addressing table of typed
// arrays, each entry's recency links and weight in typed arrays by slot, its
// value in one array. The rules are MatcherLru's (../../engine/match/matcher-lru.ts),
// with keepNewest: least recently used out first, never the one just used; the
// newest weighed again when another takes its place or `bytes` is read; a value
// evicted or cleared is released.
//
// Why not MatcherLru: on a crawl's hosts (the probes ×30: 127,230 hosts, ~95,000
// held) its Map of boxed 53-bit keys and a node object per host cost the one
// classifying thread ~0.2 s of lookups, inserts and deletes, and the collector
// a node and two heap numbers per held host at each scavenge. Here a held host
// is a slot: no object but its value.
//
// Invariants: a key is in the table once, at the first free place from its hash
// (linear probing; a removal shifts the places after it back); a slot is in the
// table exactly while it is in the recency list.

/** No slot (an empty place in the table, the end of the list). */
const NONE = -1;

export interface HostLruOptions<V> {
  /** Bound on the sum of the values' weights, in bytes. */
  maxBytes: number;
  /** The bytes a value holds now. */
  weigh: (value: V) => number;
  /** What becomes of a value evicted or cleared (its matchers disposed). */
  release: (value: V) => void;
}

export class HostLru<V> {
  /** Places: a slot, or NONE; a power of two long, at most half full. */
  private table = new Int32Array(1 << 10).fill(NONE);
  /** By slot: its key, recency links, weight when last measured, value. */
  private keys = new Float64Array(1 << 9);
  private older = new Int32Array(1 << 9);
  private newer = new Int32Array(1 << 9);
  private weights = new Float64Array(1 << 9);
  private values: (V | undefined)[] = [];
  /** Slots freed, for reuse; slots past `used` were never taken. */
  private readonly freed: number[] = [];
  private used = 0;
  private oldest = NONE;
  private newest = NONE;
  private held = 0;
  private count = 0;
  /** Values evicted past the bound (not those replaced or cleared). */
  evictions = 0;

  constructor(private readonly options: HostLruOptions<V>) {}

  /** The key's value, now the most recently used; undefined when not held. */
  get(key: number): V | undefined {
    const newest = this.newest;
    if (newest !== NONE && this.keys[newest] === key) return this.values[newest]; // (a run of the same host: no lookup)
    const slot = this.find(key);
    if (slot === NONE) return undefined;
    this.weighNewest();
    this.unlink(slot);
    this.append(slot);
    this.fit();
    return this.values[slot];
  }

  /** The key's value, its place in the order unchanged. */
  peek(key: number): V | undefined {
    const slot = this.find(key);
    return slot === NONE ? undefined : this.values[slot];
  }

  /** Holds value under key as the most recently used (releasing a value it replaces), then evicts past the bound. */
  set(key: number, value: V): void {
    this.weighNewest();
    const old = this.find(key);
    if (old !== NONE) {
      const was = this.values[old]!;
      this.drop(old);
      if (was !== value) this.options.release(was);
    }
    const slot = this.take();
    this.keys[slot] = key;
    this.values[slot] = value;
    const bytes = this.options.weigh(value);
    this.weights[slot] = bytes;
    this.insert(key, slot);
    this.append(slot);
    this.held += bytes;
    this.count++;
    this.fit();
  }

  /** The key's value taken out of the cache, not released (the caller keeps it); undefined when not held. */
  withdraw(key: number): V | undefined {
    const slot = this.find(key);
    if (slot === NONE) return undefined;
    this.weighNewest();
    const value = this.values[slot];
    this.drop(slot);
    return value;
  }

  /** Releases every value (oldest first); the cache is empty after, and still usable. */
  clear(): void {
    const values: V[] = [];
    for (let s = this.oldest; s !== NONE; s = this.newer[s]) values.push(this.values[s]!);
    this.table.fill(NONE);
    this.values = [];
    this.freed.length = 0;
    this.used = 0;
    this.oldest = this.newest = NONE;
    this.held = 0;
    this.count = 0;
    for (const v of values) this.options.release(v);
  }

  get size(): number {
    return this.count;
  }

  /** The values' weight in bytes (the most recent weighed again). */
  get bytes(): number {
    this.weighNewest();
    return this.held;
  }

  /** Least recently used first, until the bound holds; never the newest. */
  private fit(): void {
    while (this.held > this.options.maxBytes) {
      const slot = this.oldest;
      if (slot === NONE || slot === this.newest) return;
      const value = this.values[slot]!;
      this.drop(slot);
      this.evictions++;
      this.options.release(value); // (after the cache is whole again: a release may call into it)
    }
  }

  /** The most recent value may have grown since it was weighed: weigh it again. */
  private weighNewest(): void {
    const n = this.newest;
    if (n === NONE) return;
    const bytes = this.options.weigh(this.values[n]!);
    this.held += bytes - this.weights[n];
    this.weights[n] = bytes;
  }

  /** The slot out of the table and the list, free again. */
  private drop(slot: number): void {
    this.remove(this.keys[slot]);
    this.unlink(slot);
    this.held -= this.weights[slot];
    this.values[slot] = undefined;
    this.freed.push(slot);
    this.count--;
  }

  private unlink(slot: number): void {
    const older = this.older[slot];
    const newer = this.newer[slot];
    if (older === NONE) this.oldest = newer;
    else this.newer[older] = newer;
    if (newer === NONE) this.newest = older;
    else this.older[newer] = older;
    this.older[slot] = this.newer[slot] = NONE;
  }

  private append(slot: number): void {
    this.older[slot] = this.newest;
    this.newer[slot] = NONE;
    if (this.newest === NONE) this.oldest = slot;
    else this.newer[this.newest] = slot;
    this.newest = slot;
  }

  /** A free slot (the arrays grown when none is). */
  private take(): number {
    const reused = this.freed.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.keys.length) {
      const n = this.keys.length * 2;
      this.keys = grown(this.keys, new Float64Array(n));
      this.older = grown(this.older, new Int32Array(n));
      this.newer = grown(this.newer, new Int32Array(n));
      this.weights = grown(this.weights, new Float64Array(n));
    }
    return this.used++;
  }

  /** The key's place to start from: its low 32 bits (the second host hash's and the first's, well mixed). */
  private home(key: number): number {
    return (key >>> 0) & (this.table.length - 1);
  }

  /** The key's slot, or NONE. */
  private find(key: number): number {
    const t = this.table;
    const mask = t.length - 1;
    for (let i = this.home(key); ; i = (i + 1) & mask) {
      const slot = t[i];
      if (slot === NONE || this.keys[slot] === key) return slot;
    }
  }

  /** A key not in the table, at its first free place (the table doubled past half full). */
  private insert(key: number, slot: number): void {
    if ((this.count + 1) * 2 > this.table.length) this.rehash(this.table.length * 2);
    const t = this.table;
    const mask = t.length - 1;
    let i = this.home(key);
    while (t[i] !== NONE) i = (i + 1) & mask;
    t[i] = slot;
  }

  /** Takes the key's place out; the places after it, up to an empty one, shifted back where their keys may go. */
  private remove(key: number): void {
    const t = this.table;
    const mask = t.length - 1;
    let i = this.home(key);
    while (this.keys[t[i]] !== key) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; t[j] !== NONE; j = (j + 1) & mask) {
      const h = this.home(this.keys[t[j]]);
      // (j's key may move to i when its home is not in (i, j], cyclically)
      if (i <= j ? h <= i || h > j : h <= i && h > j) {
        t[i] = t[j];
        i = j;
      }
    }
    t[i] = NONE;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size).fill(NONE);
    const mask = size - 1;
    for (let s = this.oldest; s !== NONE; s = this.newer[s]) {
      let i = this.home(this.keys[s]);
      while (this.table[i] !== NONE) i = (i + 1) & mask;
      this.table[i] = s;
    }
  }
}

function grown<T extends Float64Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

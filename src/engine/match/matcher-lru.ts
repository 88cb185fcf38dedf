// The byte-bounded LRU of compiled matchers. Its users: RobotsTxt's own
// matchers, process-wide (matcher-pool.ts); RobotsCache's entries, each an
// origin's matcher and deflated file (src/crawler/robots-cache.ts). (The host
// matchers of `robots classify --robots-dir/--robots-warc` keep its rules in a
// flat table of their own, for their hundreds of thousands of hosts:
// src/bulk/classify/host-lru.ts.) A value is what a user keeps per key
// (a matcher, or an entry holding one or several); the LRU knows of it only its
// weight and how it is released.
//
// The rules, for all of them:
// - Order: least recently used first. get() and set() make a value the most
//   recent; peek() does not. The order is a linked list beside the map: moving
//   a value to the young end is a few field writes, not a Map delete and set
//   (which, per run of URLs of a host in an interleaved input, cost enough that
//   the bulk classifier once approximated LRU with a CLOCK instead).
// - Bounds: the weights' sum within maxBytes, and at most maxEntries values;
//   they hold again after every get(), set() and reweigh(), the least recently
//   used going first. With keepNewest, the most recent value is never evicted,
//   even alone past the bound (its caller is about to use it); without, it goes
//   too (its caller still holds it, and must not keep using it as the LRU's).
// - Weights: a value is weighed when set. A matcher grows as it walks URLs (its
//   automaton builds states, its trie is built once hot), and the one that
//   grows is the one just used: the most recent value is weighed again when
//   another takes its place and when `bytes` is read, not at each verdict. A
//   value that grows otherwise (a parsed file kept with a cache entry, an entry
//   used out of order) is weighed again by its owner's reweigh(key).
// - Leaving: a value evicted past a bound, replaced by set() of its key, or
//   dropped by clear() is released (release(): the user's dispose, the one
//   place it is said). delete() hands the value back to the caller, unreleased.

export interface MatcherLruOptions<V> {
  /** Bound on the sum of the values' weights, in bytes. */
  maxBytes: number;
  /** Bound on the number of values (default: none). */
  maxEntries?: number;
  /** The bytes a value holds now. */
  weigh: (value: V) => number;
  /** What becomes of a value that leaves the LRU other than by delete() (a matcher: disposed). */
  release: (value: V) => void;
  /** The most recently used value is never evicted (default false: it is, when it alone passes a bound). */
  keepNewest?: boolean;
}

/** A held value in the recency list. A class, not an object literal: a node lives
 * as long as its entry, and V8's allocation-site pretenuring, decided and undone
 * at collections, threw away the optimised code of every function making
 * nodes by a literal (see rule-table.ts's CompiledRuleTable). */
class Node<K, V> {
  older: Node<K, V> | null = null;
  newer: Node<K, V> | null = null;
  constructor(
    readonly key: K,
    public value: V,
    /** Its weight when last measured. */
    public bytes: number,
  ) {}
}

export class MatcherLru<K, V> {
  private readonly nodes = new Map<K, Node<K, V>>();
  private oldest: Node<K, V> | null = null;
  private newest: Node<K, V> | null = null;
  private held = 0;
  /** Values evicted past a bound (not those replaced, deleted or cleared). */
  evictions = 0;
  readonly maxBytes: number;
  private readonly maxEntries: number;
  private readonly weigh: (value: V) => number;
  private readonly release: (value: V) => void;
  private readonly keepNewest: boolean;

  constructor(options: MatcherLruOptions<V>) {
    this.maxBytes = options.maxBytes;
    this.maxEntries = options.maxEntries ?? Infinity;
    this.weigh = options.weigh;
    this.release = options.release;
    this.keepNewest = options.keepNewest ?? false;
  }

  /** The key's value, now the most recently used; undefined when not held. */
  get(key: K): V | undefined {
    const newest = this.newest;
    if (newest !== null && newest.key === key) return newest.value; // (a verdict's path: no map lookup)
    const node = this.nodes.get(key);
    if (node === undefined) return undefined;
    this.weighNewest();
    this.unlink(node);
    this.append(node);
    this.fit();
    return node.value;
  }

  /** The key's value, its place in the order unchanged. */
  peek(key: K): V | undefined {
    return this.nodes.get(key)?.value;
  }

  /** Holds value under key as the most recently used (releasing a value it replaces), then evicts past the bounds. */
  set(key: K, value: V): void {
    this.weighNewest();
    const old = this.nodes.get(key);
    if (old !== undefined) {
      this.drop(old);
      if (old.value !== value) this.release(old.value);
    }
    const node = new Node(key, value, this.weigh(value));
    this.nodes.set(key, node);
    this.append(node);
    this.held += node.bytes;
    this.fit();
  }

  /** Weighs the key's value again (it grew or shrank while not the most recent), then evicts past the bounds. */
  reweigh(key: K): void {
    const node = this.nodes.get(key);
    if (node === undefined) return;
    const bytes = this.weigh(node.value);
    if (bytes === node.bytes) return;
    this.held += bytes - node.bytes;
    node.bytes = bytes;
    this.fit();
  }

  /** Takes the key's value out and hands it back to the caller (not released). */
  delete(key: K): V | undefined {
    const node = this.nodes.get(key);
    if (node === undefined) return undefined;
    this.drop(node);
    return node.value;
  }

  /** Releases every value. */
  clear(): void {
    const values = [...this.nodes.values()].map((n) => n.value);
    this.nodes.clear();
    this.oldest = this.newest = null;
    this.held = 0;
    for (const v of values) this.release(v);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** The values' weight in bytes (the most recent weighed again). */
  get bytes(): number {
    this.weighNewest();
    return this.held;
  }

  /** Least recently used first, until both bounds hold (see keepNewest). */
  private fit(): void {
    while (this.held > this.maxBytes || this.nodes.size > this.maxEntries) {
      const node = this.oldest;
      if (node === null || (this.keepNewest && node === this.newest)) return;
      this.drop(node);
      this.evictions++;
      this.release(node.value); // (after the LRU is whole again: a release may call into it)
    }
  }

  /** The most recent value may have grown since it was weighed: weigh it again. */
  private weighNewest(): void {
    const n = this.newest;
    if (n === null) return;
    const bytes = this.weigh(n.value);
    this.held += bytes - n.bytes;
    n.bytes = bytes;
  }

  private drop(node: Node<K, V>): void {
    this.unlink(node);
    this.nodes.delete(node.key);
    this.held -= node.bytes;
  }

  private unlink(node: Node<K, V>): void {
    if (node.older === null) this.oldest = node.newer;
    else node.older.newer = node.newer;
    if (node.newer === null) this.newest = node.older;
    else node.newer.older = node.older;
    node.older = node.newer = null;
  }

  private append(node: Node<K, V>): void {
    node.older = this.newest;
    if (this.newest === null) this.oldest = node;
    else this.newest.newer = node;
    this.newest = node;
  }
}

// Which machine's part of a crawl a host is: --shard i/N of classify, audit
// and shard, and robots index's shard files, all by the same hash of the host.

/** --shard i/N: this machine's part of the input. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * The shard of a URL's host, from the core's 32-bit hash of it (FNV-1a of the
 * host as urlOrigin() names it, see host-hash.ts; its lowest bit is always set,
 * so it is dropped): every URL of a host lands in the same shard on every
 * machine. A line that names no host is in shard 0.
 */
export function shardOf(hostHash: number, count: number): number {
  return hostHash === 0 ? 0 : (hostHash >>> 1) % count;
}

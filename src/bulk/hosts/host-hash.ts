// The core's hashes of a host and of a scheme and port, computed here for the
// origins the core cannot name itself (../classify/origin-runs.ts) and for the
// hosts of WARC captures (../index/robots-index-format.ts): a host hashes
// alike on either side, so its URLs and its robots.txt meet in one shard.

/** The two hashes hashHost() wrote last, [first, second]: read at once, no object made per host. */
export const HOST_HASHES = new Uint32Array(2);

/** The core's first hash of a host as urlOrigin() names it (what --shard and robots index shard by, see shard.ts). */
export function hostHash(host: string): number {
  hashHost(host);
  return HOST_HASHES[0];
}

/** The core's two hashes of a host into HOST_HASHES (assembly/bulk/classify.ts hashHost: FNV-1a, two bases, ASCII lower-cased). */
export function hashHost(host: string): void {
  let x = 0x811c9dc5;
  let y = 0x050c5d1f;
  for (let i = 0; i < host.length; i++) {
    let c = host.charCodeAt(i) & 0xff; // (ASCII: WHATWG hosts are)
    if (c - 0x41 < 26 && c >= 0x41) c |= 0x20;
    x = Math.imul(x ^ c, 0x01000193);
    y = (Math.imul(y ^ c, 0x01000193) + 0x9e3779b9) | 0;
  }
  HOST_HASHES[0] = host.length === 0 ? 0 : (x | 1) >>> 0;
  HOST_HASHES[1] = host.length === 0 ? 0 : y >>> 0;
}

/** The core's hash of a scheme and a port (hashSchemeAndPort: the port with its ':'; none for a default one). */
export function schemeAndPortHash(scheme: string, port: string): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < scheme.length; i++) x = Math.imul(x ^ (scheme.charCodeAt(i) & 0xff), 0x01000193);
  if (port !== '') {
    x = Math.imul(x ^ 0x3a, 0x01000193);
    for (let i = 0; i < port.length; i++) x = Math.imul(x ^ port.charCodeAt(i), 0x01000193);
  }
  return x >>> 0;
}

// The host cache's flat LRU (host-lru.ts) keeps MatcherLru's rules with keepNewest
// (the LRU it replaces for the host matchers): driven alike by random gets, sets,
// peeks, growing values and clears over 53-bit keys that collide in the table's
// low bits, both give the same values, sizes, bytes, evictions and releases.
import { describe, expect, it } from 'vitest';
import { HostLru } from '../../src/bulk/classify/host-lru.js';
import { MatcherLru } from '../../src/engine/match/matcher-lru.js';

/** A value whose weight can change while held (a matcher's automaton grows as it walks). */
interface Held {
  id: number;
  bytes: number;
}

/** A small deterministic generator (xorshift32). */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

describe('HostLru', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`does as MatcherLru with keepNewest (seed ${seed}: 20,000 operations)`, () => {
      const next = random(seed);
      const maxBytes = 2000 + Math.floor(next() * 4000);
      const flatReleased: number[] = [];
      const mapReleased: number[] = [];
      const flat = new HostLru<Held>({ maxBytes, weigh: (v) => v.bytes, release: (v) => flatReleased.push(v.id) });
      const map = new MatcherLru<number, Held>({ maxBytes, weigh: (v) => v.bytes, release: (v) => mapReleased.push(v.id), keepNewest: true });
      // Keys as originKey makes them (up to 2^53), many sharing their low 32 bits (the table's place), some at the
      // table's last places (its first 1,024: runs of them wrap around its end).
      const keys = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? Math.floor(next() * 2 ** 21) * 2 ** 32 + (i % 2 === 0 ? 1020 + (i % 4) : i % 7) : Math.floor(next() * 2 ** 53)));
      let ids = 0;
      let last: Held | undefined;
      for (let op = 0; op < 20_000; op++) {
        const key = keys[Math.floor(next() * keys.length)];
        const r = next();
        if (r < 0.45) {
          const got = flat.get(key);
          if (got !== map.get(key)) expect({ op, got }).toEqual({ op, got: map.peek(key) });
        } else if (r < 0.85) {
          const v = { id: ids++, bytes: 1 + Math.floor(next() * 600) };
          flat.set(key, v);
          map.set(key, v);
          last = v;
        } else if (r < 0.95) {
          if (flat.peek(key) !== map.peek(key)) expect({ op, peek: flat.peek(key) }).toEqual({ op, peek: map.peek(key) });
        } else if (r < 0.999) {
          if (last !== undefined) last.bytes += Math.floor(next() * 300); // (the newest grows while held)
          if (flat.bytes !== map.bytes) expect({ op, bytes: flat.bytes }).toEqual({ op, bytes: map.bytes });
        } else {
          flat.clear();
          map.clear();
          expect([...flatReleased].sort()).toEqual([...mapReleased].sort());
          flatReleased.length = mapReleased.length = 0;
        }
        // (Plain comparisons per operation: expect() 20,000 times over costs seconds.)
        if (flat.size !== map.size || flat.evictions !== map.evictions || flatReleased.length !== mapReleased.length) {
          expect({ op, size: flat.size, evictions: flat.evictions, released: flatReleased.length }).toEqual({ op, size: map.size, evictions: map.evictions, released: mapReleased.length });
        }
      }
      expect(flatReleased).toEqual(mapReleased);
      expect(flat.evictions).toBeGreaterThan(1000);
    });
  }

  it('holds a value past the bound alone (the newest is never evicted), and frees every slot for reuse', () => {
    const released: number[] = [];
    const lru = new HostLru<Held>({ maxBytes: 100, weigh: (v) => v.bytes, release: (v) => released.push(v.id) });
    lru.set(2 ** 52 + 5, { id: 1, bytes: 500 });
    expect(lru.size).toBe(1);
    expect(lru.get(2 ** 52 + 5)?.id).toBe(1);
    lru.set(5, { id: 2, bytes: 10 }); // (the same low 32 bits: another key)
    expect(released).toEqual([1]);
    expect(lru.peek(2 ** 52 + 5)).toBeUndefined();
    expect(lru.get(5)?.id).toBe(2);
    for (let i = 0; i < 10_000; i++) lru.set(i * 2 ** 21, { id: 10 + i, bytes: 60 });
    expect(lru.size).toBe(1);
    expect(lru.bytes).toBe(60);
  });
});

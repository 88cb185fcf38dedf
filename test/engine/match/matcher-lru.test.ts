// The one byte-bounded LRU of compiled matchers (src/engine/match/matcher-lru.ts):
// its order, its two bounds, keepNewest, when values are weighed again, and
// which way out releases a value.
import { describe, expect, it } from 'vitest';
import { MatcherLru } from '../../../src/engine/match/matcher-lru.js';

interface Value {
  name: string;
  bytes: number;
  released: number;
}

function lru(maxBytes: number, more: { maxEntries?: number; keepNewest?: boolean } = {}) {
  const released: string[] = [];
  const cache = new MatcherLru<string, Value>({
    maxBytes,
    ...more,
    weigh: (v) => v.bytes,
    release: (v) => {
      v.released++;
      released.push(v.name);
    },
  });
  const put = (name: string, bytes = 10): Value => {
    const v = { name, bytes, released: 0 };
    cache.set(name, v);
    return v;
  };
  const keys = () => ['a', 'b', 'c', 'd', 'e'].filter((k) => cache.peek(k) !== undefined);
  return { cache, put, released, keys };
}

describe('MatcherLru', () => {
  it('evicts the least recently used first: get() and set() make a value the most recent, peek() does not', () => {
    const { cache, put, released, keys } = lru(30);
    put('a');
    put('b');
    put('c');
    expect(cache.get('a')?.name).toBe('a'); // order now b, c, a
    cache.peek('b'); // (no move)
    put('d'); // 40 bytes: b goes
    expect(released).toEqual(['b']);
    expect(keys()).toEqual(['a', 'c', 'd']);
    put('e'); // c goes
    expect(released).toEqual(['b', 'c']);
    expect(cache.evictions).toBe(2);
    expect(cache).toMatchObject({ size: 3, bytes: 30 });
  });

  it('maxEntries bounds the count, maxBytes the weight: both hold after each call', () => {
    const { cache, put, released } = lru(1000, { maxEntries: 2 });
    put('a');
    put('b');
    put('c');
    expect(released).toEqual(['a']);
    put('d', 995); // the weight: b and c go (a value alone past it stays only with keepNewest)
    expect(released).toEqual(['a', 'b', 'c']);
    expect(cache).toMatchObject({ size: 1, bytes: 995 });
  });

  it('a value alone past maxBytes: evicted itself without keepNewest, kept with it', () => {
    const plain = lru(50);
    plain.put('a');
    const big = plain.put('b', 60);
    expect(big.released).toBe(1);
    expect(plain.cache).toMatchObject({ size: 0, bytes: 0 });
    const keeping = lru(50, { keepNewest: true });
    keeping.put('a');
    keeping.put('b', 60);
    expect(keeping.released).toEqual(['a']);
    expect(keeping.cache).toMatchObject({ size: 1, bytes: 60 });
    // Once another is used, it is no longer spared.
    keeping.put('c');
    expect(keeping.released).toEqual(['a', 'b']);
  });

  it('the most recent value is weighed again when another takes its place or bytes is read; others when their owner says', () => {
    const { cache, put, released } = lru(100, { keepNewest: true });
    const a = put('a');
    const b = put('b');
    b.bytes = 50; // b, the most recent, grew as it was used
    expect(cache.bytes).toBe(60);
    b.bytes = 85;
    cache.get('a'); // weighs b: 95, within the bound
    expect(released).toEqual([]);
    a.bytes = 30; // a grew while it was the most recent; b is older now
    cache.get('b'); // weighs a: 115 past 100, a (least recent) goes
    expect(released).toEqual(['a']);
    expect(cache.bytes).toBe(85);
    // A value that grows while it is not the most recent: its owner reweighs it.
    put('c');
    b.bytes = 95;
    expect(cache.bytes).toBe(95); // (not weighed yet)
    cache.reweigh('b');
    expect(released).toEqual(['a', 'b']);
  });

  it('evicted, replaced and cleared values are released once; delete() hands a value back unreleased', () => {
    const { cache, put, released } = lru(100);
    const a = put('a');
    put('b');
    const c = put('c');
    cache.set('c', c); // the same value again: kept, not released
    expect(c.released).toBe(0);
    put('a'); // another value for a: the old one released
    expect(a.released).toBe(1);
    expect(cache.delete('b')?.name).toBe('b');
    expect(released).toEqual(['a']);
    expect(cache.delete('b')).toBeUndefined();
    cache.clear();
    expect(released).toEqual(['a', 'c', 'a']);
    expect(cache).toMatchObject({ size: 0, bytes: 0, evictions: 0 });
    expect(cache.get('a')).toBeUndefined();
    put('d');
    expect(cache.bytes).toBe(10);
  });

  it('a release that calls into the LRU finds it whole', () => {
    const seen: number[] = [];
    const cache: MatcherLru<number, number> = new MatcherLru<number, number>({
      maxBytes: 2,
      weigh: () => 1,
      release: () => seen.push(cache.size, cache.bytes),
    });
    for (let k = 0; k < 4; k++) cache.set(k, k);
    expect(seen).toEqual([2, 2, 2, 2]);
    expect(cache.peek(0)).toBeUndefined();
    expect(cache.peek(3)).toBe(3);
  });
});

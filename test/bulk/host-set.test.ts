// The classifier's set of hosts seen (by the core's two hashes of each): what a Set of their 53-bit keys says.
import { describe, expect, it } from 'vitest';
import { HostSet } from '../../src/bulk/classify/host-set.js';
import { propertySeed } from '../helpers/seed.js';

describe('HostSet', () => {
  it('adds each pair once, through growth, hashes with the top bit set and equal first hashes included', () => {
    const set = new HostSet();
    const reference = new Set<number>();
    let seed = propertySeed();
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 50_000; i++) {
      // Few distinct first hashes (all odd, as the core's), so that pairs differ by the second only.
      const h1 = (next() % 3000) * 2 + 1 + (i % 2 === 0 ? 0x80000000 : 0);
      const h2 = next();
      const key = h1 * 0x200000 + (h2 >>> 11);
      expect(set.add(h1 >>> 0, h2)).toBe(!reference.has(key));
      reference.add(key);
      if (i % 3 === 0) expect(set.add(h1 >>> 0, h2)).toBe(false); // again
    }
    expect(set.size).toBe(reference.size);
  });

  it('counts a run\'s hosts by the 53-bit keys blocks report (addKey) as a Set of the keys does, alongside add()', () => {
    // (The run's totals took the keys into a Set, one boxed number kept per host.)
    const byKey = new HostSet();
    const byPair = new HostSet();
    const reference = new Set<number>();
    let seed = propertySeed();
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    // (Disagreements counted and asserted once: an expect per add held a loaded machine's event loop for seconds.)
    let disagreements = 0;
    for (let i = 0; i < 50_000; i++) {
      const h1 = ((next() % 3000) * 2 + 1 + (i % 2 === 0 ? 0x80000000 : 0)) >>> 0;
      const h2 = next();
      const key = h1 * 0x200000 + (h2 >>> 11);
      if (byKey.addKey(key) !== !reference.has(key)) disagreements++;
      if (byPair.add(h1, h2) !== !reference.has(key)) disagreements++;
      reference.add(key);
      if (i % 3 === 0 && byKey.addKey(key)) disagreements++; // again
    }
    expect(disagreements).toBe(0);
    expect(byKey.size).toBe(reference.size);
    // A key added by its pair is the same host by its key, and the other way round.
    let h2 = next();
    expect(byPair.addKey(0xfffffffd * 0x200000 + (h2 >>> 11))).toBe(true);
    expect(byPair.add(0xfffffffd, h2)).toBe(false);
    h2 = next();
    expect(byKey.add(7, h2)).toBe(true);
    expect(byKey.addKey(7 * 0x200000 + (h2 >>> 11))).toBe(false);
  });
});

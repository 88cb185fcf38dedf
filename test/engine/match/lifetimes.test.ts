// Who frees what: verdicts from a RobotsTxt never leak, whatever the caller
// does (no dispose, a synchronous loop that never lets the event loop turn, so
// no FinalizationRegistry callback runs); a disposed Matcher says so.
import { describe, expect, it } from 'vitest';
import { compileOctets, coreAllocatedBytes, coreMemoryBytes, DisposedError, OWN_MATCHERS_BYTES, ownMatcherStats, parse } from '../../../src/internal.js';
import { gc } from '../../helpers/gc.js';

const MiB = 2 ** 20;
const BODY = [
  'User-agent: *', 'Disallow: /private/', 'Allow: /private/ok', 'Disallow: /*.pdf$', 'Disallow: /search?', 'Disallow: /*?sort=',
  'User-agent: Googlebot', 'Disallow: /nogoogle', 'Allow: /', 'Disallow: /tmp/*/cache',
].join('\n');
/** The stated bound: what the soak loops below may add to the core's memory. The
 * pool of RobotsTxt's own matchers holds at most OWN_MATCHERS_BYTES (32 MiB), and
 * the allocator grows the memory in doublings. Before the pool, 100,000 lifetimes
 * of this file added about 140 MiB (and 3.3 GiB for a file of 80 rules). */
const BOUND = 48 * MiB;

describe('RobotsTxt verdicts in a loop that never yields', () => {
  // 100,000 parses: 3.4 to 5.8 s on 2 cores loaded by other runs; 60 s for a margin.
  it('100,000 parse().isAllowed() stay under the stated memory bound', () => {
    const before = coreMemoryBytes();
    let allowed = 0;
    for (let i = 0; i < 100_000; i++) {
      if (parse(BODY).isAllowed(`https://example.com/tmp/${i}/cache/x?sort=1`, 'Googlebot')) allowed++;
    }
    expect(allowed).toBe(0);
    expect(coreMemoryBytes() - before).toBeLessThan(BOUND);
    const pool = ownMatcherStats();
    expect(pool.bytes).toBeLessThanOrEqual(OWN_MATCHERS_BYTES + MiB); // at most one matcher past the bound
    expect(pool.matchers).toBeGreaterThan(100); // it keeps many: a crawler's hosts are not compiled over and over
  }, 60_000);

  // 5 to 10 s on 2 cores loaded by other runs; 60 s for a margin.
  it('explain and several agents, in a loop that awaits only resolved promises', async () => {
    const before = coreMemoryBytes();
    for (let i = 0; i < 20_000; i++) {
      const robots = parse(`${BODY}\nDisallow: /x${i}\n`, { profile: i % 2 ? 'rfc' : 'google' });
      expect(robots.explain(`/x${i}`, 'Googlebot')).toMatchObject({ allowed: false, line: 11 });
      expect(robots.isAllowed('/private/x', 'FooBot')).toBe(false);
      expect(robots.isAllowed('/private/x', ['FooBot', 'Googlebot'])).toBe(true);
      await Promise.resolve();
    }
    expect(coreMemoryBytes() - before).toBeLessThan(BOUND);
    expect(ownMatcherStats().bytes).toBeLessThanOrEqual(OWN_MATCHERS_BYTES + MiB);
  }, 60_000);
});

describe('ownership', () => {
  it('RobotsTxt.dispose() frees its matchers now, and the next verdict compiles again', () => {
    const robots = parse(BODY);
    expect(robots.isAllowed('/private/x', 'FooBot')).toBe(false);
    const held = ownMatcherStats().matchers;
    robots.dispose();
    expect(ownMatcherStats().matchers).toBe(held - 1);
    robots.dispose(); // twice is fine
    expect(robots.isAllowed('/private/x', 'FooBot')).toBe(false);
    expect(robots.explain('/private/ok', 'FooBot')).toMatchObject({ allowed: true, line: 3 });
    robots.dispose();
  });

  it('a RobotsTxt whose matcher the pool disposed compiles it again', () => {
    const first = parse(BODY);
    expect(first.isAllowed('/nogoogle', 'Googlebot')).toBe(false);
    // Other files of twice the pool's bound in all push the first one's matcher out.
    const body = `User-agent: *\n${Array.from({ length: 2000 }, (_, i) => `Disallow: /r${i}/*/x`).join('\n')}`;
    const probe = parse(body).compile('FooBot');
    probe.isAllowed('/r1/a/x');
    const weight = probe.heldBytes;
    probe.dispose();
    for (let i = 0; i < (2 * OWN_MATCHERS_BYTES) / weight; i++) parse(body).isAllowed('/r1/a/x', 'FooBot');
    expect(ownMatcherStats().bytes).toBeLessThanOrEqual(OWN_MATCHERS_BYTES + MiB);
    expect(first.isAllowed('/nogoogle', 'Googlebot')).toBe(false);
    expect(first.isAllowed('/nogoogle', 'FooBot')).toBe(true);
  });

  it('matchers dropped without dispose() are freed once collected (the backstop), cold and hot, with rule texts or not', async () => {
    const robots = parse(BODY);
    // (The compiler's scratch is made: the cold compile's in the core and the hot one's.)
    robots.compile('FooBot').dispose();
    robots.compile('FooBot', { coldOctets: 0 }).dispose();
    const before = coreAllocatedBytes();
    (() => {
      for (let i = 0; i < 2000; i++) {
        const m = robots.compile('Googlebot', { coldOctets: i % 3 === 0 ? 0 : undefined, ruleTexts: i % 5 === 0 });
        m.isAllowed(`https://example.com/tmp/${i}/cache/x`);
      }
    })();
    expect(coreAllocatedBytes() - before).toBeGreaterThan(2000 * 256);
    for (let turn = 0; turn < 50 && coreAllocatedBytes() - before > 4096; turn++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(coreAllocatedBytes() - before).toBeLessThanOrEqual(4096);
  });

  it("a disposed matcher, once collected, does not free the matcher that took its address (dispose() takes it off the backstop)", async () => {
    const robots = parse(BODY);
    const disposed = new Set<number>();
    (() => {
      for (let i = 0; i < 200; i++) {
        const m = robots.compile('Googlebot', { coldOctets: i % 2 === 0 ? 0 : undefined });
        disposed.add(m.address);
        m.dispose();
      }
    })();
    // The next matchers take those addresses; the disposed ones are collected meanwhile.
    const live = Array.from({ length: 200 }, (_, i) => robots.compile('Googlebot', { coldOctets: i % 2 === 0 ? 0 : undefined }));
    expect(live.filter((m) => disposed.has(m.address)).length).toBeGreaterThan(0);
    const held = coreAllocatedBytes();
    for (let turn = 0; turn < 5; turn++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(coreAllocatedBytes()).toBe(held);
    for (const m of live) {
      expect(m.isAllowed('https://example.com/nogoogle')).toBe(false);
      expect(m.isAllowed('https://example.com/tmp/1/cache/x')).toBe(false);
      expect(m.isAllowed('https://example.com/tmp/1/other')).toBe(true);
      m.dispose();
    }
  });

  it('a disposed Matcher throws a DisposedError on every verdict', () => {
    const m = parse(BODY).compile('FooBot');
    expect(m.disposed).toBe(false);
    m.dispose();
    m.dispose(); // twice is fine
    expect(m.disposed).toBe(true);
    expect(() => m.isAllowed('/a')).toThrow(DisposedError);
    expect(() => m.explain('/a')).toThrow(DisposedError);
    expect(() => m.checkMany(['/a'])).toThrow(DisposedError);
    expect(() => m.isAllowed('/a')).toThrow(/disposed/);
    expect(m.stats.bytes).toBe(0);
  });

  it("the core holds the body lexed last (a compile right after its parse copies nothing): other parses and the caller's reused buffer never leak into a compile", () => {
    const text = (path: string) => new TextEncoder().encode(`User-agent: *\nDisallow: ${path}\n`);
    const buffer = text('/aaaa');
    const a = parse(buffer);
    buffer.set(text('/bbbb')); // the caller reuses its buffer: a keeps its own copy
    const b = parse(buffer);
    const c = parse('User-agent: *\nDisallow: /cccc\n');
    for (const [robots, path] of [[a, '/aaaa'], [b, '/bbbb'], [c, '/cccc'], [a, '/aaaa'], [b, '/bbbb']] as const) {
      const m = robots.compile('FooBot');
      expect(m.explain(`https://example.com${path}`).rule?.pattern, path).toBe(path);
      for (const other of ['/aaaa', '/bbbb', '/cccc']) expect(m.isAllowed(`https://example.com${other}`), `${path} ${other}`).toBe(other !== path);
      m.dispose();
    }
  });

  it('a large body and a long URL do not keep the core\'s areas grown: freed at the next compile, and a robots.txt compiled again after it copies its body again', () => {
    const small = parse('User-agent: *\nDisallow: /x\n');
    small.compile('FooBot').dispose(); // (the areas at their usual size)
    const held = coreAllocatedBytes();
    const big = parse(`User-agent: *\nDisallow: /big\n${'# filler, as some sites pad their robots.txt\n'.repeat(8000)}`); // 360 KB
    const m = big.compile('FooBot');
    expect(coreAllocatedBytes() - held).toBeLessThan(4096); // its body's area freed by its compile
    expect(m.isAllowed(`https://example.com/big/${'a'.repeat(100_000)}`)).toBe(false);
    expect(coreAllocatedBytes() - held).toBeGreaterThan(200_000); // the URL's area (3 octets a unit), until the next compile
    m.dispose();
    const again = big.compile('FooBot');
    expect(coreAllocatedBytes() - held).toBeLessThan(4096);
    expect(again.isAllowed('https://example.com/big/x')).toBe(false);
    expect(again.isAllowed('https://example.com/x')).toBe(true);
    expect(again.explain('https://example.com/big/x').rule?.pattern).toBe('/big');
    again.dispose();
  });

  it('compileOctets reads the caller\'s octets during the call only: the same buffer, changed in place, compiles to its new rules', () => {
    const text = (path: string) => new TextEncoder().encode(`User-agent: *\nDisallow: ${path}\n`);
    const buffer = text('/aaaa');
    const view = buffer.subarray(0); // (one view object, as a reader that reuses its buffer may pass)
    for (const path of ['/aaaa', '/bbbb', '/cccc']) {
      buffer.set(text(path));
      const m = compileOctets(view, { profile: 'google' }, 'FooBot');
      buffer.fill(0x23); // changed once the call returned: the matcher keeps its own copy of its rules
      expect(m.explain(`https://example.com${path}`).rule?.pattern, path).toBe(path);
      for (const other of ['/aaaa', '/bbbb', '/cccc']) expect(m.isAllowed(`https://example.com${other}`), `${path} ${other}`).toBe(other !== path);
      m.dispose();
    }
  });
});

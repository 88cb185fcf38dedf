import { describe, expect, it } from 'vitest';
import { copyOctets, encodeOctets, ownedOctets, POOLED_MAX } from '../../../src/engine/parse/octet-pool.js';
import { parse } from '../../../src/engine/robots-txt.js';
import { robotsInternals } from '../../../src/internal.js';

const utf8 = new TextEncoder();

describe('octet-pool: the copies parse() keeps', () => {
  it('copies small bodies into a shared block and large ones into buffers of their own, octet for octet', () => {
    const a = copyOctets(utf8.encode('User-agent: *\nDisallow: /a\n'));
    const b = copyOctets(utf8.encode('User-agent: *\nDisallow: /b\n'));
    expect(a.buffer).toBe(b.buffer);
    expect(a.byteOffset % 8).toBe(0);
    expect(b.byteOffset).toBeGreaterThanOrEqual(a.byteOffset + a.length);
    expect(new TextDecoder().decode(a)).toBe('User-agent: *\nDisallow: /a\n');
    const large = new Uint8Array(POOLED_MAX + 1).fill(0x41);
    const copy = copyOctets(large);
    expect(copy.buffer).not.toBe(large.buffer);
    expect(copy.byteLength).toBe(copy.buffer.byteLength);
    expect(copy).toEqual(large);
  });

  it("copies a Node Buffer's octets (its slice() would be a view of them)", () => {
    for (const size of [40, POOLED_MAX + 40]) {
      const buffer = Buffer.alloc(size, 0x61);
      const copy = copyOctets(buffer);
      buffer.fill(0x62);
      expect(copy.every((c) => c === 0x61), `size ${size}`).toBe(true);
    }
  });

  it('encodes strings as TextEncoder does (multi-octet characters, lone surrogates), and the next copy does not overlap', () => {
    for (const text of ['', 'ascii', 'é/ü', '日本語/パス', '\u{1F600}/x', 'a\uD800b', '\uDC00', 'x'.repeat(POOLED_MAX)]) {
      const got = encodeOctets(text);
      const next = copyOctets(new Uint8Array(64).fill(0x7a));
      expect(got, JSON.stringify(text.slice(0, 20))).toEqual(utf8.encode(text));
      expect(next.every((c) => c === 0x7a)).toBe(true);
    }
  });

  it('moves a pooled copy to a buffer of its own (what is kept long), and leaves one that has its own', () => {
    const pooled = copyOctets(utf8.encode('Disallow: /x'));
    const own = ownedOctets(pooled);
    expect(own).not.toBe(pooled);
    expect(own.byteLength).toBe(own.buffer.byteLength);
    expect(own).toEqual(pooled);
    expect(ownedOctets(own)).toBe(own);
  });

  it("a parse keeps its verdicts when the caller's Buffer or array is reused, at any size, and heldBytes (a cache keeping it) keeps them too", () => {
    for (const pad of [0, POOLED_MAX]) {
      const text = (path: string) => Buffer.from(`${'#'.repeat(pad)}\nUser-agent: *\nDisallow: ${path}\n`);
      const buffer = text('/aaaa');
      const robots = parse(buffer, { profile: 'google' });
      text('/bbbb').copy(buffer);
      const others = [parse(text('/cccc')), parse(`User-agent: *\nDisallow: /dddd\n`)];
      expect(robotsInternals(robots).heldBytes).toBeGreaterThan(0);
      expect(robots.isAllowed('https://example.com/aaaa', 'FooBot'), `pad ${pad}`).toBe(false);
      expect(robots.isAllowed('https://example.com/bbbb', 'FooBot'), `pad ${pad}`).toBe(true);
      expect(others[0].isAllowed('https://example.com/cccc', 'FooBot')).toBe(false);
      expect(others[1].isAllowed('https://example.com/dddd', 'FooBot')).toBe(false);
      robots.dispose();
      for (const o of others) o.dispose();
    }
  });

  it('cuts a string body at maxOctets as its UTF-8 octets count them (a diagnostic says so)', () => {
    const limit = 512_000;
    const body = `User-agent: *\nDisallow: /a\n# ${'é'.repeat(limit / 2)}\nDisallow: /b\n`;
    const robots = parse(body, { maxOctets: limit });
    expect(robots.diagnostics.some((d) => d.code === 'size-limit')).toBe(true);
    expect(robots.isAllowed('https://example.com/a', 'FooBot')).toBe(false);
    expect(robots.isAllowed('https://example.com/b', 'FooBot')).toBe(true);
    expect(parse(body, { maxOctets: Infinity }).isAllowed('https://example.com/b', 'FooBot')).toBe(false);
  });
});

// usage() on hostile input (issue 42, items 3, 4 and 6): Content-Usage path
// patterns matched by the engine's compiled matcher (one per crawler's rules,
// in the pool of RobotsTxt's own matchers, freed as its matchers are), so a
// file built to be slow costs usage() what it costs isAllowed(); a header's
// Dictionary read in one pass, and a header over 64 KiB refused; odd `headers`
// values ignored one by one, and `headers` that is no object a TypeError.
import { describe, expect, it } from 'vitest';
import { parse, OWN_MATCHERS_BYTES } from '../../src/index.js';
import { ownMatcherStats, robotsInternals } from '../../src/internal.js';
import { parseDictionary } from '../../src/engine/usage/structured-field.js';
import { MAX_HEADER_LENGTH } from '../../src/engine/usage/usage.js';

const MiB = 1 << 20;
const url = (path: string) => `https://example.com${path}`;

/** A hang guard, not a speed test: each bound below is hundreds of times what the work takes on a busy machine. */
function withinGuard<T>(guardMs: number, work: () => T): T {
  const start = performance.now();
  const result = work();
  expect(performance.now() - start, 'hang guard').toBeLessThan(guardMs);
  return result;
}

/** Issue 42's file: 30 rules of 8,000 `*a` (481 KB), each saying something else. */
const HOSTILE = 'User-agent: *\n' + Array.from({ length: 30 }, (_, i) => `Content-Usage: /${'*a'.repeat(8000)}${i} train-ai=n\n`).join('') + 'Content-Usage: / search=y\n';
/** The same patterns as Disallow rules: what isAllowed walks. */
const HOSTILE_RULES = 'User-agent: *\n' + Array.from({ length: 30 }, (_, i) => `Disallow: /${'*a'.repeat(8000)}${i}\n`).join('');

describe('Content-Usage path patterns: the compiled matcher, one per crawler', () => {
  // (Before: a position list per `*`, rebuilt per step: 13-16 s for one usage() of this file.)
  it('issue 42\'s hostile file: usage() answers as a Disallow of the same patterns does, through one compiled matcher', { timeout: 120_000 /* a hang guard: see withinGuard */ }, () => {
    const robots = parse(HOSTILE);
    const disallows = parse(HOSTILE_RULES);
    disallows.isAllowed(url('/'), 'FooBot');
    const held = ownMatcherStats().matchers;
    const paths = ['/', '/x', `/${'a'.repeat(8000)}5`, `/${'ba'.repeat(9000)}29`, `/${'a'.repeat(16000)}`, `/${'ab'.repeat(4000)}7`];
    withinGuard(30_000, () => {
      for (let round = 0; round < 3; round++) {
        for (const p of paths) {
          const u = robots.usage(url(p), 'FooBot');
          const covered = !disallows.isAllowed(url(p), 'FooBot');
          expect(u.purposes['train-ai'], p.slice(0, 20)).toBe(covered ? 'disallowed' : 'unknown');
          expect(u.purposes.search, p.slice(0, 20)).toBe(covered ? 'unknown' : 'allowed');
        }
      }
    });
    // One matcher for the verdicts, one for the Content-Usage paths: not one per URL.
    expect(ownMatcherStats().matchers - held).toBe(2);
    const stats = robotsInternals(robots).crawlerUsage('FooBot').paths!.stats!;
    expect(stats.rules).toBe(31);
    expect(stats.bytes).toBeLessThanOrEqual(8 * MiB);
    robots.dispose();
    expect(ownMatcherStats().matchers).toBe(held);
    disallows.dispose();
  });

  it('1,000 and 100,000 path rules: one compiled matcher, its automaton within the cap, the longest pattern deciding', { timeout: 120_000 /* a hang guard: compiling 100,000 rules on a busy machine */ }, () => {
    for (const count of [1000, 100_000]) {
      const body = 'User-agent: *\n' + Array.from({ length: count }, (_, i) => `Content-Usage: /d${i}/*.pdf$ train-ai=${i % 2 ? 'y' : 'n'}\n`).join('') + 'Content-Usage: /d search=n\n';
      const robots = parse(body, { maxOctets: Infinity });
      withinGuard(60_000, () => {
        for (let i = 0; i < count; i += Math.ceil(count / 200)) {
          expect(robots.usage(url(`/d${i}/x/y.pdf`), 'FooBot').purposes).toEqual({ search: 'unknown', 'train-ai': i % 2 ? 'allowed' : 'disallowed', 'ai-use': 'unknown' });
          expect(robots.usage(url(`/d${i}/x/y.pdfx`), 'FooBot').purposes).toEqual({ search: 'disallowed', 'train-ai': 'unknown', 'ai-use': 'unknown' });
        }
      });
      const stats = robotsInternals(robots).crawlerUsage('FooBot').paths!.stats!;
      expect(stats.rules).toBe(count + 1);
      expect(stats.bytes).toBeLessThanOrEqual(8 * MiB);
      robots.dispose();
    }
  });

  it('the matcher lives in the pool of RobotsTxt\'s own matchers: a loop of parses stays within its bound', () => {
    const body = 'User-agent: *\n' + Array.from({ length: 200 }, (_, i) => `Content-Usage: /p${i}* train-ai=n\n`).join('');
    for (let i = 0; i < 400; i++) expect(parse(body).usage(url(`/p${i % 200}x`), 'FooBot').purposes['train-ai']).toBe('disallowed');
    expect(ownMatcherStats().bytes).toBeLessThanOrEqual(OWN_MATCHERS_BYTES + MiB);
  });

  it('a matcher the pool disposed is compiled again when asked', () => {
    const robots = parse('User-agent: *\nContent-Usage: /a train-ai=n\n');
    expect(robots.usage(url('/a'), 'FooBot').purposes['train-ai']).toBe('disallowed');
    robots.dispose();
    expect(robotsInternals(robots).crawlerUsage('FooBot').paths?.stats).toBeUndefined();
    expect(robots.usage(url('/a'), 'FooBot').purposes['train-ai']).toBe('disallowed');
    expect(robotsInternals(robots).crawlerUsage('FooBot').paths?.stats?.rules).toBe(1);
  });

  it('different patterns of the same length: the first in file order decides; the same pattern (normalised) combines', () => {
    const first = parse('User-agent: *\nContent-Usage: /a* train-ai=y\nContent-Usage: /*b train-ai=n\n');
    expect(first.usage(url('/ab'), 'FooBot').purposes['train-ai']).toBe('allowed');
    const swapped = parse('User-agent: *\nContent-Usage: /*b train-ai=n\nContent-Usage: /a* train-ai=y\n');
    expect(swapped.usage(url('/ab'), 'FooBot').purposes['train-ai']).toBe('disallowed');
    // Under rfc, /%7Ea and /~a are one pattern: they combine (any n wins), in the order written.
    const same = parse('User-agent: *\nContent-Usage: /~a train-ai=y, search=y\nContent-Usage: /%7Ea train-ai=n\nContent-Usage: /%7ea search=n\n');
    const u = same.usage(url('/~a'), 'FooBot');
    expect(u.purposes).toEqual({ search: 'disallowed', 'train-ai': 'disallowed', 'ai-use': 'unknown' });
    expect(u.signals.map((s) => s.line)).toEqual([2, 2, 3, 4]);
  });
});

describe('header Dictionaries', () => {
  // (Before: each key looked up with findIndex: 64,000 keys took 9.9 s.)
  it('read in one pass: 200,000 distinct keys, and as many repeats of one', () => {
    const distinct = Array.from({ length: 200_000 }, (_, i) => `k${i}=?1`).join(', ');
    const members = withinGuard(20_000, () => parseDictionary(distinct));
    expect(members?.length).toBe(200_000);
    expect(members?.at(-1)?.key).toBe('k199999');
    const repeated = Array.from({ length: 200_000 }, (_, i) => (i % 2 ? `a=${i}` : `k${i}=1`)).join(', ');
    const kept = withinGuard(20_000, () => parseDictionary(repeated))!;
    // A repeated key keeps its first place and takes its last value.
    expect(kept[0].key).toBe('k0');
    expect(kept[1]).toEqual({ key: 'a', value: { kind: 'integer' }, text: 'a=199999' });
    expect(kept.length).toBe(100_001);
  });

  it(`a header over ${MAX_HEADER_LENGTH} characters is refused: it says nothing, one invalid signal, cut`, () => {
    expect(MAX_HEADER_LENGTH).toBe(65_536);
    const robots = parse('User-agent: *\nContent-Usage: search=y\n');
    const pad = (field: string, n: number) => field + ', x=' + 'a'.repeat(n - field.length - 4);
    const at = pad('train-ai=n', MAX_HEADER_LENGTH);
    expect(at.length).toBe(MAX_HEADER_LENGTH);
    expect(robots.usage(url('/'), 'FooBot', { headers: { 'content-usage': at } }).purposes['train-ai']).toBe('disallowed');
    const over = pad('train-ai=n', MAX_HEADER_LENGTH + 1);
    const u = robots.usage(url('/'), 'FooBot', { headers: { 'content-usage': over } });
    expect(u.purposes).toEqual({ search: 'allowed', 'train-ai': 'unknown', 'ai-use': 'unknown' });
    expect(u.signals.filter((s) => s.header)).toEqual([{ field: 'content-usage', value: `${over.slice(0, 60)}…`, line: 0, invalid: true, header: true }]);
    // Content-Signal too; and the limit is on the field's value, its lines joined.
    const lines = ['ai-train=no', 'search=no, x=' + 'a'.repeat(MAX_HEADER_LENGTH)];
    const s = robots.usage(url('/'), 'FooBot', { headers: new Headers([['Content-Signal', lines[0]], ['Content-Signal', lines[1]]]) });
    expect(s.purposes['train-ai']).toBe('unknown');
    expect(s.signals.filter((x) => x.header)).toMatchObject([{ field: 'content-signal', invalid: true, header: true }]);
    // The hostile header of the issue (64,000 keys, 437 KB): refused at once.
    const huge = Array.from({ length: 64_000 }, (_, i) => `k${i}=?1`).join(', ');
    expect(withinGuard(10_000, () => robots.usage(url('/'), 'FooBot', { headers: { 'content-usage': huge } })).signals.filter((x) => x.header).length).toBe(1);
  });
});

describe('odd headers', () => {
  const robots = parse('User-agent: *\nContent-Usage: search=y\n');
  const train = (headers: unknown) => robots.usage(url('/'), 'FooBot', { headers: headers as never }).purposes['train-ai'];

  it('a get() returning something else than a string or null: that header is absent', () => {
    for (const odd of [42, ['train-ai=n'], { toString: () => 'train-ai=n' }, undefined, true]) {
      expect(train({ get: () => odd }), String(odd)).toBe('unknown');
      expect(robots.explainAll(url('/'), 'FooBot', { headers: { get: () => odd } as never }).purposes['train-ai']).toBe('unknown');
    }
    expect(train({ get: (name: string) => (name === 'content-usage' ? 'train-ai=n' : 7) })).toBe('disallowed');
  });

  it('a record: strings and arrays of strings are read; any other value, and any other member of an array, is ignored', () => {
    expect(train({ 'content-usage': 42 })).toBe('unknown');
    expect(train({ 'content-usage': [{ a: 1 }, 'train-ai=n'] })).toBe('disallowed');
    expect(train({ 'content-usage': [7, null, 'train-ai=n', ['x']], 'Content-Usage': 'search=n' })).toBe('disallowed');
    const u = robots.usage(url('/'), 'FooBot', { headers: { 'content-usage': [{ a: 1 }, 'train-ai=n'] } as never });
    expect(u.signals.filter((s) => s.header).map((s) => s.value)).toEqual(['train-ai=n']);
  });

  it('headers that are no object: a TypeError naming headers', () => {
    for (const odd of ['train-ai=n', 42, true]) {
      expect(() => robots.usage(url('/'), 'FooBot', { headers: odd as never })).toThrow(/^headers must be/);
      expect(() => robots.usage(url('/'), 'FooBot', { headers: odd as never })).toThrow(TypeError);
      expect(() => robots.explainAll(url('/'), 'FooBot', { headers: odd as never })).toThrow(/^headers must be/);
    }
    // Absent: no headers.
    expect(train(undefined)).toBe('unknown');
    expect(train(null)).toBe('unknown');
  });
});

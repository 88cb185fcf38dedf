// RobotsCache's maxBytes holds whatever its callers ask: the answers an entry's
// parsed file keeps (operatorUsage()'s, at most 1,024 a file at some 1 KB each,
// and usage()'s entries for other crawlers) are weighed with the entry, which is
// weighed again when they grow; past a share of the budget they are dropped with
// the parsed file (parsed again when next asked), not the entry, whose file
// would be fetched again. Against a real HTTP server on 127.0.0.1; the heap the cache
// frees when cleared (after a full collection) is within its budget (the
// estimate per answer is held to the heap by test/engine/kept-answers-bytes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, RobotsCache } from '../../src/index.js';
import { serve, startServer, type TestServer } from '../helpers/http-servers.js';
import { gc } from '../helpers/gc.js';

/** Allow lines: each URL asked below is decided by its own (the verdict's line), so each operator answer is another. */
const RULES = 1000;
const FILE = 'User-agent: *\nContent-Usage: train-ai=n\nDisallow: /private\n' + Array.from({ length: RULES }, (_, i) => `Allow: /p${i}/\n`).join('');
/** Under what 1,000 kept answers alone hold (some 1.2 MB), and over twice the entry parsed. */
const MAX_BYTES = 512 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await startServer(serve(FILE), { log: false });
});
afterAll(() => server?.close());

/** Heap and buffers in use, after a full collection (the compiled matchers are the core's, and the pool's: not these). */
function heap(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

describe('RobotsCache weighs the answers an entry keeps', () => {
  // 1,000 operator answers and one fetch on 127.0.0.1: well under a second; 60 s is a hang guard for a loaded machine.
  it('operatorUsage() on ever new rules: the entry is weighed again, and its answers dropped past their share of maxBytes, not the entry (no fetch again)', { timeout: 60_000 }, async () => {
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', maxBytes: MAX_BYTES, timeoutMs: 10_000 });
    const page = (i: number) => `${server.origin}/p${i}/page`;
    await cache.operatorUsage(page(0), 'google');
    expect(cache.stats.bytes).toBeLessThan(MAX_BYTES / 2);
    const first = new WeakRef((await cache.lookup(page(0))).robots!);
    const alone = parse(FILE);
    let most = 0;
    for (let i = 1; i < RULES; i++) {
      const answer = await cache.operatorUsage(page(i), 'google');
      const bytes = cache.stats.bytes;
      most = Math.max(most, bytes);
      expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
      if (i % 97 === 0) expect(answer).toEqual(alone.operatorUsage(page(i), 'google'));
    }
    // The kept answers grew the entry past a quarter of the budget, where the file's parse (its answers with it) was
    // dropped and parsed again: the entry stayed, its file fetched once.
    expect(most).toBeGreaterThan(MAX_BYTES / 4);
    expect(most).toBeLessThan(MAX_BYTES / 2);
    expect(cache.stats.fetches).toBe(1);
    expect(cache.stats.entries).toBe(1);
    // The dropped parse, its answers with it, is freed (the cache holds it no more). (A turn of the event loop first:
    // a WeakRef's target is held until the microtasks drain, and no fetch came between.)
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(first.deref()).toBeUndefined();
  });

  // 8,000 operator answers, 8 origins' fetches on 127.0.0.1: a few seconds; 120 s is a hang guard for a loaded machine.
  it('origins whose files keep answers: the least recently used leave; the heap the cache holds is within maxBytes, and its estimate covers it', { timeout: 120_000 }, async () => {
    // Several origins, a budget several times theirs alone: what the heap shows is measured past its noise.
    const origins = 8;
    const maxBytes = 4 * 2 ** 20;
    const fetch = (url: string, init: RequestInit) => globalThis.fetch(`${server.origin}/robots.txt`, init);
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', maxBytes, timeoutMs: 10_000, fetch });
    for (let o = 0; o < origins; o++) {
      for (let i = 0; i < RULES; i++) await cache.operatorUsage(`https://o-${o}.example/p${i}/page`, 'google');
      expect(cache.stats.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.stats.fetches).toBe(origins);
    expect(cache.stats.entries).toBeLessThan(origins);
    const { bytes: estimated, entries } = cache.stats;
    expect(estimated).toBeGreaterThan(maxBytes * 0.6);
    const before = heap();
    cache.clear();
    const real = before - heap();
    console.log(`${origins} origins of ${RULES} operator answers each: ${entries} kept, estimated ${estimated} B, heap freed on clear ${real} B; maxBytes ${maxBytes}`);
    // (An answer's estimate is what the costlier answers hold: these, of one signal, hold less. The bound is on the heap.)
    expect(real).toBeLessThanOrEqual(maxBytes);
    expect(estimated / real, `estimated ${estimated}, measured ${real}`).toBeGreaterThan(0.8);
  });

  it('usage() and policy() for other crawlers: what the file keeps for them is weighed as it is kept', { timeout: 60_000 }, async () => {
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', maxBytes: MAX_BYTES, timeoutMs: 10_000 });
    const url = `${server.origin}/p1/page`;
    await cache.policy(url, 'AgentA');
    const parsed = cache.stats.bytes;
    for (let i = 0; i < 8; i++) await cache.usage(url, { agent: `Agent${String.fromCharCode(65 + i)}` });
    const eight = cache.stats.bytes;
    expect(eight).toBeGreaterThan(parsed);
    // Agents already kept: nothing more.
    for (let i = 0; i < 8; i++) await cache.usage(url, { agent: `Agent${String.fromCharCode(65 + i)}` });
    expect(cache.stats.bytes).toBe(eight);
    expect(cache.stats.fetches).toBe(1);
  });
});

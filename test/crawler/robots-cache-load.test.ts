// RobotsCache under load: 10,000 lookups over 1,000 origins, each a real
// node:http server on its own 127.0.0.1 port, with a cache that holds fewer
// origins than are crawled (so it evicts and refetches all along). Every
// verdict is checked, and memory stays within the cache's bounds.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RobotsCache } from '../../src/index.js';
import type { Handler, TestServer } from '../helpers/http-servers.js';
import { startServer } from '../helpers/http-servers.js';
import { propertySeed } from '../helpers/seed.js';
import { gc } from '../helpers/gc.js';

const ORIGINS = 1000;
const LOOKUPS = 10_000;
const CONCURRENCY = 64;
const MAX_ENTRIES = 300;
const MAX_BYTES = 8 * 2 ** 20;
const MiB = 2 ** 20;


/** What origin i serves, and so what the crawler may fetch there. */
type Kind = 'rules' | 'gzip' | 'big' | 'redirect' | 'missing' | 'down';
const KINDS: Kind[] = ['rules', 'rules', 'rules', 'gzip', 'gzip', 'big', 'redirect', 'missing', 'missing', 'down'];
const kindOf = (i: number): Kind => KINDS[i % KINDS.length];
const rulesOf = (i: number) => `User-agent: *\nDisallow: /private-${i}\nAllow: /private-${i}/open\n`;
const FILLER = '# padding: a real robots.txt is often long\n'.repeat(500); // ~21 KB

function handlerFor(i: number): Handler {
  switch (kindOf(i)) {
    case 'rules':
      return (_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(rulesOf(i));
    case 'gzip':
      return (_, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(rulesOf(i)));
    case 'big':
      return (_, res) => res.writeHead(200).end(FILLER + rulesOf(i) + FILLER);
    case 'redirect':
      return (req, res) => {
        if (req.url === '/robots.txt') res.writeHead(301, { location: '/real-robots.txt' }).end();
        else res.writeHead(200).end(rulesOf(i));
      };
    case 'missing':
      return (_, res) => res.writeHead(404).end('not found');
    case 'down':
      return (_, res) => res.writeHead(503).end('down');
  }
}

/** The right verdict for a path of origin i. */
function expected(i: number, path: string): boolean {
  const kind = kindOf(i);
  if (kind === 'missing') return true;
  if (kind === 'down') return false;
  return !(path.startsWith(`/private-${i}`) && !path.startsWith(`/private-${i}/open`));
}

let servers: TestServer[] = [];

beforeAll(async () => {
  servers = await Promise.all(Array.from({ length: ORIGINS }, (_, i) => startServer(handlerFor(i), { log: false })));
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * A crawler's order: every origin once (the HTTP client's per-origin state is
 * all made then), then the queue again, reshuffled, each origin checked 9 times
 * in a burst (concurrently, so lookups coalesce). The cache holds fewer origins
 * than the crawl, so the second pass refetches what it evicted.
 */
function crawlOrder(rand: () => number): number[] {
  const shuffled = () => Array.from({ length: ORIGINS }, (_, i) => i).sort(() => rand() - 0.5);
  const order = shuffled();
  for (const i of shuffled()) for (let n = 0; n < (LOOKUPS - ORIGINS) / ORIGINS; n++) order.push(i);
  return order;
}

describe('10,000 lookups over 1,000 origins', () => {
  // 10,000 lookups over 1,000 HTTP servers: 6.5 to 11 s on 2 cores loaded by other runs; 60 s for a margin.
  it('give the right verdicts with bounded memory', async () => {
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES, timeoutMs: 5000 });
    let seed = propertySeed();
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const order = crawlOrder(rand);
    expect(new Set(order).size).toBe(ORIGINS);
    const paths = (k: number, i: number) => [`/private-${i}/x${k}`, `/private-${i}/open/${k}`, `/page-${k}`, `/private-${(i + 1) % ORIGINS}`][k % 4];

    gc();
    const start = process.memoryUsage();
    const heapAt: number[] = [];
    let peakEntries = 0;
    let peakBytes = 0;
    let wrong = 0;
    let done = 0;
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < order.length) {
          const k = next++;
          const i = order[k];
          const path = paths(k, i);
          const allowed = await cache.isAllowed(`${servers[i].origin}${path}`);
          if (allowed !== expected(i, path)) wrong++;
          const { entries, bytes } = cache.stats;
          peakEntries = Math.max(peakEntries, entries);
          peakBytes = Math.max(peakBytes, bytes);
          // Heap samples over the second pass, once the cache and the client's pools are full.
          if (++done >= 2 * ORIGINS && (done - 2 * ORIGINS) % ((LOOKUPS - 2 * ORIGINS) / 4) === 0) {
            gc();
            heapAt.push(process.memoryUsage().heapUsed);
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    gc();
    const end = process.memoryUsage();
    const stats = cache.stats;
    // The cache's own heap: what clearing it gives back.
    cache.clear();
    gc();
    const cleared = process.memoryUsage().heapUsed;
    const requests = servers.reduce((n, s) => n + s.count, 0);
    console.log(
      `[load] ${LOOKUPS} lookups, ${ORIGINS} origins, concurrency ${CONCURRENCY}: ${seconds.toFixed(1)} s, ${stats.fetches} fetches, ${requests} requests; ` +
        `peak ${peakEntries} entries, ${(peakBytes / MiB).toFixed(2)} MiB estimated; cache heap measured ${((end.heapUsed - cleared) / MiB).toFixed(2)} MiB for ` +
        `${(stats.bytes / MiB).toFixed(2)} MiB estimated; heap after GC ${[start.heapUsed, ...heapAt].map((h) => (h / MiB).toFixed(0)).join(' → ')} MiB; ` +
        `rss ${(start.rss / MiB).toFixed(0)} → ${(end.rss / MiB).toFixed(0)} MiB`,
    );

    expect(done).toBe(LOOKUPS);
    expect(wrong).toBe(0);
    expect(peakEntries).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(peakBytes).toBeLessThanOrEqual(MAX_BYTES);
    // Each origin fetched once per pass (evicted in between), the bursts coalesced: one fetch per burst.
    expect(stats.fetches).toBeGreaterThan(ORIGINS + ORIGINS / 2);
    expect(stats.fetches).toBeLessThanOrEqual(2 * ORIGINS);
    // One request per fetch, two for the redirecting origins.
    const redirecting = servers.filter((_, i) => kindOf(i) === 'redirect').reduce((n, s) => n + s.count, 0) / 2;
    expect(requests).toBe(stats.fetches + redirecting);
    // Memory: the cache's estimate is of the right size, and the heap does not grow with the lookups.
    expect(end.heapUsed - cleared).toBeLessThan(2 * stats.bytes + MiB);
    expect(heapAt.length).toBe(5);
    expect(Math.max(...heapAt) - heapAt[0]).toBeLessThan(8 * MiB);
  }, 60_000);
});

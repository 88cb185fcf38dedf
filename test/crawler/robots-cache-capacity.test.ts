// What RobotsCache's default budget (128 MiB) holds of the real web's mix of
// files: the corpus five times over (21,205 origins). The cache weighs each entry
// on its own and evicts when their sum passes its budget, so the corpus once
// (4,241 origins, served over HTTP from 127.0.0.1, each origin's probe URLs
// checked against Google's verdicts) kept whole in a fifth of the default is the
// same bound, without fetching and checking the same files five times. The cache
// keeps every origin (one fetch each), and its estimate of what it holds is what
// the entries really hold, measured after a full collection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreAllocatedBytes, parse, RobotsCache } from '../../src/internal.js';
import { resolveCacheOptions } from '../../src/crawler/cache-options.js';
import { startServer, type TestServer } from '../helpers/http-servers.js';
import { corpusFile, HAVE_SHARED, readJsonLinesGz, type GoogleVerdict } from '../helpers/shared-data.js';
import { gc } from '../helpers/gc.js';

/** The default budget is to hold the corpus this many times over: the test gives the corpus once this share of it. */
const COPIES = 5;
/** The default budget, as the cache fills it in. */
const DEFAULT_MAX_BYTES = resolveCacheOptions({ agent: 'Googlebot', userAgentHeader: 'Googlebot/2.1' }).maxBytes;
const BATCH = 32; // origins checked at once (their fetches overlap)

interface Host {
  host: string;
  body: Uint8Array;
  probes: { path: string; allowed: boolean }[];
}

/** The corpus hosts with their probes' paths and the verdicts for Googlebot: Google's, for the path as written;
 * for a path a fetch would request otherwise (WHATWG escapes non-ASCII and removes dot segments), the google
 * profile's for the path requested (new URL's), which is what RobotsCache checks. */
function corpusHosts(): { hosts: Host[]; rewritten: number } {
  const byHost = new Map<string, Host>();
  let rewritten = 0;
  for (const v of readJsonLinesGz<GoogleVerdict & { host: string }>('corpus/google-verdicts-seed1.jsonl.gz')) {
    if (v.agent !== 'Googlebot') continue;
    let h = byHost.get(v.host);
    if (h === undefined) byHost.set(v.host, (h = { host: v.host, body: corpusFile(v.host), probes: [] }));
    // The URL as written past its origin, and as a fetch requests it.
    const path = v.url.slice(v.url.indexOf('/', v.url.indexOf('//') + 2));
    const requested = new URL(`https://x.example${path}`).href;
    let { allowed } = v;
    if (requested !== `https://x.example${path}`) {
      rewritten++;
      allowed = parse(h.body, { profile: 'google', maxBytes: 1 << 20 }).isAllowed(requested, 'Googlebot');
    }
    h.probes.push({ path, allowed });
  }
  return { hosts: [...byHost.values()], rewritten };
}

/** Heap, buffers and the core's blocks in use, after a full collection. */
function held(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers + coreAllocatedBytes();
}

describe.skipIf(!HAVE_SHARED)('RobotsCache with its default budget holds the corpus five times over: the corpus once in a fifth of it', () => {
  let hosts: Host[] = [];
  let rewritten = 0;
  let server: TestServer;
  // Reading the corpus's verdicts and files: a few seconds quiet, past 15 s on 2 cores under a load of 15; 120 s.
  beforeAll(async () => {
    ({ hosts, rewritten } = corpusHosts());
    // /<index>: host i (origin https://c-<i>.example).
    server = await startServer((req, res) => {
      const i = Number(req.url!.split('/')[1]);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(hosts[i].body);
    }, { log: false });
  }, 120_000);
  afterAll(() => server?.close());

  // The corpus once (4,241 origins, their 169,640 probes): the limit is a hang guard for a loaded machine, not a clock.
  it('keeps all 4,241 origins in a fifth of the default budget (21,205 in all of it), each fetched once, and weighs them truly', async () => {
    expect(DEFAULT_MAX_BYTES).toBe(128 * 2 ** 20);
    const origin = (i: number) => `https://c-${i}.example`;
    // The crawler's own fetch (as through a proxy): every origin's robots.txt comes from the test server.
    const fetch = (url: string, init: RequestInit) => {
      const [, i] = /^https:\/\/c-(\d+)\.example\/robots\.txt$/.exec(url)!;
      return globalThis.fetch(`${server.origin}/${i}`, init);
    };
    // (Google's verdicts are on whole files: docs.oracle.com's is 833 KiB, past the default maxBodyBytes.)
    const maxBytes = DEFAULT_MAX_BYTES / COPIES;
    const cache = new RobotsCache({ agent: 'Googlebot', userAgentHeader: 'Googlebot/2.1', profile: 'google', fetch, maxBodyBytes: 1 << 20, maxBytes });
    const wrong: string[] = [];
    const check = async (i: number) => {
      for (const { path, allowed } of hosts[i].probes) {
        if ((await cache.isAllowed(origin(i) + path)) !== allowed) wrong.push(`${hosts[i].host}${path}`);
      }
    };
    for (let i = 0; i < hosts.length; i += BATCH) {
      await Promise.all(hosts.slice(i, i + BATCH).map((_, j) => check(i + j)));
    }
    const origins = hosts.length;
    expect(COPIES * origins).toBeGreaterThanOrEqual(20_000);
    expect(rewritten).toBeGreaterThan(0);
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(cache.stats).toMatchObject({ entries: origins, fetches: origins });
    expect(server.count).toBe(origins);
    // (The first origins are in the cache still: a lookup fetches nothing.)
    expect((await cache.lookup(origin(0))).status).toBe('ok');
    expect(cache.stats.fetches).toBe(origins);

    const estimated = cache.stats.bytes;
    const before = held();
    cache.clear();
    const real = before - held();
    const kib = (n: number) => `${(n / origins / 1024).toFixed(2)} KiB an origin`;
    console.log(`RobotsCache, ${origins} corpus origins: estimated ${kib(estimated)}, measured ${kib(real)}; the default 128 MiB holds ${Math.floor(DEFAULT_MAX_BYTES / (estimated / origins))} by the estimate`);
    expect(estimated).toBeLessThanOrEqual(maxBytes);
    expect(real).toBeLessThanOrEqual(maxBytes);
    expect(estimated / real, `estimated ${kib(estimated)}, measured ${kib(real)}`).toBeGreaterThan(0.8);
    expect(estimated / real, `estimated ${kib(estimated)}, measured ${kib(real)}`).toBeLessThan(1.25);
  }, 240_000);
});

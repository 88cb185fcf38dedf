// RobotsCache and fetchRobots against real HTTP servers on 127.0.0.1: the
// RFC 9309 2.3-2.4 policy (and Google's reading of it) with nothing mocked.
// Time-based policy (expiry, back-off, 30 days) runs on an injected clock;
// timeouts run on real timers.
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, fetchRobots, RobotsCache, UNREACHABLE_GIVE_UP_MS } from '../../src/index.js';
import { ownMatcherStats, robotsInternals } from '../../src/internal.js';
import type { FetchFunction, RobotsCacheOptions } from '../../src/index.js';
import { serve, startServer, TestServer, type Handler } from '../helpers/http-servers.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UA = 'FooBot/1.0 (+https://foo.example/bot)';
const RULES = 'User-agent: FooBot\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: *\nDisallow: /\n';

let server: TestServer;
let other: TestServer;
let clock: number;

beforeAll(async () => {
  server = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});
beforeEach(() => {
  clock = Date.UTC(2025, 0, 1);
  for (const s of [server, other]) {
    s.requests.length = 0;
    s.handler = serve(RULES);
  }
});

function cache(options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  return new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, now: () => clock, timeoutMs: 2000, ...options });
}

/** Verdicts under RULES: /private disallowed, /private/ok and /public allowed. */
async function followsRules(c: RobotsCache, origin = server.origin): Promise<boolean> {
  const [priv, ok, pub] = await Promise.all([
    c.isAllowed(`${origin}/private/x`),
    c.isAllowed(`${origin}/private/ok`),
    c.isAllowed(`${origin}/public`),
  ]);
  return !priv && ok && pub;
}

async function allAllowed(c: RobotsCache, origin = server.origin): Promise<boolean> {
  const v = await Promise.all(['/private/x', '/', '/anything?q'].map((p) => c.isAllowed(origin + p)));
  return v.every((x) => x);
}

async function allDisallowed(c: RobotsCache, origin = server.origin): Promise<boolean> {
  const v = await Promise.all(['/private/ok', '/', '/public'].map((p) => c.isAllowed(origin + p)));
  return v.every((x) => !x);
}

describe('a 2xx robots.txt', () => {
  it('200: the rules apply, fetched once with the crawler’s headers, kept 24 h', async () => {
    const c = cache();
    expect(await followsRules(c)).toBe(true);
    expect(server.requests.length).toBe(1);
    const req = server.requests[0];
    expect(req.path).toBe('/robots.txt');
    expect(req.headers['user-agent']).toBe(UA);
    expect(String(req.headers['accept-encoding']).split(/,\s*/).sort()).toEqual(['br', 'deflate', 'gzip']);
    const entry = await c.lookup(`${server.origin}/some/page`);
    expect(entry).toMatchObject({ status: 'ok', httpStatus: 200, stale: false, robotsUrl: `${server.origin}/robots.txt`, fetchedAt: clock, expiresAt: clock + DAY, redirects: 0, reachedLimit: false });
    expect(entry.robots!.isAllowed('/private/x', 'FooBot')).toBe(false);
    expect(server.requests.length).toBe(1);
  });

  it('204 (no body) and 206: parsed as they are, an empty file allows everything', async () => {
    server.handler = (_, res) => res.writeHead(204).end();
    let c = cache();
    expect(await allAllowed(c)).toBe(true);
    expect((await c.lookup(server.origin)).status).toBe('ok');
    server.handler = serve(RULES, {}, 206);
    c = cache();
    expect(await followsRules(c)).toBe(true);
  });

  it('a body of any octets parses and answers', async () => {
    const junk = new Uint8Array(70_000);
    let x = 12345;
    for (let i = 0; i < junk.length; i++) junk[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    server.handler = serve(junk, { 'content-type': 'application/octet-stream' });
    const c = cache({ profile: 'google' });
    const entry = await c.lookup(server.origin);
    expect(entry.status).toBe('ok');
    expect(typeof (await c.isAllowed(`${server.origin}/a`))).toBe('boolean');
  });

  it('reads at most the first 500 KiB of a 5 MB body, and stops reading there', async () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const filler = '# ' + 'x'.repeat(1021) + '\n';
    const body = head + filler.repeat(Math.ceil((5 * 2 ** 20) / filler.length)) + 'Disallow: /late\n';
    expect(body.length).toBeGreaterThan(5 * 2 ** 20);
    server.handler = serve(body);
    // Count the octets taken from the real fetch's body stream.
    let pulled = 0;
    const counting: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      if (res.body === null) return res;
      const counted = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, ctl) {
            pulled += chunk.length;
            ctl.enqueue(chunk);
          },
        }),
        { preventCancel: false },
      );
      return new Response(counted, { status: res.status, headers: res.headers });
    };
    const c = cache({ fetch: counting });
    expect(await c.isAllowed(`${server.origin}/early`)).toBe(false);
    expect(await c.isAllowed(`${server.origin}/late`)).toBe(true);
    const entry = await c.lookup(server.origin);
    expect(entry.reachedLimit).toBe(true);
    expect(entry.robots!.diagnostics.some((d) => d.code === 'size-limit')).toBe(false);
    // The limit plus at most what was in flight in the streams' queues.
    expect(pulled).toBeGreaterThanOrEqual(DEFAULT_MAX_BYTES);
    expect(pulled).toBeLessThan(DEFAULT_MAX_BYTES + 256 * 1024);
  });

  it('a gzip bomb (5 MB inflated) is read to 500 KiB of inflated octets only', async () => {
    const body = 'User-agent: *\nDisallow: /early\n' + ' '.repeat(5 * 2 ** 20) + '\nDisallow: /late\n';
    const gz = gzipSync(body);
    expect(gz.length).toBeLessThan(20_000);
    server.handler = serve(gz, { 'content-encoding': 'gzip' });
    const out = await fetchRobots(`${server.origin}/robots.txt`, { userAgentHeader: UA, maxBytes: DEFAULT_MAX_BYTES, timeoutMs: 2000 });
    expect(out.status).toBe('ok');
    expect(out.body!.length).toBe(DEFAULT_MAX_BYTES);
    expect(out.reachedLimit).toBe(true);
  });

  it('a larger maxBodyBytes reads and parses more', async () => {
    const body = 'User-agent: *\nDisallow: /early\n' + '#'.repeat(600_000) + '\nDisallow: /late\n';
    server.handler = serve(body);
    const c = cache({ maxBodyBytes: 1_000_000 });
    expect(await c.isAllowed(`${server.origin}/late`)).toBe(false);
    expect((await c.lookup(server.origin)).reachedLimit).toBe(false);
    expect(() => cache({ maxBodyBytes: 100_000 })).toThrow(RangeError);
  });

  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ] as const) {
    it(`content-encoding ${encoding} is decoded`, async () => {
      server.handler = serve(compress(Buffer.from(RULES)), { 'content-encoding': encoding });
      const c = cache();
      expect(await followsRules(c)).toBe(true);
    });
  }

  it('a corrupt gzip body is an invalid response: unreachable', async () => {
    server.handler = serve(Buffer.from('this is not gzip at all, not at all'), { 'content-encoding': 'gzip' });
    const c = cache();
    expect((await c.lookup(server.origin)).status).toBe('unreachable');
    expect(await allDisallowed(c)).toBe(true);
  });
});

describe('fetchRobots: its options and the URL it is given', () => {
  it('only userAgentHeader given (as JavaScript callers write it): 10 s and 512,000 octets by default, the rules read', async () => {
    const body = 'User-agent: *\nDisallow: /private\n' + '#'.repeat(600_000);
    server.handler = serve(body);
    const out = await fetchRobots(`${server.origin}/robots.txt`, { userAgentHeader: UA } as never);
    expect(out).toMatchObject({ status: 'ok', reason: 'http 200', reachedLimit: true });
    expect(out.body!.length).toBe(DEFAULT_MAX_BYTES);
    // timeoutMs alone: maxBytes is the default, not 0 octets (which would allow every URL).
    const timed = await fetchRobots(`${server.origin}/robots.txt`, { userAgentHeader: UA, timeoutMs: 2000 } as never);
    expect(timed.body!.length).toBe(DEFAULT_MAX_BYTES);
    expect(server.requests.every((r) => r.headers['user-agent'] === UA)).toBe(true);
  });

  it('takes a page URL: its origin’s /robots.txt is fetched (as robotsUrl() names it)', async () => {
    const out = await fetchRobots(`${server.origin}/some/page.html?q=1#top`, { userAgentHeader: UA });
    expect(out.status).toBe('ok');
    expect(out.finalUrl).toBe(`${server.origin}/robots.txt`);
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt']);
    await expect(fetchRobots('not a url', { userAgentHeader: UA })).rejects.toThrow(TypeError);
    await expect(fetchRobots(42 as never, { userAgentHeader: UA })).rejects.toThrow(TypeError);
  });

  it('each option missing, of the wrong type or out of range: a clear error naming it, and no request', async () => {
    const url = `${server.origin}/robots.txt`;
    const bad: [unknown, RegExp][] = [
      [undefined, /options must be an object/],
      [null, /options must be an object/],
      [{}, /userAgentHeader must be a non-empty header value/],
      [{ userAgentHeader: 42 }, /userAgentHeader must be/],
      [{ userAgentHeader: '  ' }, /userAgentHeader must be/],
      [{ userAgentHeader: 'a\r\nX-Evil: 1' }, /userAgentHeader must be/],
      [{ userAgentHeader: UA, timeoutMs: '2000' }, /timeoutMs must be a positive number of ms .*"2000"/],
      [{ userAgentHeader: UA, timeoutMs: 0 }, /timeoutMs must be/],
      [{ userAgentHeader: UA, timeoutMs: -5 }, /timeoutMs must be/],
      [{ userAgentHeader: UA, timeoutMs: Number.NaN }, /timeoutMs must be/],
      [{ userAgentHeader: UA, timeoutMs: Infinity }, /timeoutMs must be/],
      [{ userAgentHeader: UA, timeoutMs: 2 ** 31 }, /timeoutMs must be/],
      [{ userAgentHeader: UA, maxBytes: '600000' }, /maxBytes must be at least 512000 .*Infinity/],
      [{ userAgentHeader: UA, maxBytes: 0 }, /maxBytes must be at least 512000/],
      [{ userAgentHeader: UA, maxBytes: DEFAULT_MAX_BYTES - 1 }, /maxBytes must be at least 512000/],
      [{ userAgentHeader: UA, maxBytes: Number.NaN }, /maxBytes must be at least 512000/],
      [{ userAgentHeader: UA, maxRedirects: -1 }, /maxRedirects must be a whole number from 0/],
      [{ userAgentHeader: UA, maxRedirects: 2.5 }, /maxRedirects must be/],
      [{ userAgentHeader: UA, maxRedirects: '5' }, /maxRedirects must be/],
      [{ userAgentHeader: UA, fetch: 'fetch' }, /fetch must be a function/],
    ];
    for (const [options, message] of bad) {
      const error = await fetchRobots(url, options as never).then(() => undefined, (e: unknown) => e);
      expect(error, JSON.stringify(options)).toBeInstanceOf(Error);
      expect((error as Error).name).toMatch(/^(TypeError|RangeError)$/);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
    expect(server.requests.length).toBe(0);
    // In range: 512,000 exactly, a larger limit, Infinity (the whole body, as parse() takes it), no redirects at all.
    const long = 'User-agent: *\nDisallow: /x\n' + '#'.repeat(1_100_000);
    server.handler = serve(long);
    for (const [maxBytes, octets] of [[DEFAULT_MAX_BYTES, DEFAULT_MAX_BYTES], [600_000.5, 600_000], [1_000_000, 1_000_000], [Infinity, long.length]]) {
      const out = await fetchRobots(url, { userAgentHeader: UA, maxBytes, timeoutMs: 2000 });
      expect(out.status).toBe('ok');
      expect(out.body!.length).toBe(octets);
    }
    server.handler = (_, res) => res.writeHead(301, { location: '/elsewhere' }).end();
    expect(await fetchRobots(url, { userAgentHeader: UA, maxRedirects: 0 })).toMatchObject({ status: 'unavailable', reason: 'more than 0 redirects' });
  });
});

describe('status classes', () => {
  for (const status of [400, 401, 403, 404, 405, 410, 451, 499]) {
    it(`${status}: unavailable, everything allowed`, async () => {
      server.handler = serve('User-agent: *\nDisallow: /\n', {}, status);
      const c = cache();
      expect(await allAllowed(c)).toBe(true);
      expect(await c.lookup(server.origin)).toMatchObject({ status: 'unavailable', httpStatus: status, robots: undefined, expiresAt: clock + DAY });
      expect(server.requests.length).toBe(1);
    });
  }

  for (const status of [429, 500, 502, 503, 504, 599]) {
    it(`${status}: unreachable, everything disallowed`, async () => {
      server.handler = serve('User-agent: *\nAllow: /\n', {}, status);
      const c = cache();
      expect(await allDisallowed(c)).toBe(true);
      expect(await c.lookup(server.origin)).toMatchObject({ status: 'unreachable', httpStatus: status, robots: undefined, unreachableSince: clock });
    });
  }

  for (const status of [300, 304]) {
    it(`${status} without a Location: no robots.txt reached, unavailable`, async () => {
      server.handler = (_, res) => res.writeHead(status).end();
      expect((await cache().lookup(server.origin)).status).toBe('unavailable');
    });
  }

  it('a connection refused: unreachable', async () => {
    const gone = await startServer();
    await gone.close();
    const c = cache();
    const entry = await c.lookup(gone.origin);
    expect(entry.status).toBe('unreachable');
    expect(entry.httpStatus).toBeUndefined();
    expect(entry.reason).toMatch(/ECONNREFUSED/);
    expect(await allDisallowed(c, gone.origin)).toBe(true);
  });

  it('a DNS failure: unreachable', async () => {
    const entry = await cache().lookup('http://no-such-host.invalid/page');
    expect(entry.status).toBe('unreachable');
    expect(entry.httpStatus).toBeUndefined();
  });
});

describe('redirects', () => {
  /** /robots.txt → /hop1 → … → /hopN → /final (N+1 redirects), /final serves RULES. */
  function chain(redirects: number, status = 302) {
    server.handler = (req, res) => {
      const path = req.url ?? '';
      const at = path === '/robots.txt' ? 0 : path.startsWith('/hop') ? Number(path.slice(4)) : -1;
      if (at >= 0 && at < redirects) {
        const next = at + 1 < redirects ? `/hop${at + 1}` : '/final';
        res.writeHead(status, { location: next }).end();
      } else if (path === '/final') {
        serve(RULES)(req, res);
      } else {
        res.writeHead(500).end();
      }
    };
  }

  it('5 consecutive redirects are followed; the rules apply to the initial origin', async () => {
    chain(5);
    const c = cache();
    expect(await followsRules(c)).toBe(true);
    const entry = await c.lookup(server.origin);
    expect(entry).toMatchObject({ status: 'ok', redirects: 5, finalUrl: `${server.origin}/final`, robotsUrl: `${server.origin}/robots.txt` });
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt', '/hop1', '/hop2', '/hop3', '/hop4', '/final']);
    // Every hop carries the crawler's User-Agent.
    expect(server.requests.every((r) => r.headers['user-agent'] === UA)).toBe(true);
  });

  it('6 consecutive redirects: unavailable, the 7th URL never requested', async () => {
    chain(6);
    const c = cache();
    const entry = await c.lookup(server.origin);
    expect(entry).toMatchObject({ status: 'unavailable', redirects: 5 });
    expect(entry.reason).toMatch(/more than 5 redirects/);
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt', '/hop1', '/hop2', '/hop3', '/hop4', '/hop5']);
    expect(await allAllowed(c)).toBe(true);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} is followed`, async () => {
      chain(1, status);
      expect(await followsRules(cache())).toBe(true);
    });
  }

  it('a redirect loop: unavailable, caught when it closes', async () => {
    server.handler = (req, res) => {
      res.writeHead(301, { location: req.url === '/robots.txt' ? '/a' : '/robots.txt' }).end();
    };
    const entry = await cache().lookup(server.origin);
    expect(entry.status).toBe('unavailable');
    expect(entry.reason).toMatch(/redirect loop/);
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt', '/a']);
  });

  it('across hosts: the other host’s file is followed, for the initial origin only', async () => {
    // 127.0.0.1 → localhost: another host (and port); absolute Location.
    const target = `http://localhost:${other.port}/robots-elsewhere.txt`;
    server.handler = (_, res) => res.writeHead(301, { location: target }).end();
    other.handler = serve(RULES);
    const c = cache();
    expect(await followsRules(c)).toBe(true);
    const entry = await c.lookup(server.origin);
    expect(entry).toMatchObject({ status: 'ok', finalUrl: target, redirects: 1 });
    expect(other.requests.map((r) => r.path)).toEqual(['/robots-elsewhere.txt']);
    expect(other.requests[0].headers['user-agent']).toBe(UA);
    // The target origin has its own robots.txt, fetched for its own URLs.
    other.handler = serve('User-agent: *\nDisallow: /\n');
    expect(await c.isAllowed(`http://localhost:${other.port}/public`)).toBe(false);
    expect(other.requests.map((r) => r.path)).toEqual(['/robots-elsewhere.txt', '/robots.txt']);
    expect(await c.isAllowed(`${server.origin}/public`)).toBe(true);
  });

  it('a redirect to another scheme or a broken Location: unavailable', async () => {
    server.handler = (_, res) => res.writeHead(302, { location: 'ftp://example.com/robots.txt' }).end();
    expect((await cache().lookup(server.origin)).status).toBe('unavailable');
    server.handler = (_, res) => res.writeHead(302, { location: 'http://[::1/' }).end();
    expect((await cache().lookup(server.origin)).status).toBe('unavailable');
  });
});

describe('broken servers', () => {
  it('one that never answers: unreachable after timeoutMs', async () => {
    server.handler = () => {};
    const c = cache({ timeoutMs: 300 });
    const t0 = performance.now();
    const entry = await c.lookup(server.origin);
    const took = performance.now() - t0;
    expect(entry.status).toBe('unreachable');
    expect(entry.reason).toMatch(/timeout after 300 ms/);
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2000);
    expect(await allDisallowed(c)).toBe(true);
  });

  it('one that sends headers and part of the body, then hangs: unreachable after timeoutMs', async () => {
    server.handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\nAllow: /\n');
    };
    const entry = await cache({ timeoutMs: 300 }).lookup(server.origin);
    expect(entry.status).toBe('unreachable');
    expect(entry.reason).toMatch(/timeout/);
  });

  it('one that hangs in the middle of a redirect chain: the deadline covers the chain', async () => {
    server.handler = (req, res) => {
      if (req.url === '/robots.txt') res.writeHead(302, { location: '/slow' }).end();
    };
    const entry = await cache({ timeoutMs: 300 }).lookup(server.origin);
    expect(entry.status).toBe('unreachable');
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt', '/slow']);
  });

  it('one that closes the connection mid-body (Content-Length not met): unreachable', async () => {
    server.handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('User-agent: *\nAllow: /\n');
      setTimeout(() => req.socket.destroy(), 20);
    };
    const c = cache();
    const entry = await c.lookup(server.origin);
    expect(entry.status).toBe('unreachable');
    expect(entry.httpStatus).toBe(200);
    expect(await allDisallowed(c)).toBe(true);
  });

  it('one that closes a chunked body before its last chunk: unreachable', async () => {
    server.handler = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\nAllow: /\n');
      setTimeout(() => req.socket.destroy(), 20);
    };
    expect((await cache().lookup(server.origin)).status).toBe('unreachable');
  });

  it('a custom fetch that ignores the abort signal still times out', async () => {
    const never = () => new Promise<Response>(() => {});
    const entry = await cache({ fetch: never, timeoutMs: 200 }).lookup('http://example.com/');
    expect(entry.status).toBe('unreachable');
    expect(entry.reason).toMatch(/timeout/);
  });

  it('a custom fetch that throws: unreachable', async () => {
    const throwing = () => {
      throw new Error('boom');
    };
    const entry = await cache({ fetch: throwing }).lookup('http://example.com/');
    expect(entry).toMatchObject({ status: 'unreachable' });
    expect(entry.reason).toMatch(/boom/);
  });
});

describe('caching', () => {
  it('expires after 24 h by default, then fetches again', async () => {
    const c = cache();
    await c.lookup(server.origin);
    clock += DAY - 1;
    await c.lookup(server.origin);
    expect(server.requests.length).toBe(1);
    clock += 1;
    server.handler = serve('User-agent: *\nDisallow: /public\n');
    expect(await c.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(server.requests.length).toBe(2);
    expect(c.stats.fetches).toBe(2);
  });

  it('ttlMs sets the default', async () => {
    const c = cache({ ttlMs: HOUR });
    expect((await c.lookup(server.origin)).expiresAt).toBe(clock + HOUR);
  });

  it('Cache-Control max-age is honoured', async () => {
    server.handler = serve(RULES, { 'cache-control': 'public, max-age=120' });
    const c = cache();
    const entry = await c.lookup(server.origin);
    expect(entry.expiresAt - entry.fetchedAt).toBeGreaterThan(119 * SECOND);
    expect(entry.expiresAt - entry.fetchedAt).toBeLessThanOrEqual(120 * SECOND);
    clock += 119 * SECOND;
    await c.lookup(server.origin);
    expect(server.requests.length).toBe(1);
    clock += 2 * SECOND;
    await c.lookup(server.origin);
    expect(server.requests.length).toBe(2);
  });

  it('Age is subtracted; Expires is read against Date (RFC 9111, through http-cache-semantics)', async () => {
    server.handler = serve(RULES, { 'cache-control': 'max-age=600', age: '500' });
    let entry = await cache().lookup(server.origin);
    expect(Math.round((entry.expiresAt - entry.fetchedAt) / SECOND)).toBe(100);
    const date = new Date();
    server.handler = serve(RULES, { date: date.toUTCString(), expires: new Date(date.getTime() + 2 * HOUR).toUTCString() });
    entry = await cache().lookup(server.origin);
    expect(Math.round((entry.expiresAt - entry.fetchedAt) / MINUTE)).toBe(120);
  });

  it('max-age beyond 24 h is held to ttlMs (RFC 9309 2.4)', async () => {
    server.handler = serve(RULES, { 'cache-control': 'max-age=604800' });
    expect((await cache().lookup(server.origin)).expiresAt).toBe(clock + DAY);
  });

  it('no-store, no-cache and max-age=0 keep the file minTtlMs (60 s), not zero', async () => {
    for (const cc of ['no-store', 'no-cache', 'max-age=0']) {
      server.handler = serve(RULES, { 'cache-control': cc });
      expect((await cache().lookup(server.origin)).expiresAt, cc).toBe(clock + MINUTE);
      expect((await cache({ minTtlMs: 5 * SECOND }).lookup(server.origin)).expiresAt, cc).toBe(clock + 5 * SECOND);
    }
  });

  it('maxEntries: least recently used origin goes first', async () => {
    const third = await startServer(serve(RULES));
    try {
      const c = cache({ maxEntries: 2 });
      await c.lookup(server.origin);
      await c.lookup(other.origin);
      await c.lookup(server.origin); // server is now the most recent
      await c.lookup(third.origin); // evicts other
      expect(c.stats.entries).toBe(2);
      await c.lookup(server.origin);
      expect(server.requests.length).toBe(1);
      await c.lookup(other.origin);
      expect(other.requests.length).toBe(2);
    } finally {
      await third.close();
    }
  });

  it('maxBytes: entries are evicted until the estimate fits', async () => {
    // 600 rules: the matcher holds each one's line, value and list entry (over 32 octets).
    const big = 'User-agent: *\n' + Array.from({ length: 600 }, (_, i) => `Disallow: /x${i}\n`).join('');
    server.handler = serve(big);
    other.handler = serve(big);
    const probe = cache();
    await probe.lookup(server.origin);
    const weight = probe.stats.bytes;
    expect(weight).toBeGreaterThan(600 * 32);
    // Room for one entry, not two.
    const c = cache({ maxBytes: Math.floor(1.5 * weight) });
    await c.lookup(server.origin);
    expect(c.stats.bytes).toBe(weight);
    await c.lookup(other.origin);
    expect(c.stats.entries).toBe(1);
    expect(c.stats.bytes).toBeLessThanOrEqual(1.5 * weight);
    await c.lookup(server.origin);
    expect(server.requests.length).toBe(3); // (one for the probe cache)
  });

  it('comments and other lines no rule points into are not held: the estimate follows', async () => {
    server.handler = serve(RULES + '# filler: a long comment, as some sites pad their robots.txt\n'.repeat(8000)); // 480 KB
    const c = cache({});
    expect(await followsRules(c)).toBe(true);
    expect(robotsInternals((await c.lookup(server.origin)).robots!).heldBytes).toBeLessThan(4096);
    expect(c.stats.bytes).toBeLessThan(16_384); // and that with the compiled matcher
  });

  it('an entry larger than maxBytes is not kept, and still answers', async () => {
    server.handler = serve(RULES.replace('Allow: /private/ok\n', `Allow: /private/ok\n${Array.from({ length: 800 }, (_, i) => `Disallow: /filler-${i}\n`).join('')}`));
    const c = cache({ maxBytes: 20_000 });
    expect(await followsRules(c)).toBe(true);
    expect(c.stats).toMatchObject({ entries: 0, bytes: 0 });
    // The three concurrent lookups shared one fetch; the next one fetches again.
    expect(server.requests.length).toBe(1);
    expect(await c.isAllowed(`${server.origin}/private/x`)).toBe(false);
    expect(server.requests.length).toBe(2);
  });

    it('a verdict weighs the automaton it grows; maxDfaBytes caps it', async () => {
    const rules = 'User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /*a${i}*b*c$\n`).join('');
    server.handler = serve(rules);
    // The growth of a cache's weight over 1,000 verdicts, with the automaton capped at 64 KiB and not.
    const growth = async (maxDfaBytes?: number) => {
      const c = cache({ maxDfaBytes });
      await c.lookup(server.origin);
      const before = c.stats.bytes;
      // (many URLs: once the cold walks have cost about what the automaton costs, it takes over: after ~500 here)
      for (let i = 0; i < 1000; i++) await c.isAllowed(`${server.origin}/${'q'.repeat(40)}/x${i % 300}a${i % 300}yb${i % 7}zc${i}`);
      return c.stats.bytes - before;
    };
    const capped = await growth(64 * 1024);
    const free = await growth();
    expect(capped).toBeGreaterThan(0);
    // Uncapped, the automaton grows to ~250 KiB here; capped, the growth is the cap
    // and the rest of the matcher (its rule table and trie, ~75 KiB for these rules).
    expect(capped).toBeLessThan(free / 2);
    expect(capped).toBeLessThanOrEqual(64 * 1024 + 96 * 1024);
  });

  it('an entry weighs the matcher it compiles: its rules cold, its trie once hot, not only the automaton', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `Disallow: /dir${i}/page-${(i * 7919) % 10007}\n`);
    server.handler = serve('User-agent: *\n' + lines.join(''));
    const c = cache();
    const patternOctets = lines.reduce((n, l) => n + l.length - 'Disallow: \n'.length, 0);
    await c.lookup(server.origin);
    // Cold, the matcher holds every pattern's octets twice (its values and its rule list).
    const cold = c.stats.bytes;
    expect(cold).toBeGreaterThan(2 * patternOctets);
    // Past the cold walk's 8 KiB of paths the trie is built: it holds every pattern's octets again.
    for (let i = 0; i < 600; i++) expect(await c.isAllowed(`${server.origin}/dir${i}/x-and-a-longer-path`)).toBe(true);
    expect(c.stats.bytes - cold).toBeGreaterThan(patternOctets);
  });

  it('100 concurrent lookups of one origin make one request', async () => {
    server.handler = (req, res) => setTimeout(() => serve(RULES)(req, res), 100);
    const c = cache();
    const verdicts = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? c.isAllowed(`${server.origin}/private/${i}`) : c.lookup(`${server.origin}/p${i}`).then((e) => e.status === 'ok'))),
    );
    expect(server.requests.length).toBe(1);
    expect(verdicts.filter((v, i) => i % 2 === 0 && v === false).length).toBe(50);
    expect(verdicts.filter((v, i) => i % 2 === 1 && v === true).length).toBe(50);
    expect(c.stats.inflight).toBe(0);
  });
});

describe('unreachable over time', () => {
  it('stale-on-error: a copy from an earlier success keeps being used while the file is unreachable', async () => {
    const c = cache({ timeoutMs: 200 });
    await c.lookup(server.origin);
    server.handler = serve('oops', {}, 503);
    clock += DAY;
    const entry = await c.lookup(server.origin);
    expect(entry).toMatchObject({ status: 'ok', stale: true, httpStatus: 503, unreachableSince: clock });
    expect(entry.reason).toMatch(/http 503; using the copy fetched at/);
    expect(await followsRules(c)).toBe(true);
    // Still so after many failures and past 30 days.
    server.handler = () => {};
    clock += 40 * DAY;
    const later = await cache({ timeoutMs: 200 }).lookup(server.origin); // a cache without a copy
    expect(later.status).toBe('unreachable');
    expect((await c.lookup(server.origin)).stale).toBe(true);
    expect(await followsRules(c)).toBe(true);
    // Recovery: new rules replace the copy.
    server.handler = serve('User-agent: *\nDisallow: /public\n');
    clock += 2 * HOUR;
    expect(await c.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(await c.lookup(server.origin)).toMatchObject({ status: 'ok', stale: false, unreachableSince: undefined });
  });

  it('a 4xx after a success is not an outage: the copy is dropped, everything allowed', async () => {
    const c = cache();
    await c.lookup(server.origin);
    server.handler = serve('gone', {}, 404);
    clock += DAY;
    expect(await allAllowed(c)).toBe(true);
  });

  it('retries back off: 1 min, 2, 4, … up to maxRetryMs', async () => {
    server.handler = serve('busy', {}, 503);
    const c = cache({ maxRetryMs: 10 * MINUTE });
    const t0 = clock;
    await c.lookup(server.origin);
    const expected = [1, 2, 4, 8, 10, 10].map((m) => m * MINUTE);
    for (const wait of expected) {
      clock += wait - 1;
      await c.lookup(server.origin);
      const before = server.requests.length;
      clock += 1;
      const entry = await c.lookup(server.origin);
      expect(server.requests.length, `after waiting ${wait / MINUTE} min`).toBe(before + 1);
      expect(entry.unreachableSince).toBe(t0);
    }
    expect(server.requests.length).toBe(1 + expected.length);
  });

  it('Retry-After on a 429 or 503 lengthens the wait, up to ttlMs', async () => {
    server.handler = serve('slow down', { 'retry-after': '600' }, 429);
    expect((await cache().lookup(server.origin)).expiresAt).toBe(clock + 10 * MINUTE);
    const date = new Date();
    server.handler = serve('down', { date: date.toUTCString(), 'retry-after': new Date(date.getTime() + 2 * HOUR).toUTCString() }, 503);
    expect((await cache().lookup(server.origin)).expiresAt).toBe(clock + 2 * HOUR);
    server.handler = serve('down', { 'retry-after': String(10 * 365 * 86400) }, 503);
    expect((await cache().lookup(server.origin)).expiresAt).toBe(clock + DAY);
    // Shorter than the back-off, or unreadable: the back-off.
    for (const value of ['5', 'soon', '-3']) {
      server.handler = serve('down', { 'retry-after': value }, 503);
      expect((await cache().lookup(server.origin)).expiresAt, value).toBe(clock + MINUTE);
    }
  });

  it('retryMs sets the first wait', async () => {
    server.handler = serve('busy', {}, 429);
    expect((await cache({ retryMs: 5 * SECOND }).lookup(server.origin)).expiresAt).toBe(clock + 5 * SECOND);
  });

  it('after 30 days unreachable with no copy: unavailable (everything allowed), until it answers again', async () => {
    server.handler = serve('down', {}, 500);
    const c = cache();
    const t0 = clock;
    await c.lookup(server.origin);
    clock = t0 + UNREACHABLE_GIVE_UP_MS - MINUTE;
    expect(await c.lookup(server.origin)).toMatchObject({ status: 'unreachable', unreachableSince: t0 });
    expect(await allDisallowed(c)).toBe(true);
    clock = t0 + UNREACHABLE_GIVE_UP_MS + MINUTE;
    const entry = await c.lookup(server.origin);
    expect(entry).toMatchObject({ status: 'unavailable', httpStatus: 500, unreachableSince: t0 });
    expect(entry.reason).toMatch(/over 30 days/);
    expect(await allAllowed(c)).toBe(true);
    // Still retried; a good answer ends it.
    server.handler = serve(RULES);
    clock += HOUR;
    expect(await followsRules(c)).toBe(true);
    expect(server.requests.length).toBe(4);
  });
});

describe('per-origin answers: the file parsed once per entry', () => {
  const FILE = 'User-agent: FooBot\nCrawl-delay: 2.5\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: *\nCrawl-delay: 9\nDisallow: /\n\nSitemap: https://a.example/one.xml\nSitemap: https://a.example/two.xml\nSitemap: https://a.example/one.xml\n';

  it('lookup(url).robots is one object while the entry is fresh (parsed once, not per URL), weighed in the budget', async () => {
    server.handler = serve(FILE);
    const c = cache();
    const first = await c.lookup(`${server.origin}/a`);
    const before = c.stats.bytes;
    const robots = first.robots!;
    expect(robots).toBeDefined();
    expect(c.stats.bytes).toBe(before + robotsInternals(robots).heldBytes);
    for (const p of ['/b', '/private/x', '/c?d']) expect((await c.lookup(server.origin + p)).robots).toBe(robots);
    expect(robots.crawlDelay('FooBot')).toBe(2.5);
    // A new fetch (the entry expired) is a new parse.
    clock += DAY;
    const next = (await c.lookup(server.origin)).robots;
    expect(next).not.toBe(robots);
    expect(server.requests.length).toBe(2);
  });

  it('crawlDelay(url), sitemaps(url), policy(url): the crawler’s answers for the URL’s origin', async () => {
    server.handler = serve(FILE);
    const c = cache();
    expect(await c.crawlDelay(`${server.origin}/private/x`)).toBe(2.5);
    expect(await c.sitemaps(`${server.origin}/`)).toEqual(['https://a.example/one.xml', 'https://a.example/two.xml']);
    expect(await c.policy(`${server.origin}/private/x`)).toEqual({ allowed: false, status: 'ok', crawlDelay: 2.5, sitemaps: ['https://a.example/one.xml', 'https://a.example/two.xml'] });
    expect(await c.policy(`${server.origin}/private/ok`)).toMatchObject({ allowed: true, crawlDelay: 2.5 });
    // Another crawler name: the * group's delay.
    const other = cache({ agent: 'BarBot' });
    expect(await other.policy(`${server.origin}/public`)).toMatchObject({ allowed: false, crawlDelay: 9 });
    expect(server.requests.length).toBe(2);
    // The answers are the cache's: a caller cannot change them.
    const list = await c.sitemaps(server.origin);
    expect(Object.isFrozen(list)).toBe(true);
    // A file with none.
    server.handler = serve(RULES);
    const plain = cache();
    expect(await plain.policy(`${server.origin}/public`)).toEqual({ allowed: true, status: 'ok', crawlDelay: undefined, sitemaps: [] });
  });

  it('the answers of each outcome: unavailable (none), unreachable (none, all disallowed), a stale copy (the copy’s)', async () => {
    server.handler = serve('gone', {}, 404);
    expect(await cache().policy(`${server.origin}/x`)).toEqual({ allowed: true, status: 'unavailable', crawlDelay: undefined, sitemaps: [] });
    server.handler = serve('down', {}, 503);
    expect(await cache().policy(`${server.origin}/x`)).toEqual({ allowed: false, status: 'unreachable', crawlDelay: undefined, sitemaps: [] });
    server.handler = serve(FILE);
    const c = cache();
    expect(await c.crawlDelay(server.origin)).toBe(2.5);
    clock += DAY;
    server.handler = serve('down', {}, 503);
    expect(await c.policy(`${server.origin}/private/x`)).toEqual({ allowed: false, status: 'ok', crawlDelay: 2.5, sitemaps: ['https://a.example/one.xml', 'https://a.example/two.xml'] });
    expect((await c.lookup(server.origin)).stale).toBe(true);
  });

  it('usage(url): the crawler’s purposes for the URL, as the file’s RobotsTxt.usage gives them; headers count; none from an unavailable or unreachable file', async () => {
    const USAGE = 'User-agent: FooBot\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /blog/ search=n\nDisallow: /private\n\nUser-agent: *\nContent-Signal: ai-input=no\n';
    server.handler = serve(USAGE);
    const c = cache();
    const robots = (await c.lookup(server.origin)).robots!;
    for (const p of ['/', '/blog/a', '/private/x', '/a/../private/y']) {
      expect(await c.usage(server.origin + p), p).toEqual(robots.usage(new URL(server.origin + p).pathname, 'FooBot'));
    }
    expect(await c.usage(`${server.origin}/`)).toMatchObject({ allowed: true, purposes: { search: 'allowed', 'train-ai': 'disallowed', 'ai-use': 'unknown' } });
    expect((await c.usage(`${server.origin}/blog/a`)).purposes.search).toBe('disallowed');
    expect(await c.usage(`${server.origin}/private/x`)).toMatchObject({ allowed: false, line: 4, purposes: { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' } });
    expect((await c.usage(`${server.origin}/`, { headers: { 'content-usage': 'search=n' } })).purposes.search).toBe('disallowed');
    expect((await c.usage(`${server.origin}/`, { headers: new Headers({ 'Content-Signal': 'ai-input=yes' }) })).purposes['ai-use']).toBe('allowed');
    // Another crawler: the * group's.
    expect((await cache({ agent: 'BarBot' }).usage(`${server.origin}/`)).purposes).toEqual({ search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'disallowed' });
    // Read once per entry: more URLs make no new fetch.
    const small = cache({ maxEntries: 1 });
    expect((await small.usage(`${server.origin}/blog/a`)).purposes.search).toBe('disallowed');
    const requests = server.requests.length;
    expect((await small.usage(`${server.origin}/private/x`)).allowed).toBe(false);
    expect(server.requests.length).toBe(requests);
    const none = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };
    server.handler = serve('gone', {}, 404);
    expect(await cache().usage(`${server.origin}/x`, { headers: { 'content-signal': 'ai-input=yes' } })).toMatchObject({ allowed: true, line: 0, purposes: { ...none, 'ai-use': 'allowed' } });
    server.handler = serve('down', {}, 503);
    expect(await cache().usage(`${server.origin}/x`)).toEqual({ allowed: false, line: 0, purposes: none, signals: [] });
  });

  it('a parsed file leaves with its entry: evicted, its matchers freed, the entry still answers', async () => {
    server.handler = serve(FILE);
    const c = cache({ maxEntries: 1 });
    const entry = await c.lookup(server.origin);
    const robots = entry.robots!;
    expect(robots.isAllowed('/private/x', 'FooBot')).toBe(false);
    const pooled = ownMatcherStats().matchers;
    await c.lookup(other.origin); // evicts the first origin
    expect(ownMatcherStats().matchers).toBe(pooled - 1);
    expect(c.stats.entries).toBe(1);
    // The RobotsTxt the caller holds stays usable; the evicted entry parses again on each access (it is not kept).
    expect(robots.isAllowed('/private/x', 'FooBot')).toBe(false);
    expect(entry.robots).not.toBe(robots);
    c.clear();
    expect(c.stats.bytes).toBe(0);
  });

  it('a bad agent is named as the agent option', () => {
    for (const agent of ['Foo/1.0', '', 42, ['FooBot', 'Bar Bot']]) {
      expect(() => new RobotsCache({ agent: agent as string, userAgentHeader: UA })).toThrow(/^agent/);
    }
    // The header given as the agent, and no header: the agent is what is wrong first.
    expect(() => new RobotsCache({ agent: UA } as RobotsCacheOptions)).toThrow(/^agent: invalid agent "FooBot\/1.0 \(\+https/);
  });
});

describe('the fetch option and hostile input', () => {
  it('a custom fetch is used for every request, redirects included', async () => {
    server.handler = (req, res) => {
      if (req.url === '/robots.txt') res.writeHead(301, { location: '/moved' }).end();
      else serve(RULES)(req, res);
    };
    const seen: string[] = [];
    const mine = (url: string, init: RequestInit) => {
      seen.push(url);
      expect(init.redirect).toBe('manual');
      return fetch(url, init);
    };
    const c = cache({ fetch: mine });
    expect(await followsRules(c)).toBe(true);
    expect(seen).toEqual([`${server.origin}/robots.txt`, `${server.origin}/moved`]);
  });

  it('a URL that is not a URL is a TypeError', async () => {
    const c = cache();
    for (const bad of ['', 'not a url', '/relative', 'mailto:x@y.z', 42, null, undefined]) {
      await expect(c.isAllowed(bad as string)).rejects.toThrow(TypeError);
      await expect(c.lookup(bad as string)).rejects.toThrow(TypeError);
    }
    expect(c.stats.fetches).toBe(0);
  });

  it('other schemes need a fetch that knows them', async () => {
    await expect(cache().isAllowed('ftp://example.com/file')).rejects.toThrow(/http and https only/);
    const seen: string[] = [];
    const ftp = async (url: string) => {
      seen.push(url);
      return new Response('User-agent: *\nDisallow: /private\n');
    };
    const c = cache({ fetch: ftp });
    expect(await c.isAllowed('ftp://example.com/private/file')).toBe(false);
    expect(await c.isAllowed('ftp://example.com/pub/file')).toBe(true);
    expect(seen).toEqual(['ftp://example.com/robots.txt']);
  });

  it('bad options are caught at construction', () => {
    expect(() => new RobotsCache({ agent: 'Foo/1.0', userAgentHeader: UA })).toThrow(TypeError);
    expect(() => new RobotsCache({ agent: 'Foo/1.0', userAgentHeader: UA, profile: 'google' })).not.toThrow();
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: '' })).toThrow(TypeError);
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: 'a\r\nX-Evil: 1' })).toThrow(TypeError);
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, profile: 'bing' as 'rfc' })).toThrow(TypeError);
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, maxEntries: 0 })).toThrow(RangeError);
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, ttlMs: -1 })).toThrow(RangeError);
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, timeoutMs: Number.NaN })).toThrow(RangeError);
    expect(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, timeoutMs: Infinity })).toThrow(RangeError);
    expect(() => new RobotsCache({ agent: undefined as unknown as string, userAgentHeader: UA })).toThrow(TypeError);
    expect(() => new RobotsCache(null as unknown as RobotsCacheOptions)).toThrow(TypeError);
  });

  it('clear() drops every entry', async () => {
    const c = cache();
    await c.lookup(server.origin);
    c.clear();
    expect(c.stats).toMatchObject({ entries: 0, bytes: 0 });
    expect(await followsRules(c)).toBe(true);
    expect(server.requests.length).toBe(2);
  });
});

afterEach(() => {
  // A test that left a handler hanging must not leave its connections to the next.
  for (const s of [server, other]) s.handler = serve(RULES);
});

// What fetchRobots leaves of a fetch's connection: a body read to its end leaves
// its connection to the fetch and its abort signal alone, for aborting a finished
// fetch frees nothing and costs an error with its stack (a crawl pays it per
// origin); a fetch that did not finish (cut at the limit, broken off, timed out)
// is aborted. Either way no connection is left open.
const countingServers: TestServer[] = [];

/** A server of its own (no other test's kept-alive connection to it), counting the connections its requests came on
 * and those closed since. */
async function countingServer(handler: Handler): Promise<{ origin: string; sockets: Set<Socket>; closed: () => number }> {
  const sockets = new Set<Socket>();
  let closed = 0;
  const own = await startServer((req, res) => {
    if (!sockets.has(req.socket)) {
      sockets.add(req.socket);
      req.socket.once('close', () => closed++);
    }
    handler(req, res);
  });
  countingServers.push(own);
  return { origin: own.origin, sockets, closed: () => closed };
}

/** The global fetch, keeping the signal of each request. */
function watched(): { fetch: FetchFunction; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return { signals, fetch: (url, init) => (signals.push(init.signal!), fetch(url, init)) };
}

/** Until every connection the requests came on is closed (the client's close reaches the server when the machine
 * gets to it: a hang guard, not a clock). */
async function allClosed(s: { sockets: Set<Socket>; closed: () => number }): Promise<void> {
  for (let waited = 0; s.closed() < s.sockets.size; waited += 10) {
    if (waited > 10_000) throw new Error(`${s.sockets.size - s.closed()} of ${s.sockets.size} connections still open after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('fetchRobots and the connection of a fetch', () => {
  afterEach(async () => {
    await Promise.all(countingServers.splice(0).map((s) => s.close()));
  });

  it('bodies read to their end: no signal aborted, and no connection left open', async () => {
    const s = await countingServer(serve(RULES));
    const { fetch, signals } = watched();
    for (let i = 0; i < 3; i++) {
      const out = await fetchRobots(s.origin, { userAgentHeader: UA, fetch });
      expect(out).toMatchObject({ status: 'ok', reachedLimit: false, body: new TextEncoder().encode(RULES) });
    }
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
    await allClosed(s);
    expect(s.sockets.size).toBeGreaterThanOrEqual(1);
  });

  it('a body cut at the limit: aborted, its connection closed', async () => {
    const s = await countingServer(serve(`${RULES}${'#'.repeat(2 << 20)}\n`));
    const { fetch, signals } = watched();
    const out = await fetchRobots(s.origin, { userAgentHeader: UA, fetch });
    expect(out).toMatchObject({ status: 'ok', reachedLimit: true });
    expect(signals[0].aborted).toBe(true);
    await allClosed(s);
    expect(s.sockets.size).toBe(1);
  });

  it('a body that breaks off, and one that hangs past the timeout: aborted, unreachable, their connections closed', async () => {
    const s = await countingServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write(RULES);
      if (req.url === '/broken/robots.txt') setTimeout(() => req.socket.destroy(), 20);
    });
    const { fetch, signals } = watched();
    // (A fetch of a page URL asks for its origin's /robots.txt: the paths tell the server which to break.)
    const broken = await fetchRobots(`${s.origin}/`, { userAgentHeader: UA, fetch: (url, init) => fetch(url.replace('/robots.txt', '/broken/robots.txt'), init) });
    expect(broken).toMatchObject({ status: 'unreachable', httpStatus: 200 });
    const hung = await fetchRobots(s.origin, { userAgentHeader: UA, fetch, timeoutMs: 300 });
    expect(hung).toMatchObject({ status: 'unreachable', reason: 'timeout after 300 ms' });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    await allClosed(s);
    expect(s.sockets.size).toBe(2);
  });
});

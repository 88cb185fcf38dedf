// The RobotsStore contract, held to every store (MemoryStore, RedisStore):
// records come back as they were written, expire after keepMs, and a fetch
// lease is held by one taker at a time, released only by its token, and ends
// by itself. And what a hostile writer puts in a store is bounded by the cache
// that reads it (hostileRecordContract).
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { RobotsCache } from '../../src/index.js';
import type { RobotsRecord, RobotsStore, StoreEvent } from '../../src/index.js';
import { serve, startServer, type TestServer } from '../helpers/http-servers.js';

export function record(key: string, over: Partial<RobotsRecord> = {}): RobotsRecord {
  return {
    robotsUrl: key,
    status: 'ok',
    httpStatus: 200,
    reason: 'http 200',
    fetchedAt: 1_700_000_000_000,
    expiresAt: 1_700_086_400_000,
    stale: false,
    finalUrl: key,
    redirects: 0,
    reachedLimit: false,
    unreachableSince: undefined,
    failures: 0,
    body: new TextEncoder().encode('User-agent: *\nDisallow: /private\n'),
    ...over,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function storeContract(make: () => RobotsStore): void {
  it('a record comes back as written: every field, any body (empty, binary, large), any URL', async () => {
    const store = make();
    expect(await store.get('http://nobody.example/robots.txt')).toBeUndefined();
    const big = new TextEncoder().encode(('User-agent: *\nDisallow: /x\n').repeat(20_000));
    const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) & 255);
    const cases: RobotsRecord[] = [
      record('http://a.example/robots.txt'),
      record('https://b.example:8443/robots.txt', { body: new Uint8Array(0) }),
      record('http://c.example/robots.txt', { body: big, reachedLimit: true }),
      record('http://d.example/robots.txt', { body: binary, stale: true, failures: 3, unreachableSince: 1_699_000_000_000, httpStatus: 503 }),
      record('http://xn--mnich-kva.example/robots.txt', { status: 'unavailable', httpStatus: 404, reason: 'http 404', body: undefined }),
      record('http://e.example/robots.txt', { status: 'unreachable', httpStatus: undefined, reason: 'timeout after 10000 ms ünïcødé', body: undefined, failures: 1, unreachableSince: 1_700_000_000_000, redirects: 2, finalUrl: 'http://f.example/robots.txt' }),
    ];
    for (const r of cases) await store.set(r.robotsUrl, r, 60_000);
    for (const r of cases) {
      const got = await store.get(r.robotsUrl);
      expect(got).toEqual(r);
      if (r.body !== undefined) expect(Buffer.from(got!.body!).equals(Buffer.from(r.body))).toBe(true);
    }
    // A write replaces.
    const replaced = record('http://a.example/robots.txt', { reason: 'http 200 again', fetchedAt: 1 });
    await store.set(replaced.robotsUrl, replaced, 60_000);
    expect(await store.get(replaced.robotsUrl)).toEqual(replaced);
  });

  it('a record is gone after keepMs', async () => {
    const store = make();
    await store.set('http://short.example/robots.txt', record('http://short.example/robots.txt'), 60);
    await store.set('http://long.example/robots.txt', record('http://long.example/robots.txt'), 60_000);
    expect(await store.get('http://short.example/robots.txt')).toBeDefined();
    await sleep(150);
    expect(await store.get('http://short.example/robots.txt')).toBeUndefined();
    expect(await store.get('http://long.example/robots.txt')).toBeDefined();
  });

  it('a lease: one taker at a time, released only by its token, ended by itself after leaseMs', async () => {
    const store = make();
    const key = 'http://lease.example/robots.txt';
    const token = await store.acquireLease(key, 60_000);
    expect(typeof token).toBe('string');
    expect(await store.acquireLease(key, 60_000)).toBeUndefined();
    // Another key is another lease.
    expect(await store.acquireLease('http://other.example/robots.txt', 60_000)).toBeDefined();
    await store.releaseLease(key, 'not-the-token');
    expect(await store.acquireLease(key, 60_000)).toBeUndefined();
    await store.releaseLease(key, token!);
    const second = await store.acquireLease(key, 60);
    expect(second).toBeDefined();
    expect(second).not.toBe(token);
    await sleep(150);
    // The holder never released it: it ended by itself.
    const third = await store.acquireLease(key, 60_000);
    expect(third).toBeDefined();
    // The old holder's late release does not end the new lease.
    await store.releaseLease(key, second!);
    expect(await store.acquireLease(key, 60_000)).toBeUndefined();
  });

  it('concurrent takers: exactly one gets the lease', async () => {
    const store = make();
    const tokens = await Promise.all(Array.from({ length: 50 }, () => store.acquireLease('http://race.example/robots.txt', 60_000)));
    expect(tokens.filter((t) => t !== undefined).length).toBe(1);
  });
}

/**
 * A store written by a hostile or broken writer (another process's clock or
 * bug): RobotsCache bounds every field of what it reads against its own policy
 * and clock, uses a record only within those bounds, and says so. `bigBodyBytes`:
 * the size of the oversized body tried.
 */
export function hostileRecordContract(make: () => RobotsStore, bigBodyBytes = 60 * 2 ** 20): void {
  const DAY = 24 * 3_600_000;
  const UA = 'FooBot/1.0 (+https://foo.example/bot)';
  const RULES = 'User-agent: FooBot\nDisallow: /private\nAllow: /private/ok\n';
  let server: TestServer;
  let events: StoreEvent[];
  let clock: number;
  const key = () => `${server.origin}/robots.txt`;
  const cacheOn = (store: RobotsStore) => new RobotsCache({
    agent: 'FooBot', userAgentHeader: UA, timeoutMs: 2000, now: () => clock, store, onStoreEvent: (e) => events.push(e),
  });
  const told = (type: StoreEvent['type'], problem: RegExp) =>
    events.some((e) => e.type === type && 'problems' in e && e.key === key() && e.problems.some((p) => problem.test(p)));
  async function followsRules(c: RobotsCache): Promise<boolean> {
    const [priv, ok, pub] = await Promise.all(['/private/x', '/private/ok', '/public'].map((p) => c.isAllowed(server.origin + p)));
    return !priv && ok && pub;
  }

  beforeAll(async () => {
    server = await startServer(serve(RULES));
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.handler = serve(RULES);
    events = [];
    clock = Math.floor(Date.now() / 1000) * 1000;
  });

  it('an expiry of 1e300: fresh for ttlMs from its fetch, not 10^293 hours; told', async () => {
    const store = make();
    await store.set(key(), record(key(), { fetchedAt: clock, expiresAt: 1e300, body: new TextEncoder().encode(RULES) }), 60_000);
    const c = cacheOn(store);
    expect(await followsRules(c)).toBe(true);
    expect(await c.lookup(server.origin)).toMatchObject({ fetchedAt: clock, expiresAt: clock + DAY });
    expect(told('record-clamped', /^expiresAt 1e\+300 is past the fetch/)).toBe(true);
    expect(server.requests.length).toBe(0);
    clock += DAY;
    expect(await followsRules(c)).toBe(true);
    expect(server.requests.length).toBe(1);
  });

  it('a clock a year ahead: the record is taken as fetched now, fresh for ttlMs', async () => {
    const store = make();
    const ahead = clock + 365 * DAY;
    await store.set(key(), record(key(), { fetchedAt: ahead, expiresAt: ahead + DAY, body: new TextEncoder().encode(RULES) }), 60_000);
    const c = cacheOn(store);
    expect(await c.lookup(server.origin)).toMatchObject({ status: 'ok', fetchedAt: clock, expiresAt: clock + DAY });
    expect(told('record-clamped', /^fetchedAt .* ahead of this cache's clock/)).toBe(true);
  });

  it(`a body of ${bigBodyBytes} octets: cut to maxBodyBytes as its own fetch would read it, the cache's memory bounded`, async () => {
    const store = make();
    const big = new Uint8Array(bigBodyBytes).fill(0x23); // '#': a comment to the end
    big.set(new TextEncoder().encode(RULES));
    big[RULES.length] = 0x23;
    await store.set(key(), record(key(), { fetchedAt: clock, expiresAt: clock + DAY, body: big }), 60_000);
    const c = cacheOn(store);
    expect(await followsRules(c)).toBe(true);
    expect(await c.lookup(server.origin)).toMatchObject({ status: 'ok', reachedLimit: true });
    expect(c.stats.bytes).toBeLessThan(64 * 1024);
    expect(told('record-clamped', new RegExp(`^a body of ${bigBodyBytes} octets: cut to maxBodyBytes \\(512000\\)`))).toBe(true);
    expect(server.requests.length).toBe(0);
  });

  it('a clock 40 days behind does not make an outage 30 days old (which would allow everything): rejected, refetched', async () => {
    const store = make();
    const behind = clock - 40 * DAY;
    await store.set(key(), record(key(), { status: 'unreachable', httpStatus: 503, reason: 'http 503', body: undefined, fetchedAt: behind, expiresAt: behind + 60_000, unreachableSince: behind, failures: 1 }), 60_000);
    server.handler = serve('down', {}, 503);
    const c = cacheOn(store);
    expect(await c.lookup(server.origin)).toMatchObject({ status: 'unreachable', unreachableSince: clock });
    expect(await c.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(told('record-rejected', /^fetchedAt .* is older than any record is kept/)).toBe(true);
    expect(server.requests.length).toBe(1);
  });

  it('an outage said to have begun 31 days before its first failure: its start is the fetch, so the next failure stays unreachable', async () => {
    const store = make();
    await store.set(key(), record(key(), { status: 'unreachable', httpStatus: 503, reason: 'http 503', body: undefined, fetchedAt: clock - 60_000, expiresAt: clock - 1, unreachableSince: clock - 31 * DAY, failures: 1 }), 60_000);
    server.handler = serve('down', {}, 503);
    const c = cacheOn(store);
    expect(await c.lookup(server.origin)).toMatchObject({ status: 'unreachable', unreachableSince: clock - 60_000 });
    expect(await c.isAllowed(`${server.origin}/public`)).toBe(false);
    expect(told('record-clamped', /^unreachableSince .* earlier than 1 failure/)).toBe(true);
  });

  it('counts, statuses, words and URLs out of bounds: clamped (or the record replaced), never trusted as they are', async () => {
    const cases: [Partial<RobotsRecord>, 'record-clamped' | 'record-rejected', RegExp][] = [
      [{ redirects: 1e9 }, 'record-clamped', /^redirects 1000000000 is more than 5/],
      [{ httpStatus: 1e9 }, 'record-clamped', /^httpStatus 1000000000 is not an HTTP status/],
      [{ reason: 'x'.repeat(1_000_000) }, 'record-clamped', /^reason of 1000000 characters: cut to 4096/],
      [{ finalUrl: `http://x.example/${'a'.repeat(100_000)}` }, 'record-rejected', /^finalUrl is not a URL string/],
      [{ failures: -1 }, 'record-rejected', /^failures -1 is not a count/],
      [{ redirects: 1.5 }, 'record-rejected', /^redirects 1.5 is not a count/],
    ];
    for (const [over, type, problem] of cases) {
      events = [];
      server.requests.length = 0;
      const store = make();
      await store.set(key(), record(key(), { fetchedAt: clock, expiresAt: clock + DAY, body: new TextEncoder().encode(RULES), ...over }), 60_000);
      const c = cacheOn(store);
      const entry = await c.lookup(server.origin);
      expect(told(type, problem), `${JSON.stringify(over).slice(0, 60)}: ${JSON.stringify(events).slice(0, 300)}`).toBe(true);
      if (type === 'record-rejected') {
        expect(server.requests.length).toBe(1);
        expect(await followsRules(c)).toBe(true);
      } else {
        expect(server.requests.length).toBe(0);
        expect(entry.reason.length).toBeLessThanOrEqual(4096);
        expect(entry.redirects).toBeLessThanOrEqual(5);
      }
    }
  });
}

// RobotsCache with a store: caches that share one store fetch an origin once,
// carry the policy's state (stale copies, back-off) through it, ignore records
// they cannot use, and keep crawling on their own when the store fails. The
// store here is MemoryStore (held to the store contract too); Redis is in
// redis-store.test.ts, a fleet of processes in fleet.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore, RobotsCache } from '../../src/index.js';
import type { RobotsCacheOptions, RobotsRecord, RobotsStore, StoreEvent } from '../../src/index.js';
import { serve, startServer, TestServer } from '../helpers/http-servers.js';
import { hostileRecordContract, record, storeContract } from './store-contract.js';

const HOUR = 3_600_000;
const UA = 'FooBot/1.0 (+https://foo.example/bot)';
const RULES = 'User-agent: FooBot\nDisallow: /private\nAllow: /private/ok\n';

let server: TestServer;
let clock: number;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  clock = Date.UTC(2025, 0, 1);
  server.requests.length = 0;
  server.handler = serve(RULES);
});

function cache(store: RobotsStore, options: Partial<RobotsCacheOptions> = {}): RobotsCache {
  return new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, now: () => clock, timeoutMs: 2000, store, ...options });
}

async function followsRules(c: RobotsCache): Promise<boolean> {
  const [priv, ok, pub] = await Promise.all(['/private/x', '/private/ok', '/public'].map((p) => c.isAllowed(server.origin + p)));
  return !priv && ok && pub;
}

/** A store that fails (rejects or hangs) while `down` is set, and logs its calls. */
class FlakyStore implements RobotsStore {
  inner = new MemoryStore();
  mode: 'up' | 'reject' | 'hang' = 'up';
  calls: string[] = [];
  private gate<T>(name: string, call: () => Promise<T>): Promise<T> {
    this.calls.push(name);
    if (this.mode === 'reject') return Promise.reject(new Error('connection refused'));
    if (this.mode === 'hang') return new Promise(() => {});
    return call();
  }
  get(key: string) {
    return this.gate('get', () => this.inner.get(key));
  }
  set(key: string, r: RobotsRecord, keepMs: number) {
    return this.gate('set', () => this.inner.set(key, r, keepMs));
  }
  acquireLease(key: string, ms: number) {
    return this.gate('acquireLease', () => this.inner.acquireLease(key, ms));
  }
  releaseLease(key: string, token: string) {
    return this.gate('releaseLease', () => this.inner.releaseLease(key, token));
  }
}

describe('MemoryStore', () => {
  storeContract(() => new MemoryStore());

  it('keeps at most maxRecords, the oldest written going first', async () => {
    const store = new MemoryStore({ maxRecords: 3 });
    for (const k of ['a', 'b', 'c', 'd']) await store.set(k, record(k), 60_000);
    expect(store.size).toBe(3);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('d')).toBeDefined();
    expect(() => new MemoryStore({ maxRecords: 0 })).toThrow(RangeError);
  });
});

describe('a hostile MemoryStore: what a cache reads is bounded by its own policy and clock', () => {
  hostileRecordContract(() => new MemoryStore());

  it('fields of the wrong type (which a store that decodes octets would drop first) reject the record, told once per refresh', async () => {
    const key = `${server.origin}/robots.txt`;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ reason: 42 }, /^reason 42 is not a string/],
      [{ stale: 'yes' }, /^stale "yes" is not a boolean/],
      [{ reachedLimit: 1 }, /^reachedLimit 1 is not a boolean/],
      [{ httpStatus: '200' }, /^httpStatus "200" is not a number/],
      [{ fetchedAt: '2025' }, /^fetchedAt "2025" is not a time/],
      [{ fetchedAt: -1 }, /^fetchedAt -1 is not a time/],
      [{ expiresAt: Number.NaN }, /^expiresAt NaN is not a time/],
      [{ unreachableSince: Infinity, failures: 1 }, /^unreachableSince Infinity is not a time/],
      [{ failures: 0.5 }, /^failures 0.5 is not a count/],
      [{ body: 'User-agent: *' }, /^an ok record without its body/],
      [{ status: 'maybe' }, /^status "maybe" is none of/],
      [{ robotsUrl: 'http://elsewhere.example/robots.txt' }, /^robotsUrl is not the key/],
    ];
    for (const [over, problem] of cases) {
      server.requests.length = 0;
      const events: StoreEvent[] = [];
      const store = new MemoryStore();
      await store.set(key, { ...record(key, { fetchedAt: clock, expiresAt: clock + HOUR }), ...over } as RobotsRecord, 60_000);
      const c = cache(store, { onStoreEvent: (e) => events.push(e) });
      expect(await followsRules(c)).toBe(true);
      expect(server.requests.length).toBe(1);
      // (Read twice in the refresh, before and after the lease: told once.)
      expect(events, JSON.stringify(over)).toEqual([{ type: 'record-rejected', key, problems: [expect.stringMatching(problem)] }]);
    }
  });

  it('a body on a record that is not ok is dropped; its status decides', async () => {
    const key = `${server.origin}/robots.txt`;
    const store = new MemoryStore();
    const events: StoreEvent[] = [];
    await store.set(key, record(key, { status: 'unavailable', httpStatus: 404, fetchedAt: clock, expiresAt: clock + HOUR }), 60_000);
    const c = cache(store, { onStoreEvent: (e) => events.push(e) });
    expect(await c.isAllowed(`${server.origin}/private/x`)).toBe(true);
    expect((await c.lookup(server.origin)).robots).toBeUndefined();
    expect(events).toEqual([{ type: 'record-clamped', key, problems: ['a body on a unavailable record: dropped'] }]);
    expect(server.requests.length).toBe(0);
  });
});

describe('caches sharing a store', () => {
  it('the second cache takes the first one’s fetch: one request, same entry, its own matcher', async () => {
    const store = new MemoryStore();
    const a = cache(store);
    const b = cache(store);
    expect(await followsRules(a)).toBe(true);
    expect(await followsRules(b)).toBe(true);
    expect(server.requests.length).toBe(1);
    expect(a.stats).toMatchObject({ fetches: 1, shared: 0, storeDown: false });
    expect(b.stats).toMatchObject({ fetches: 0, shared: 1, entries: 1 });
    const [ea, eb] = [await a.lookup(server.origin), await b.lookup(server.origin)];
    const { robots: ra, ...fa } = ea;
    const { robots: rb, ...fb } = eb;
    expect(fb).toEqual(fa);
    expect(rb).not.toBe(ra);
  });

  it('many caches at once on one origin: one fetch, the others wait for its record', async () => {
    const store = new MemoryStore();
    server.handler = (req, res) => setTimeout(() => serve(RULES)(req, res), 100);
    const caches = Array.from({ length: 12 }, () => cache(store));
    const verdicts = await Promise.all(caches.flatMap((c) => [c.isAllowed(`${server.origin}/private/x`), c.isAllowed(`${server.origin}/public`)]));
    expect(verdicts).toEqual(caches.flatMap(() => [false, true]));
    expect(server.requests.length).toBe(1);
    expect(caches.reduce((n, c) => n + c.stats.fetches, 0)).toBe(1);
  });

  it('each outcome class is shared as it is: 404, 503 with its back-off, a redirect', async () => {
    for (const [handler, status] of [
      [serve('gone', {}, 404), 'unavailable'],
      [serve('down', {}, 503), 'unreachable'],
    ] as const) {
      server.requests.length = 0;
      server.handler = handler;
      const store = new MemoryStore();
      const a = cache(store);
      const b = cache(store);
      const ea = await a.lookup(server.origin);
      const eb = await b.lookup(server.origin);
      expect(ea.status).toBe(status);
      expect(eb).toEqual(ea);
      expect(server.requests.length).toBe(1);
    }
    server.requests.length = 0;
    server.handler = (req, res) => (req.url === '/robots.txt' ? res.writeHead(301, { location: '/elsewhere.txt' }).end() : serve(RULES)(req, res));
    const store = new MemoryStore();
    await cache(store).lookup(server.origin);
    const b = cache(store);
    expect(await b.lookup(server.origin)).toMatchObject({ status: 'ok', redirects: 1, finalUrl: `${server.origin}/elsewhere.txt` });
    expect(await followsRules(b)).toBe(true);
    expect(server.requests.length).toBe(2);
  });

  it('a stale copy through the store: the copy of an earlier fetch serves a cache that never fetched it', async () => {
    const store = new MemoryStore();
    await cache(store).lookup(server.origin);
    clock += 25 * HOUR;
    server.handler = serve('down', {}, 503);
    // A cache that has no copy of its own: the store's record has the octets.
    const b = cache(store);
    const entry = await b.lookup(server.origin);
    expect(entry).toMatchObject({ status: 'ok', stale: true, httpStatus: 503, unreachableSince: clock });
    expect(await followsRules(b)).toBe(true);
    // And a third reads the stale record without fetching.
    const c = cache(store);
    expect(await followsRules(c)).toBe(true);
    expect((await c.lookup(server.origin)).stale).toBe(true);
    expect(c.stats.fetches).toBe(0);
    expect(server.requests.length).toBe(2);
  });

  it('the back-off goes on across caches: each failure doubles the wait, whoever fetched', async () => {
    const store = new MemoryStore();
    server.handler = serve('down', {}, 503);
    const first = await cache(store).lookup(server.origin);
    expect(first.expiresAt - clock).toBe(60_000);
    clock = first.expiresAt;
    const second = await cache(store).lookup(server.origin);
    expect(second.expiresAt - clock).toBe(120_000);
    expect(second.unreachableSince).toBe(first.unreachableSince);
    clock = second.expiresAt;
    server.handler = serve(RULES);
    const third = cache(store);
    expect(await followsRules(third)).toBe(true);
    expect((await third.lookup(server.origin)).unreachableSince).toBeUndefined();
    expect(server.requests.length).toBe(3);
  });

  it('a record it cannot use (another key, no body, damaged fields) is ignored and replaced', async () => {
    const key = `${server.origin}/robots.txt`;
    const bad: RobotsRecord[] = [
      record('http://somewhere.else/robots.txt', { expiresAt: Date.UTC(2030, 0, 1) }),
      record(key, { body: undefined, expiresAt: Date.UTC(2030, 0, 1) }),
      record(key, { status: 'maybe' as never, expiresAt: Date.UTC(2030, 0, 1) }),
      { ...record(key), expiresAt: Number.NaN },
    ];
    for (const r of bad) {
      server.requests.length = 0;
      const store = new MemoryStore();
      await store.set(key, r, 60_000);
      const c = cache(store);
      expect(await followsRules(c)).toBe(true);
      expect(server.requests.length).toBe(1);
      expect((await store.get(key))!.robotsUrl).toBe(key);
      expect((await store.get(key))!.body).toBeDefined();
    }
  });

  it('a lease that never ends: after one lease period the waiter fetches, writes its record (the others stop waiting), and says so', async () => {
    const store = new MemoryStore();
    const key = `${server.origin}/robots.txt`;
    // Held for a day and never written for: a holder with a far longer lease, or a store whose leases do not end.
    expect(await store.acquireLease(key, 24 * HOUR)).toBeDefined();
    // A cache with a long lease period waits too: it must take the record the first one writes, not wait its own period out.
    const patient = cache(store, { leaseMs: 600_000 });
    const waiting = patient.isAllowed(`${server.origin}/private/x`);
    const events: StoreEvent[] = [];
    const started = Date.now();
    const a = cache(store, { leaseMs: 300, onStoreEvent: (e) => events.push(e) });
    expect(await followsRules(a)).toBe(true);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(5_000); // (it was two lease periods: 14 s with timeoutMs 2000)
    expect(events).toEqual([{ type: 'lease-overrun', key, waitedMs: expect.any(Number) }]);
    expect((events[0] as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(300);
    expect(await store.get(key)).toMatchObject({ status: 'ok', fetchedAt: clock });
    expect(await waiting).toBe(false);
    expect(patient.stats).toMatchObject({ fetches: 0, shared: 1 });
    expect(server.requests.length).toBe(1);
    expect(() => cache(store, { leaseMs: 0 })).toThrow(/leaseMs must be a positive number/);
    expect(() => cache(store, { leaseMs: Infinity })).toThrow(/leaseMs must be finite/);
  });

  it('a dead holder: its lease ends and a waiting cache fetches', async () => {
    const store = new MemoryStore();
    const key = `${server.origin}/robots.txt`;
    // Taken by a cache that died before writing anything (a short lease, as a
    // dead process's would end).
    expect(await store.acquireLease(key, 300)).toBeDefined();
    const started = Date.now();
    const c = cache(store);
    expect(await followsRules(c)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(server.requests.length).toBe(1);
  });
});

describe('a store that fails', () => {
  for (const mode of ['reject', 'hang'] as const) {
    it(`(${mode === 'reject' ? 'rejects' : 'never answers'}): verdicts as without a store, told once; back to sharing when it answers`, async () => {
      const store = new FlakyStore();
      const events: StoreEvent['type'][] = [];
      const options = { storeTimeoutMs: 100, storeRetryMs: 200, onStoreEvent: (e: StoreEvent) => events.push(e.type) };
      store.mode = mode;
      const a = cache(store, options);
      expect(await followsRules(a)).toBe(true);
      for (let i = 0; i < 20; i++) expect(await a.isAllowed(`${server.origin}/private/${i}`)).toBe(false);
      expect(events).toEqual(['store-down']);
      expect(a.stats.storeDown).toBe(true);
      expect(server.requests.length).toBe(1);
      // While down, another cache fetches on its own too.
      const b = cache(store, { ...options, onStoreEvent: undefined });
      expect(await followsRules(b)).toBe(true);
      expect(server.requests.length).toBe(2);
      // The store answers again: after storeRetryMs the next refresh uses it.
      store.mode = 'up';
      await new Promise((r) => setTimeout(r, 250));
      clock += 25 * HOUR;
      expect(await followsRules(a)).toBe(true);
      expect(events).toEqual(['store-down', 'store-up']);
      expect(a.stats.storeDown).toBe(false);
      const c = cache(store, options);
      expect(await followsRules(c)).toBe(true);
      expect(c.stats).toMatchObject({ fetches: 0, shared: 1 });
      expect(server.requests.length).toBe(3);
    });
  }

  it('back from an outage, a cache’s own later entry wins over the store’s older record', async () => {
    const store = new FlakyStore();
    const a = cache(store, { storeRetryMs: 50 });
    expect(await followsRules(a)).toBe(true);
    store.mode = 'reject';
    clock += 25 * HOUR;
    server.handler = serve('down', {}, 503);
    const first = await a.lookup(server.origin); // fetched alone: the stale copy, first failure
    expect(first).toMatchObject({ stale: true, expiresAt: clock + 60_000 });
    store.mode = 'up';
    await new Promise((r) => setTimeout(r, 80));
    clock = first.expiresAt;
    // The store still has the first fetch's record; the back-off goes on from this cache's own.
    const second = await a.lookup(server.origin);
    expect(second).toMatchObject({ stale: true, expiresAt: clock + 120_000, unreachableSince: first.unreachableSince });
    expect(await followsRules(a)).toBe(true);
  });

  it('a hook that throws does not stop the crawl; options are checked', async () => {
    const store = new FlakyStore();
    store.mode = 'reject';
    const a = cache(store, { onStoreEvent: () => { throw new Error('hook'); } });
    expect(await followsRules(a)).toBe(true);
    expect(() => cache({} as RobotsStore)).toThrow(/store must be a RobotsStore/);
    expect(() => cache(store, { storeTimeoutMs: -1 })).toThrow(RangeError);
    expect(() => cache(store, { onStoreEvent: 5 as never })).toThrow(TypeError);
  });

  it('a write that fails after the fetch keeps the fetched entry', async () => {
    const store = new FlakyStore();
    const original = store.set.bind(store);
    store.set = () => Promise.reject(new Error('OOM command not allowed when used memory > maxmemory'));
    const events: string[] = [];
    const a = cache(store, { onStoreEvent: (e) => events.push(e.type) });
    expect(await followsRules(a)).toBe(true);
    expect(a.stats.fetches).toBe(1);
    expect(events).toEqual(['store-down']);
    store.set = original;
  });
});

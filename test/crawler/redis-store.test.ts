// RedisStore against a real redis-server (test/helpers/redis-server.ts): the store
// contract, the key layout and the record format, records it cannot read, and
// RobotsCache on it when Redis is down at start, killed and restarted, or
// full. A fleet of processes is in fleet.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { RobotsCache } from '../../src/index.js';
import type { StoreEvent } from '../../src/index.js';
import { RECORD_FORMAT, RedisStore } from '../../src/crawler/redis-store.js';
import { serve, startServer, TestServer } from '../helpers/http-servers.js';
import { REDIS_BINARY, RedisServer, SKIP_REDIS, startRedis } from '../helpers/redis-server.js';
import { hostileRecordContract, record, storeContract } from './store-contract.js';

const UA = 'FooBot/1.0 (+https://foo.example/bot)';
const rulesOf = (i: number) => `User-agent: *\nDisallow: /private-${i}\nAllow: /private-${i}/open\n`;

it('redis-server is there when CI runs (.ci/run installs it)', () => {
  if (process.env.CI === 'true') expect(REDIS_BINARY, 'redis-server must be installed for CI').toBeDefined();
});

describe.skipIf(SKIP_REDIS)('RedisStore on a real redis-server', () => {
  let redis: RedisServer;
  let servers: TestServer[] = [];
  const stores: RedisStore[] = [];
  let prefixes = 0;
  const store = (options: Record<string, unknown> = {}) => {
    const s = new RedisStore({ url: redis.url, prefix: `t${++prefixes}:`, ...options });
    stores.push(s);
    return s;
  };

  beforeAll(async () => {
    redis = await startRedis();
    servers = await Promise.all(Array.from({ length: 40 }, (_, i) => startServer(serve(rulesOf(i)), { log: false })));
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(servers.map((s) => s.close()));
    await redis?.stop();
  });

  /** Verdicts of origin i's rules through cache c. */
  async function followsRules(c: RobotsCache, i: number): Promise<boolean> {
    const o = servers[i].origin;
    const [priv, open, pub] = await Promise.all([c.isAllowed(`${o}/private-${i}/x`), c.isAllowed(`${o}/private-${i}/open`), c.isAllowed(`${o}/public`)]);
    return !priv && open && pub;
  }
  const cache = (s: RedisStore, options: Record<string, unknown> = {}) =>
    new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, timeoutMs: 2000, store: s, storeTimeoutMs: 500, storeRetryMs: 200, ...options });

  describe('the store contract', () => {
    storeContract(() => store());
  });

  describe('a hostile writer: what a cache reads through Redis is bounded by its own policy and clock', () => {
    hostileRecordContract(() => store());
  });

  it('keys: <prefix>r:<url> for records (expiring with keepMs), <prefix>l:<url> for leases; versioned octets, deflated when that pays', async () => {
    const s = store({ prefix: 'crawl:' });
    const key = 'http://a.example/robots.txt';
    const big = new TextEncoder().encode('User-agent: *\nDisallow: /a-long-path/that-repeats\n'.repeat(2000));
    await s.set(key, record(key, { body: big }), 3_600_000);
    const raw = (await redis.command('GET', `crawl:r:${key}`)) as Buffer;
    expect(raw.subarray(0, 2).toString()).toBe('RW');
    expect(raw[2]).toBe(RECORD_FORMAT);
    expect(raw[3] & 1).toBe(1);
    expect(raw.length).toBeLessThan(big.length / 20);
    const ttl = (await redis.command('PTTL', `crawl:r:${key}`)) as number;
    expect(ttl).toBeGreaterThan(3_590_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
    // A small body is stored as it is.
    await s.set(key, record(key), 1000);
    expect(((await redis.command('GET', `crawl:r:${key}`)) as Buffer)[3]).toBe(0);
    const token = await s.acquireLease(key, 5000);
    expect(((await redis.command('GET', `crawl:l:${key}`)) as Buffer).toString()).toBe(token);
    const pttl = (await redis.command('PTTL', `crawl:l:${key}`)) as number;
    expect(pttl).toBeGreaterThan(4000);
  });

  it('a value it cannot read (garbage, another format version, a cut record) is ignored, and the cache replaces it', async () => {
    const s = store({ prefix: 'bad:' });
    const key = `${servers[0].origin}/robots.txt`;
    const good = Buffer.from((await (async () => {
      await s.set(key, record(key, { body: new TextEncoder().encode(rulesOf(0)), expiresAt: Date.now() + 3_600_000 }), 60_000);
      return (await redis.command('GET', `bad:r:${key}`)) as Buffer;
    })()));
    const other = Buffer.from(good);
    other[2] = RECORD_FORMAT + 1;
    for (const value of [Buffer.from('garbage'), Buffer.alloc(0), other, good.subarray(0, good.length - 5), Buffer.concat([good.subarray(0, 8), Buffer.from('{not json')])]) {
      await redis.command('SET', `bad:r:${key}`, value);
      expect(await s.get(key)).toBeUndefined();
      const c = cache(s);
      expect(await followsRules(c, 0)).toBe(true);
      expect(c.stats.fetches).toBe(1);
      expect((await s.get(key))!.robotsUrl).toBe(key);
    }
  });

  it('takes a client of yours (and leaves it open at close); checks its options', async () => {
    const client = createClient({ url: redis.url });
    await client.connect();
    const s = new RedisStore({ client, prefix: 'own:' });
    await s.set('k', record('k'), 60_000);
    expect((await s.get('k'))!.robotsUrl).toBe('k');
    await s.close();
    expect(await client.ping()).toBe('PONG');
    await client.close();
    expect(() => new RedisStore({})).toThrow(/one of url or client/);
    expect(() => new RedisStore({ url: 'http://x' })).toThrow(/redis:\/\//);
    expect(() => new RedisStore({ url: redis.url, client })).toThrow(/one of url or client/);
    expect(() => new RedisStore({ client: {} as never })).toThrow(/node-redis client/);
    expect(() => new RedisStore({ url: redis.url, commandTimeoutMs: 0 })).toThrow(RangeError);
    const closed = store();
    await closed.close();
    await expect(closed.get('k')).rejects.toThrow(/closed/);
  });

  it('Redis down at start, then up: verdicts all along, told once each way, then shared', async () => {
    const down = await startRedis();
    await down.stop();
    const s = new RedisStore({ url: down.url, connectTimeoutMs: 200 });
    stores.push(s);
    const events: StoreEvent['type'][] = [];
    const a = cache(s, { onStoreEvent: (e: StoreEvent) => events.push(e.type) });
    for (let i = 0; i < 10; i++) expect(await followsRules(a, i)).toBe(true);
    expect(events).toEqual(['store-down']);
    await down.start();
    await new Promise((r) => setTimeout(r, 2500)); // reconnect back-off, then storeRetryMs
    for (let i = 10; i < 20; i++) expect(await followsRules(a, i)).toBe(true);
    expect(events).toEqual(['store-down', 'store-up']);
    const b = cache(s);
    for (let i = 10; i < 20; i++) expect(await followsRules(b, i)).toBe(true);
    expect(b.stats).toMatchObject({ fetches: 0, shared: 10 });
    await s.close();
    await down.stop();
  });

  it('Redis killed in the middle, then restarted empty: no failure reaches the caller, sharing resumes', async () => {
    const r = await startRedis();
    const s = new RedisStore({ url: r.url });
    stores.push(s);
    const events: StoreEvent['type'][] = [];
    const a = cache(s, { onStoreEvent: (e: StoreEvent) => events.push(e.type) });
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const run = (from: number, to: number) => Promise.all(Array.from({ length: to - from }, (_, k) => followsRules(a, from + k)));
      expect((await run(0, 10)).every(Boolean)).toBe(true);
      await r.stop(true);
      expect((await run(10, 25)).every(Boolean)).toBe(true);
      await r.start();
      await new Promise((res) => setTimeout(res, 2500));
      expect((await run(25, 40)).every(Boolean)).toBe(true);
      expect(events).toEqual(['store-down', 'store-up']);
      const b = cache(s);
      expect((await Promise.all(Array.from({ length: 15 }, (_, k) => followsRules(b, 25 + k)))).every(Boolean)).toBe(true);
      expect(b.stats.fetches).toBe(0);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await s.close();
      await r.stop();
    }
  });

  // The server sleeps 6 s, then lookups go on: a hang guard above that, whatever the load.
  it('Redis slow (DEBUG SLEEP, the server answers nothing for 6 s): lookups go on within storeTimeoutMs, fetched on their own; then shared again', { timeout: 60_000 }, async () => {
    const r = await startRedis(['--enable-debug-command', 'yes']);
    const s = new RedisStore({ url: r.url, commandTimeoutMs: 2000 });
    stores.push(s);
    const events: StoreEvent['type'][] = [];
    const a = cache(s, { storeTimeoutMs: 300, onStoreEvent: (e: StoreEvent) => events.push(e.type) });
    try {
      expect(await followsRules(a, 0)).toBe(true);
      let awake = false;
      const sleeping = r.command('DEBUG', 'SLEEP', '6').catch(() => {}).then(() => (awake = true));
      await new Promise((res) => setTimeout(res, 50));
      for (let i = 1; i < 6; i++) expect(await followsRules(a, i)).toBe(true);
      // Not waiting for the server: all answered while it still slept (no clock read: a busy machine only slows both).
      expect(awake).toBe(false);
      expect(events).toEqual(['store-down']);
      await sleeping;
      await new Promise((res) => setTimeout(res, 300));
      for (let i = 6; i < 10; i++) expect(await followsRules(a, i)).toBe(true);
      expect(events).toEqual(['store-down', 'store-up']);
    } finally {
      await s.close();
      await r.stop();
    }
  });

  // Two servers filled past 3 MB, each lookup a round trip: seconds quiet, past 15 s on a loaded machine (a hang guard).
  it('Redis full: keys evicted (allkeys-lru) or writes refused (noeviction): verdicts stay right', { timeout: 60_000 }, async () => {
    const noise = Uint8Array.from({ length: 200_000 }, (_, i) => (Math.imul(i, 2654435761) >>> 13) & 255);
    for (const policy of ['allkeys-lru', 'noeviction']) {
      const r = await startRedis(['--maxmemory', '3mb', '--maxmemory-policy', policy]);
      // Fill it to the last octet (noeviction refuses a write only once it is over).
      let n = 0;
      for (const size of [200_000, 20_000, 2_000, 200, 20]) {
        for (let k = 0; k < 400; k++) if ((await r.command('SET', `filler:${n++}`, Buffer.from(noise.subarray(0, size))).catch((e) => e)) instanceof Error) break;
      }
      const s = new RedisStore({ url: r.url });
      stores.push(s);
      const events: string[] = [];
      const c1 = cache(s, { onStoreEvent: (e: StoreEvent) => events.push(e.type) });
      const c2 = cache(s);
      for (let i = 0; i < 40; i++) {
        expect(await followsRules(c1, i)).toBe(true);
        expect(await followsRules(c2, i)).toBe(true);
      }
      // Refused writes put the store down (told once); evictions are misses, not failures.
      expect(events[0]).toBe(policy === 'noeviction' ? 'store-down' : undefined);
      await s.close();
      await r.stop();
    }
  });
});

// The RobotsStore contract, held to every store (MemoryStore, RedisStore):
// records come back as they were written, expire after keepMs, and a fetch
// lease is held by one taker at a time, released only by its token, and ends
// by itself.
import { expect, it } from 'vitest';
import type { RobotsRecord, RobotsStore } from '../dist/index.js';

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

// RobotsCache's options resolved once (src/crawler/cache-options.ts): the
// defaults, the values derived from others, and the first wrong option named.
// (The cache's own tests check each error through its constructor.)
import { describe, expect, it } from 'vitest';
import { resolveCacheOptions } from '../../src/crawler/cache-options.js';

const UA = 'FooBot/1.0 (+https://foo.example/bot)';

describe('resolveCacheOptions', () => {
  it('fills in every default', () => {
    const o = resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA });
    expect(o).toMatchObject({
      agent: 'FooBot', profile: 'rfc', fetch: undefined, store: undefined, onStoreEvent: undefined,
      ttlMs: 86_400_000, minTtlMs: 60_000, maxEntries: 100_000, maxBytes: 128 * 2 ** 20, maxBodyOctets: 512_000,
      timeoutMs: 10_000, retryMs: 60_000, maxRetryMs: 3_600_000, maxDfaBytes: 2 ** 20,
      storeTimeoutMs: 2_000, leaseMs: 15_000, storeRetryMs: 1_000,
    });
    expect(o.now).toBe(Date.now);
    expect(o.parseOptions).toEqual({ profile: 'rfc', maxOctets: 512_000 });
  });

  it('derives the lease from the timeout and the parse options from the profile and body limit; copies an agent list', () => {
    const agents = ['Googlebot-Image', 'Googlebot'];
    const o = resolveCacheOptions({ agent: agents, userAgentHeader: UA, profile: 'google', timeoutMs: 3_000, maxBodyOctets: 600_000, minTtlMs: 0 });
    expect(o.leaseMs).toBe(8_000);
    expect(o.parseOptions).toEqual({ profile: 'google', maxOctets: 600_000 });
    expect(o.agent).toEqual(agents);
    expect(o.agent).not.toBe(agents);
    expect(o.minTtlMs).toBe(0);
    expect(resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA, timeoutMs: 3_000, leaseMs: 1_000 }).leaseMs).toBe(1_000);
  });

  it('throws for the first wrong option, in the order the options are checked', () => {
    expect(() => resolveCacheOptions({ agent: 'Foo Bot', userAgentHeader: '' })).toThrow(/^agent/);
    expect(() => resolveCacheOptions({ agent: 'FooBot', userAgentHeader: '', ttlMs: -1 })).toThrow(/^userAgentHeader/);
    expect(() => resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA, ttlMs: 0, maxEntries: 0 })).toThrow('ttlMs must be a positive number, got 0');
    expect(() => resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA, maxBodyOctets: 1000 })).toThrow('maxBodyOctets must be at least 512000 (RFC 9309 2.5)');
    // (the deprecated name, in the caller's words)
    expect(() => resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA, maxBodyBytes: 1000 })).toThrow('maxBodyBytes must be at least 512000 (RFC 9309 2.5)');
    expect(() => resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA, leaseMs: Infinity })).toThrow('leaseMs must be finite');
    expect(() => resolveCacheOptions({ agent: 'FooBot', userAgentHeader: UA, storeTimeoutMs: 2 ** 31 })).toThrow(`storeTimeoutMs must be at most ${2 ** 31 - 1}`);
  });
});

// RobotsCache's options, resolved once into one object: every default, every
// check (with the error a caller sees) and every value derived from another
// (the parse options, the lease period) in one function, so the cache reads
// settled values only.
import type { FetchFunction } from './fetch-robots.js';
import type { Profile } from '../engine/parse/profile.js';
import { DEFAULT_MAX_OCTETS, parse, type ParseOptions } from '../engine/robots-txt.js';
import { renamedOption } from '../engine/renamed-option.js';
import type { RobotsStore, StoreEvent } from './robots-store.js';

export interface RobotsCacheOptions {
  /** The crawler's product token(s) matched against user-agent lines, e.g. 'FooBot'. */
  agent: string | readonly string[];
  /** The User-Agent header sent when fetching robots.txt, e.g. 'FooBot/1.2 (+https://foo.example/bot)'. */
  userAgentHeader: string;
  profile?: Profile;
  /** Used for every request; Node's built-in fetch by default. Must leave redirects to the caller ('manual'). */
  fetch?: FetchFunction;
  /** How long a robots.txt is kept (default 24 h), and the longest Cache-Control may keep it (RFC 9309 2.4). */
  ttlMs?: number;
  /** The shortest a fetched robots.txt is kept whatever Cache-Control says (default 60 s), so no-store does not mean a fetch per URL. */
  minTtlMs?: number;
  /** Origins kept (default 100,000); the least recently used go first. */
  maxEntries?: number;
  /** Estimated memory of the kept entries (default 128 MiB): their compiled matchers and deflated files. */
  maxBytes?: number;
  /** Octets of a robots.txt read and parsed (default and minimum 512,000 = 500 KiB). */
  maxBodyOctets?: number;
  /** @deprecated Use maxBodyOctets (octets of a body; maxBytes is the memory budget). Kept until 0.2; given both, they must agree. */
  maxBodyBytes?: number;
  /** Per fetch, redirects and body included (default 10 s). */
  timeoutMs?: number;
  /** First wait before refetching an unreachable robots.txt (default 60 s); it doubles on each failure. A longer Retry-After wins, up to ttlMs. */
  retryMs?: number;
  /** Longest wait between refetches of an unreachable robots.txt (default 1 h). */
  maxRetryMs?: number;
  /** Automaton memory cap of each cached matcher (default 1 MiB); see MatcherOptions. */
  maxDfaBytes?: number;
  /** The clock, in ms since the epoch (default Date.now). */
  now?: () => number;
  /**
   * Where fetch outcomes are shared with other caches (processes, machines):
   * e.g. RedisStore from 'robots-wasm/redis', or a MemoryStore. Without one,
   * each cache keeps its own in memory.
   */
  store?: RobotsStore;
  /** A store call that has not settled by then has failed (default 2 s). */
  storeTimeoutMs?: number;
  /** How long a fetch lease is taken for (default timeoutMs + 5 s), and the longest this cache waits on another's before it fetches itself. */
  leaseMs?: number;
  /** After a failed store call, the store is left alone this long (default 1 s): fetches are the cache's own. */
  storeRetryMs?: number;
  /** Told when the store stops answering and when it answers again (once per change, never per URL), of a record it clamped or rejected, and of a lease it stopped waiting on (StoreEvent). */
  onStoreEvent?: (event: StoreEvent) => void;
}

/** The options as the cache uses them: every default filled in, every value checked. */
export interface ResolvedCacheOptions {
  readonly agent: string | readonly string[];
  readonly userAgentHeader: string;
  readonly profile: Profile;
  readonly fetch: FetchFunction | undefined;
  readonly ttlMs: number;
  readonly minTtlMs: number;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly maxBodyOctets: number;
  /** How each body is parsed (one object: every kept file points to it). */
  readonly parseOptions: ParseOptions;
  readonly timeoutMs: number;
  readonly retryMs: number;
  readonly maxRetryMs: number;
  readonly maxDfaBytes: number;
  readonly now: () => number;
  readonly store: RobotsStore | undefined;
  readonly storeTimeoutMs: number;
  readonly leaseMs: number;
  readonly storeRetryMs: number;
  readonly onStoreEvent: ((event: StoreEvent) => void) | undefined;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Node fires a longer timer at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A fetch lease outlasts the fetch's own timeout by this much (the parse and the write). */
const LEASE_SLACK_MS = 5_000;

/** The options checked (in this order: the first wrong one throws) and their defaults filled in. */
export function resolveCacheOptions(options: RobotsCacheOptions): ResolvedCacheOptions {
  if (options === null || typeof options !== 'object') throw new TypeError('RobotsCache options must be an object');
  const { agent, userAgentHeader } = options;
  const profile = options.profile ?? 'rfc';
  // The engine checks the profile, then the agent (a product token under 'rfc'), now rather than at the first verdict.
  const empty = parse('', { profile });
  try {
    empty.compile(agent).dispose();
  } catch (error) {
    // (The option's name first: the header is another option.)
    if (error instanceof TypeError && !error.message.startsWith('agent')) throw new TypeError(`agent: ${error.message}`);
    throw error;
  }
  if (typeof userAgentHeader !== 'string' || userAgentHeader.trim() === '' || /[\r\n\0]/.test(userAgentHeader)) {
    throw new TypeError('userAgentHeader must be a non-empty header value, e.g. "FooBot/1.0 (+https://example.com/bot)"');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError('fetch must be a function');
  if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('now must be a function');
  const ttlMs = positive('ttlMs', options.ttlMs, DAY);
  const minTtlMs = positive('minTtlMs', options.minTtlMs, 60_000, true);
  const maxEntries = positive('maxEntries', options.maxEntries, 100_000);
  const maxBytes = positive('maxBytes', options.maxBytes, 128 * 2 ** 20);
  const body = renamedOption<number>(options, 'maxBodyOctets', 'maxBodyBytes');
  const maxBodyOctets = positive(body.given, body.value, DEFAULT_MAX_OCTETS);
  if (maxBodyOctets < DEFAULT_MAX_OCTETS) throw new RangeError(`${body.given} must be at least ${DEFAULT_MAX_OCTETS} (RFC 9309 2.5)`);
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 10_000);
  if (timeoutMs > MAX_TIMER_MS) throw new RangeError(`timeoutMs must be at most ${MAX_TIMER_MS}`);
  const retryMs = positive('retryMs', options.retryMs, 60_000);
  const maxRetryMs = positive('maxRetryMs', options.maxRetryMs, HOUR);
  const maxDfaBytes = positive('maxDfaBytes', options.maxDfaBytes, 2 ** 20);
  const store = options.store;
  if (store !== undefined && (store === null || typeof store !== 'object' || ['get', 'set', 'acquireLease', 'releaseLease'].some((m) => typeof (store as unknown as Record<string, unknown>)[m] !== 'function'))) {
    throw new TypeError('store must be a RobotsStore: an object with get, set, acquireLease and releaseLease methods');
  }
  const storeTimeoutMs = positive('storeTimeoutMs', options.storeTimeoutMs, 2_000);
  if (storeTimeoutMs > MAX_TIMER_MS) throw new RangeError(`storeTimeoutMs must be at most ${MAX_TIMER_MS}`);
  const leaseMs = positive('leaseMs', options.leaseMs, timeoutMs + LEASE_SLACK_MS);
  if (!Number.isFinite(leaseMs)) throw new RangeError('leaseMs must be finite');
  const storeRetryMs = positive('storeRetryMs', options.storeRetryMs, 1_000, true);
  if (options.onStoreEvent !== undefined && typeof options.onStoreEvent !== 'function') throw new TypeError('onStoreEvent must be a function');
  return {
    agent: typeof agent === 'string' ? agent : [...agent],
    userAgentHeader,
    profile,
    fetch: options.fetch,
    ttlMs,
    minTtlMs,
    maxEntries,
    maxBytes,
    maxBodyOctets,
    parseOptions: { profile, maxOctets: maxBodyOctets },
    timeoutMs,
    retryMs,
    maxRetryMs,
    maxDfaBytes,
    now: options.now ?? Date.now,
    store,
    storeTimeoutMs,
    leaseMs,
    storeRetryMs,
    onStoreEvent: options.onStoreEvent,
  };
}

function positive(name: string, value: number | undefined, fallback: number, zeroOk = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (value === 0 && !zeroOk)) {
    throw new RangeError(`${name} must be a ${zeroOk ? 'non-negative' : 'positive'} number, got ${String(value)}`);
  }
  return value;
}

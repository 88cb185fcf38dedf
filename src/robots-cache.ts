// A crawler's robots.txt cache: one entry per origin, fetched on first use
// with the RFC 9309 policy (src/fetch-robots.ts), kept for 24 h or what
// Cache-Control says, LRU-bounded by entries and bytes. Concurrent lookups of
// an origin share one fetch; an unreachable origin is retried with back-off,
// and meanwhile an earlier good copy keeps being used.
import CachePolicy from 'http-cache-semantics';
import { fetchRobots, FetchFunction, FetchOutcome, RobotsStatus } from './fetch-robots.js';
import type { Matcher } from './matcher.js';
import type { Profile } from './pattern.js';
import { DEFAULT_MAX_BYTES, parse, RobotsTxt } from './robots-txt.js';
import { robotsUrl } from './robots-url.js';

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
  /** Origins kept (default 10,000); the least recently used go first. */
  maxEntries?: number;
  /** Estimated memory of the kept entries (default 128 MiB): parsed files and compiled automata. */
  maxBytes?: number;
  /** Octets of a robots.txt read and parsed (default and minimum 512,000 = 500 KiB). */
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
}

export interface RobotsEntry {
  /** The origin's robots.txt URL: the cache key. */
  readonly robotsUrl: string;
  /** ok: `robots` decides. unavailable: every URL allowed. unreachable: every URL disallowed. */
  readonly status: RobotsStatus;
  /** The parsed robots.txt when ok (on `stale` entries, the earlier good copy). */
  readonly robots: RobotsTxt | undefined;
  /** HTTP status of the last response of this entry's fetch; undefined when none came. */
  readonly httpStatus: number | undefined;
  /** Why this status, in words ('http 404', 'timeout after 10000 ms', ...). */
  readonly reason: string;
  /** When this entry's fetch ended. */
  readonly fetchedAt: number;
  /** When the next lookup fetches again. */
  readonly expiresAt: number;
  /** The refresh failed (unreachable) and `robots` is the copy from an earlier success. */
  readonly stale: boolean;
  /** The URL the body came from, after redirects. */
  readonly finalUrl: string;
  readonly redirects: number;
  /** Reading stopped at maxBodyBytes. */
  readonly reachedLimit: boolean;
  /** Start of the current run of unreachable fetches, if in one. */
  readonly unreachableSince: number | undefined;
}

export interface RobotsCacheStats {
  entries: number;
  bytes: number;
  /** Fetches made (one per lookup that found no fresh entry and no fetch under way). */
  fetches: number;
  inflight: number;
}

const HOUR = 3_600_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const DAY = 24 * HOUR;
/** RFC 9309 2.3.1.4: unreachable this long with no copy, the file is taken as unavailable. */
export const UNREACHABLE_GIVE_UP_MS = 30 * DAY;
/** An entry's own objects (the entry, its slot, strings, the map's slot); its
 * RobotsTxt and matcher weigh themselves (their heldBytes, measured). */
const ENTRY_OVERHEAD = 1024;

interface Slot {
  entry: RobotsEntry;
  /** Compiled on first verdict; disposed when the slot leaves the cache. */
  matcher: Matcher | undefined;
  bytes: number;
  /** Consecutive unreachable fetches, for the back-off. */
  failures: number;
  evicted: boolean;
}

export class RobotsCache {
  private readonly agent: string | readonly string[];
  private readonly userAgentHeader: string;
  private readonly profile: Profile;
  private readonly fetchFn: FetchFunction | undefined;
  private readonly ttlMs: number;
  private readonly minTtlMs: number;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly maxBodyBytes: number;
  private readonly timeoutMs: number;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private readonly maxDfaBytes: number;
  private readonly now: () => number;
  /** In LRU order: the first is the least recently used. */
  private readonly slots = new Map<string, Slot>();
  private readonly inflight = new Map<string, Promise<Slot>>();
  private bytes = 0;
  private fetches = 0;

  constructor(options: RobotsCacheOptions) {
    if (options === null || typeof options !== 'object') throw new TypeError('RobotsCache options must be an object');
    const { agent, userAgentHeader } = options;
    if (typeof userAgentHeader !== 'string' || userAgentHeader.trim() === '' || /[\r\n\0]/.test(userAgentHeader)) {
      throw new TypeError('userAgentHeader must be a non-empty header value, e.g. "FooBot/1.0 (+https://example.com/bot)"');
    }
    this.profile = options.profile ?? 'rfc';
    // The engine checks the profile and the agent (a product token under 'rfc') now, not at the first verdict.
    parse('', { profile: this.profile }).compile(agent).dispose();
    if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new TypeError('fetch must be a function');
    if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError('now must be a function');
    this.agent = typeof agent === 'string' ? agent : [...agent];
    this.userAgentHeader = userAgentHeader;
    this.fetchFn = options.fetch;
    this.ttlMs = positive('ttlMs', options.ttlMs, DAY);
    this.minTtlMs = positive('minTtlMs', options.minTtlMs, 60_000, true);
    this.maxEntries = positive('maxEntries', options.maxEntries, 10_000);
    this.maxBytes = positive('maxBytes', options.maxBytes, 128 * 2 ** 20);
    this.maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BYTES);
    if (this.maxBodyBytes < DEFAULT_MAX_BYTES) throw new RangeError(`maxBodyBytes must be at least ${DEFAULT_MAX_BYTES} (RFC 9309 2.5)`);
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, 10_000);
    // Node fires a longer timer at once.
    if (this.timeoutMs > MAX_TIMER_MS) throw new RangeError(`timeoutMs must be at most ${MAX_TIMER_MS}`);
    this.retryMs = positive('retryMs', options.retryMs, 60_000);
    this.maxRetryMs = positive('maxRetryMs', options.maxRetryMs, HOUR);
    this.maxDfaBytes = positive('maxDfaBytes', options.maxDfaBytes, 2 ** 20);
    this.now = options.now ?? Date.now;
  }

  /** May the crawler fetch this URL? Fetches the origin's robots.txt when the cache has no fresh copy. */
  async isAllowed(url: string): Promise<boolean> {
    const slot = await this.slotFor(this.key(url));
    return this.verdict(slot, url);
  }

  /** The origin's entry, fetched when the cache has no fresh one. */
  async lookup(url: string): Promise<RobotsEntry> {
    return (await this.slotFor(this.key(url))).entry;
  }

  get stats(): RobotsCacheStats {
    return { entries: this.slots.size, bytes: this.bytes, fetches: this.fetches, inflight: this.inflight.size };
  }

  /** Drops every entry and frees the compiled matchers (fetches under way still complete). */
  clear(): void {
    for (const slot of this.slots.values()) this.release(slot);
    this.slots.clear();
    this.bytes = 0;
  }

  private key(url: string): string {
    const key = robotsUrl(url);
    // Node's fetch speaks HTTP only; a crawler's own fetch may know other schemes.
    if (this.fetchFn === undefined && !key.startsWith('http://') && !key.startsWith('https://')) {
      throw new TypeError(`without a fetch option, RobotsCache fetches http and https only: ${JSON.stringify(url.slice(0, 200))}`);
    }
    return key;
  }

  private slotFor(key: string): Promise<Slot> | Slot {
    const slot = this.slots.get(key);
    if (slot !== undefined && this.now() < slot.entry.expiresAt) {
      // Most recently used goes last.
      this.slots.delete(key);
      this.slots.set(key, slot);
      return slot;
    }
    let pending = this.inflight.get(key);
    if (pending === undefined) {
      pending = this.refresh(key, slot).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private verdict(slot: Slot, url: string): boolean {
    const { status, robots } = slot.entry;
    if (status === 'unavailable') return true;
    if (status === 'unreachable' || robots === undefined) return false;
    if (slot.evicted) {
      // Dropped from the cache while this lookup waited: a one-off matcher, freed at once.
      const once = robots.compile(this.agent, { maxDfaBytes: this.maxDfaBytes });
      try {
        return once.isAllowed(url);
      } finally {
        once.dispose();
      }
    }
    if (slot.matcher === undefined) slot.matcher = robots.compile(this.agent, { maxDfaBytes: this.maxDfaBytes });
    const allowed = slot.matcher.isAllowed(url);
    // The automaton grows as URLs are checked (up to maxDfaBytes): weigh it again.
    const bytes = slotBytes(slot.entry) + slot.matcher.heldBytes;
    if (bytes !== slot.bytes) {
      this.bytes += bytes - slot.bytes;
      slot.bytes = bytes;
      this.evict();
    }
    return allowed;
  }

  private async refresh(key: string, previous: Slot | undefined): Promise<Slot> {
    const outcome = await fetchRobots(key, {
      userAgentHeader: this.userAgentHeader,
      fetch: this.fetchFn,
      maxBytes: this.maxBodyBytes,
      timeoutMs: this.timeoutMs,
    });
    this.fetches++;
    const now = this.now();
    const base = {
      robotsUrl: key,
      httpStatus: outcome.httpStatus,
      reason: outcome.reason,
      fetchedAt: now,
      finalUrl: outcome.finalUrl,
      redirects: outcome.redirects,
      reachedLimit: outcome.reachedLimit,
    };
    let slot: Slot;
    if (outcome.status === 'ok') {
      const robots = parse(outcome.body!, { profile: this.profile, maxBytes: this.maxBodyBytes });
      const entry: RobotsEntry = { ...base, status: 'ok', robots, expiresAt: now + this.freshness(key, outcome), stale: false, unreachableSince: undefined };
      slot = { entry, matcher: undefined, bytes: slotBytes(entry), failures: 0, evicted: false };
    } else if (outcome.status === 'unavailable') {
      const entry: RobotsEntry = { ...base, status: 'unavailable', robots: undefined, expiresAt: now + this.ttlMs, stale: false, unreachableSince: undefined };
      slot = { entry, matcher: undefined, bytes: slotBytes(entry), failures: 0, evicted: false };
    } else {
      const failures = (previous?.failures ?? 0) + 1;
      const since = previous?.entry.unreachableSince ?? now;
      // Back-off, or longer when the server asked so with Retry-After (but not past ttlMs).
      const backoff = Math.min(this.retryMs * 2 ** Math.min(failures - 1, 40), this.maxRetryMs);
      const expiresAt = now + Math.max(backoff, Math.min(outcome.retryAfterMs ?? 0, this.ttlMs));
      const copy = previous?.entry.status === 'ok' ? previous.entry : undefined;
      if (copy !== undefined) {
        // RFC 9309 2.3.1.4: keep using the cached copy while the file is unreachable.
        const entry: RobotsEntry = { ...copy, ...base, reason: `${outcome.reason}; using the copy fetched at ${new Date(copy.fetchedAt).toISOString()}`, finalUrl: copy.finalUrl, redirects: copy.redirects, reachedLimit: copy.reachedLimit, expiresAt, stale: true, unreachableSince: since };
        // The copy's automaton carries over, unless the copy left the cache meanwhile.
        const matcher = previous!.evicted ? undefined : previous!.matcher;
        slot = { entry, matcher, bytes: slotBytes(entry) + (matcher?.heldBytes ?? 0), failures, evicted: false };
        if (matcher !== undefined) previous!.matcher = undefined;
      } else {
        const givenUp = now - since >= UNREACHABLE_GIVE_UP_MS;
        const entry: RobotsEntry = {
          ...base,
          status: givenUp ? 'unavailable' : 'unreachable',
          reason: givenUp ? `unreachable since ${new Date(since).toISOString()} (over 30 days, so taken as unavailable): ${outcome.reason}` : outcome.reason,
          robots: undefined,
          expiresAt,
          stale: false,
          unreachableSince: since,
        };
        slot = { entry, matcher: undefined, bytes: slotBytes(entry), failures, evicted: false };
      }
    }
    this.store(key, slot);
    return slot;
  }

  /** How long a fetched robots.txt is kept: Cache-Control/Expires when sent (RFC 9111), else ttlMs; within [minTtlMs, ttlMs]. */
  private freshness(key: string, outcome: FetchOutcome): number {
    const headers = outcome.headers;
    if (headers === undefined || (!headers.has('cache-control') && !headers.has('expires'))) return this.ttlMs;
    const policy = new CachePolicy(
      { url: new URL(key).pathname, method: 'GET', headers: { 'user-agent': this.userAgentHeader } },
      { status: outcome.httpStatus!, headers: Object.fromEntries(headers) },
      // The crawler's own cache, not a proxy: max-age, not s-maxage; `private` is fine.
      { shared: false },
    );
    return Math.min(this.ttlMs, Math.max(this.minTtlMs, policy.timeToLive()));
  }

  private store(key: string, slot: Slot): void {
    const old = this.slots.get(key);
    if (old !== undefined) {
      this.slots.delete(key);
      this.bytes -= old.bytes;
      this.release(old);
    }
    this.slots.set(key, slot);
    this.bytes += slot.bytes;
    this.evict();
  }

  /** Least recently used first, until both bounds hold. */
  private evict(): void {
    while (this.slots.size > this.maxEntries || (this.bytes > this.maxBytes && this.slots.size > 0)) {
      const [key, slot] = this.slots.entries().next().value!;
      this.slots.delete(key);
      this.bytes -= slot.bytes;
      this.release(slot);
    }
  }

  private release(slot: Slot): void {
    slot.evicted = true;
    slot.matcher?.dispose();
    slot.matcher = undefined;
  }
}

function slotBytes(entry: RobotsEntry): number {
  return ENTRY_OVERHEAD + (entry.robots?.heldBytes ?? 0);
}

function positive(name: string, value: number | undefined, fallback: number, zeroOk = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (value === 0 && !zeroOk)) {
    throw new RangeError(`${name} must be a ${zeroOk ? 'non-negative' : 'positive'} number, got ${String(value)}`);
  }
  return value;
}

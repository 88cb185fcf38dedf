// A crawler's robots.txt cache: one entry per origin, fetched on first use
// with the RFC 9309 policy (src/crawler/fetch-robots.ts), kept for 24 h or what
// Cache-Control says, LRU-bounded by entries and bytes. Concurrent lookups of
// an origin share one fetch; an unreachable origin is retried with back-off,
// and meanwhile an earlier good copy keeps being used. With a store
// (src/crawler/robots-store.ts; Redis: src/crawler/redis-store.ts), the outcomes are shared: one fetch per origin for every cache
// on the store, each process compiling its own matchers.
import CachePolicy from 'http-cache-semantics';
import { fetchRobots, FetchFunction, FetchOutcome, RobotsStatus } from './fetch-robots.js';
import type { Matcher } from '../engine/match/matcher.js';
import type { Profile } from '../engine/parse/profile.js';
import { compileOctets, DEFAULT_MAX_OCTETS, parse, ParseOptions, RobotsTxt } from '../engine/robots-txt.js';
import { renamedOption } from '../engine/renamed-option.js';
import { CachedEntry, packBody, packedBytes, PackedBody, RobotsEntry, unpackBody } from './cached-entry.js';
import { robotsUrl } from '../engine/robots-url.js';
import { requestedPath } from '../engine/from-path.js';
import type { FetchState, RobotsRecord, RobotsStore, StoreEvent } from './robots-store.js';
import { boundRecord } from './record-bounds.js';

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

export type { RobotsEntry };

/** What a crawler asks of an origin for each URL (RobotsCache.policy). */
export interface RobotsPolicy {
  /** May the crawler fetch the URL (as isAllowed). */
  allowed: boolean;
  /** The origin's outcome: ok (its rules), unavailable (all allowed), unreachable (all disallowed). */
  status: RobotsStatus;
  /** Seconds between fetches the file asks of this crawler (its agent's group, else `*`'s), or undefined. */
  crawlDelay: number | undefined;
  /** The file's Sitemap URLs, as written (frozen; empty when none or not ok). */
  sitemaps: readonly string[];
}

/** An origin's answers that do not depend on the URL, found once per entry. */
interface Answers {
  crawlDelay: number | undefined;
  sitemaps: readonly string[];
  /** What they hold, for the cache's budget. */
  bytes: number;
}
const NO_ANSWERS: Answers = Object.freeze({ crawlDelay: undefined, sitemaps: Object.freeze([]) as readonly string[], bytes: 0 });

export interface RobotsCacheStats {
  entries: number;
  bytes: number;
  /** Fetches made by this cache (one per lookup that found no fresh entry, here or in the store, and no fetch under way). */
  fetches: number;
  inflight: number;
  /** Entries taken fresh from the store (fetched by another cache). */
  shared: number;
  /** The store failed and is being left alone for now. */
  storeDown: boolean;
}

const HOUR = 3_600_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const DAY = 24 * HOUR;
/** RFC 9309 2.3.1.4: unreachable this long with no copy, the file is taken as unavailable. */
export const UNREACHABLE_GIVE_UP_MS = 30 * DAY;
/** An entry's own objects (the entry, its slot, strings, the map's slot); its
 * deflated file and matcher weigh themselves. On the corpus the whole entry's
 * estimate is within 20% of what the heap shows (test/crawler/robots-cache-capacity.test.ts). */
const ENTRY_OVERHEAD = 512;
/** Answers' own objects (the object, the frozen array), and a string's header: a string holds 2 octets a character at most. */
const ANSWERS_OVERHEAD = 96;
const STRING_OVERHEAD = 32;
/** A fetch lease outlasts the fetch's own timeout by this much (the parse and the write). */
const LEASE_SLACK_MS = 5_000;
/** Longest pause between two looks at the store while another cache fetches. */
const MAX_POLL_MS = 100;

/** A record without its body: what the policy reads of the previous outcome. */
type EntryState = Omit<RobotsRecord, 'body'>;

/** What a refresh knows of the origin's previous outcome. */
interface Prior {
  state: EntryState;
  /** The previous slot in this cache: its copy and automaton carry over to a stale entry. */
  slot: Slot | undefined;
  /** The copy's octets (from the store), to share a stale entry. */
  body: Uint8Array | undefined;
}

class StoreFailure extends Error {}

interface Slot {
  entry: CachedEntry;
  /** An ok entry's, compiled when it is kept; disposed when the slot leaves the cache. */
  matcher: Matcher | undefined;
  bytes: number;
  /** Consecutive unreachable fetches, for the back-off. */
  failures: number;
  evicted: boolean;
  /** The crawl-delay and sitemaps, once asked (an ok entry's come from its file). */
  answers: Answers | undefined;
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
  /** How each body is parsed (one object: every kept file points to it). */
  private readonly parseOptions: ParseOptions;
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
  private sharedHits = 0;
  private readonly store: RobotsStore | undefined;
  private readonly storeTimeoutMs: number;
  private readonly leaseMs: number;
  private readonly storeRetryMs: number;
  private readonly onStoreEvent: ((event: StoreEvent) => void) | undefined;
  private storeDown = false;
  /** While the store is down, Date.now() before which it is left alone. */
  private storeRetryAt = 0;

  constructor(options: RobotsCacheOptions) {
    if (options === null || typeof options !== 'object') throw new TypeError('RobotsCache options must be an object');
    const { agent, userAgentHeader } = options;
    this.profile = options.profile ?? 'rfc';
    // The engine checks the profile, then the agent (a product token under 'rfc'), now rather than at the first verdict.
    const empty = parse('', { profile: this.profile });
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
    this.agent = typeof agent === 'string' ? agent : [...agent];
    this.userAgentHeader = userAgentHeader;
    this.fetchFn = options.fetch;
    this.ttlMs = positive('ttlMs', options.ttlMs, DAY);
    this.minTtlMs = positive('minTtlMs', options.minTtlMs, 60_000, true);
    this.maxEntries = positive('maxEntries', options.maxEntries, 100_000);
    this.maxBytes = positive('maxBytes', options.maxBytes, 128 * 2 ** 20);
    const body = renamedOption<number>(options, 'maxBodyOctets', 'maxBodyBytes');
    this.maxBodyBytes = positive(body.given, body.value, DEFAULT_MAX_OCTETS);
    if (this.maxBodyBytes < DEFAULT_MAX_OCTETS) throw new RangeError(`${body.given} must be at least ${DEFAULT_MAX_OCTETS} (RFC 9309 2.5)`);
    this.parseOptions = { profile: this.profile, maxOctets: this.maxBodyBytes };
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, 10_000);
    // Node fires a longer timer at once.
    if (this.timeoutMs > MAX_TIMER_MS) throw new RangeError(`timeoutMs must be at most ${MAX_TIMER_MS}`);
    this.retryMs = positive('retryMs', options.retryMs, 60_000);
    this.maxRetryMs = positive('maxRetryMs', options.maxRetryMs, HOUR);
    this.maxDfaBytes = positive('maxDfaBytes', options.maxDfaBytes, 2 ** 20);
    this.now = options.now ?? Date.now;
    const store = options.store;
    if (store !== undefined && (store === null || typeof store !== 'object' || ['get', 'set', 'acquireLease', 'releaseLease'].some((m) => typeof (store as unknown as Record<string, unknown>)[m] !== 'function'))) {
      throw new TypeError('store must be a RobotsStore: an object with get, set, acquireLease and releaseLease methods');
    }
    this.store = store;
    this.storeTimeoutMs = positive('storeTimeoutMs', options.storeTimeoutMs, 2_000);
    if (this.storeTimeoutMs > MAX_TIMER_MS) throw new RangeError(`storeTimeoutMs must be at most ${MAX_TIMER_MS}`);
    this.leaseMs = positive('leaseMs', options.leaseMs, this.timeoutMs + LEASE_SLACK_MS);
    if (!Number.isFinite(this.leaseMs)) throw new RangeError('leaseMs must be finite');
    this.storeRetryMs = positive('storeRetryMs', options.storeRetryMs, 1_000, true);
    if (options.onStoreEvent !== undefined && typeof options.onStoreEvent !== 'function') throw new TypeError('onStoreEvent must be a function');
    this.onStoreEvent = options.onStoreEvent;
  }

  /** May the crawler fetch this URL? Fetches the origin's robots.txt when the cache has no fresh copy. */
  async isAllowed(url: string): Promise<boolean> {
    const slot = await this.slotFor(this.key(url));
    // The path a fetch of the URL requests, as WHATWG reads it (robotsUrl's reading of its origin):
    // as written, "http://h\evil/public" is the path "/public" of the host "h\evil" to the core.
    return this.verdict(slot, requestedPath(url));
  }

  /** The origin's entry, fetched when the cache has no fresh one. */
  async lookup(url: string): Promise<RobotsEntry> {
    return (await this.slotFor(this.key(url))).entry;
  }

  /**
   * What a crawler asks for each URL, in one call: the verdict, and its
   * origin's crawl-delay for this crawler and sitemaps (found once per entry).
   */
  async policy(url: string): Promise<RobotsPolicy> {
    const slot = await this.slotFor(this.key(url));
    const allowed = this.verdict(slot, requestedPath(url));
    const { crawlDelay, sitemaps } = this.answers(slot);
    return { allowed, status: slot.entry.status, crawlDelay, sitemaps };
  }

  /** Seconds between fetches the URL's origin asks of this crawler (Crawl-delay), or undefined. */
  async crawlDelay(url: string): Promise<number | undefined> {
    return this.answers(await this.slotFor(this.key(url))).crawlDelay;
  }

  /** The Sitemap URLs of the URL's origin's robots.txt (frozen; empty when none, or when it is not ok). */
  async sitemaps(url: string): Promise<readonly string[]> {
    return this.answers(await this.slotFor(this.key(url))).sitemaps;
  }

  get stats(): RobotsCacheStats {
    return { entries: this.slots.size, bytes: this.bytes, fetches: this.fetches, inflight: this.inflight.size, shared: this.sharedHits, storeDown: this.storeDown };
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
    const { status } = slot.entry;
    if (status === 'unavailable') return true;
    if (status === 'unreachable' || slot.entry.packed === undefined) return false;
    if (slot.evicted || slot.matcher === undefined) {
      // Dropped from the cache while this lookup waited: a one-off matcher, freed at once.
      const packed = slot.entry.packed;
      const once = this.compile(unpackBody(packed), packed.options);
      try {
        return once.isAllowed(url);
      } finally {
        once.dispose();
      }
    }
    const allowed = slot.matcher.isAllowed(url);
    // The automaton grows as URLs are checked (up to maxDfaBytes): weigh it again.
    this.reweigh(slot);
    return allowed;
  }

  /** An entry's bytes again, once they may have changed (a growing automaton, a parsed file, answers). */
  private reweigh(slot: Slot): void {
    const bytes = slotBytes(slot);
    if (bytes !== slot.bytes && !slot.evicted) {
      this.bytes += bytes - slot.bytes;
      slot.bytes = bytes;
      this.evict();
    }
  }

  /** The entry's crawl-delay and sitemaps: read once from its file (the kept parse, or one parse just for them). */
  private answers(slot: Slot): Answers {
    if (slot.answers !== undefined) return slot.answers;
    const packed = slot.entry.status === 'ok' ? slot.entry.packed : undefined;
    let answers = NO_ANSWERS;
    if (packed !== undefined) {
      // (A parse made here compiles nothing: it holds no core memory, and is dropped.)
      const robots = slot.entry.parsed ?? parse(unpackBody(packed), packed.options);
      const sitemaps = Object.freeze([...robots.sitemaps]);
      answers = { crawlDelay: robots.crawlDelay(this.agent), sitemaps, bytes: ANSWERS_OVERHEAD + sitemaps.reduce((n, u) => n + STRING_OVERHEAD + 2 * u.length, 0) };
    }
    slot.answers = answers;
    this.reweigh(slot);
    return answers;
  }

  private async refresh(key: string, previous: Slot | undefined): Promise<Slot> {
    if (this.store !== undefined && !(this.storeDown && Date.now() < this.storeRetryAt)) {
      try {
        return await this.refreshShared(key, previous, this.store);
      } catch (error) {
        if (!(error instanceof StoreFailure)) throw error;
        // The store failed before this cache fetched: it fetches on its own.
      }
    }
    const slot = this.settle(key, await this.fetch(key), previous && priorOf(previous)).slot;
    this.keep(key, slot);
    return slot;
  }

  /**
   * The store's fresh record if there is one; else this cache takes the fetch
   * lease, fetches and shares the outcome; else another cache holds the lease
   * and this one waits for its record (a holder that dies loses its lease when
   * it expires, and a waiter takes it). A lease still held after this cache's
   * own lease period (a holder with a longer one, a store whose leases do not
   * end) is waited out no longer: this cache fetches and writes the record, so
   * that the others stop waiting, and says so (lease-overrun). Throws
   * StoreFailure when the store fails before this cache has fetched.
   */
  private async refreshShared(key: string, previous: Slot | undefined, store: RobotsStore): Promise<Slot> {
    const leaseMs = this.leaseMs;
    const started = Date.now();
    const told = new Set<string>();
    for (let pause = 2; ; pause = Math.min(2 * pause, MAX_POLL_MS)) {
      const record = await this.read(store, key, told);
      if (record !== undefined && this.now() < record.expiresAt) return this.adopt(key, record);
      const token = await this.storeCall(() => store.acquireLease(key, leaseMs));
      if (token !== undefined) {
        try {
          // Another cache may have shared its record between the read and the lease.
          const latest = await this.read(store, key, told);
          if (latest !== undefined && this.now() < latest.expiresAt) return this.adopt(key, latest);
          return await this.fetchAndShare(key, previous, latest, store);
        } finally {
          // Not a sign of the store's health either way (it follows a write that may have failed).
          Promise.resolve().then(() => store.releaseLease(key, token)).catch(() => {});
        }
      }
      // Another cache is fetching: its record comes soon, or its lease ends.
      const waitedMs = Date.now() - started;
      if (waitedMs >= leaseMs) {
        this.tell({ type: 'lease-overrun', key, waitedMs });
        return await this.fetchAndShare(key, previous, record, store);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, leaseMs - waitedMs)));
    }
  }

  /** Fetches (with the store's record, if any, as the previous outcome), keeps the entry, and writes the record to the store. */
  private async fetchAndShare(key: string, previous: Slot | undefined, stored: RobotsRecord | undefined, store: RobotsStore): Promise<Slot> {
    // The later of the store's record and this cache's own entry (one fetched while the store was down).
    const prior = stored !== undefined && !(previous !== undefined && previous.entry.fetchedAt > stored.fetchedAt)
      ? { state: stored, slot: undefined, body: stored.body }
      : previous && priorOf(previous);
    const { slot, record: shared } = this.settle(key, await this.fetch(key), prior);
    this.keep(key, slot);
    if (shared !== undefined) {
      // Kept while the policy may use it: fresh until expiresAt, then as
      // the copy (or the back-off state) of the next failed refreshes.
      const keepUntil = shared.expiresAt + (shared.status === 'unavailable' && shared.unreachableSince === undefined ? 0 : UNREACHABLE_GIVE_UP_MS);
      await this.storeCall(() => store.set(key, shared, Math.max(1, keepUntil - this.now()))).catch(() => {});
    }
    return slot;
  }

  /** `told`: what this refresh has said of the key's records already (its polls read the same one again). */
  private async read(store: RobotsStore, key: string, told: Set<string>): Promise<RobotsRecord | undefined> {
    const value: unknown = await this.storeCall(() => store.get(key));
    if (value === undefined) return undefined;
    // As if the store were hostile: see record-bounds.ts.
    const bounded = boundRecord(value, key, {
      now: this.now(),
      ttlMs: this.ttlMs,
      maxRetryMs: this.maxRetryMs,
      maxBodyBytes: this.maxBodyBytes,
      keptAfterExpiryMs: UNREACHABLE_GIVE_UP_MS,
    });
    const event: StoreEvent | undefined = bounded.record === undefined
      ? { type: 'record-rejected', key, problems: [bounded.rejected] }
      : bounded.clamped.length > 0 ? { type: 'record-clamped', key, problems: bounded.clamped } : undefined;
    if (event !== undefined) {
      const said = JSON.stringify(event);
      if (!told.has(said)) {
        told.add(said);
        this.tell(event);
      }
    }
    return bounded.record;
  }

  /** A fresh record of the store becomes this cache's entry. */
  private adopt(key: string, record: RobotsRecord): Slot {
    this.sharedHits++;
    const { body, ...state } = record;
    const slot = record.status === 'ok' ? this.okSlot(state, body!) : slotOf(state, undefined);
    this.keep(key, slot);
    return slot;
  }

  /** Runs a store call within storeTimeoutMs; a failure puts the store down (told once) and throws StoreFailure. */
  private async storeCall<T>(call: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = await Promise.race([
        Promise.resolve().then(call),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the store did not answer within ${this.storeTimeoutMs} ms`)), this.storeTimeoutMs);
        }),
      ]);
      if (this.storeDown) {
        this.storeDown = false;
        this.tell({ type: 'store-up' });
      }
      return result;
    } catch (error) {
      this.storeRetryAt = Date.now() + this.storeRetryMs;
      if (!this.storeDown) {
        this.storeDown = true;
        this.tell({ type: 'store-down', error });
      }
      throw new StoreFailure(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  private tell(event: StoreEvent): void {
    try {
      this.onStoreEvent?.(event);
    } catch {
      // A hook that throws must not stop the crawl.
    }
  }

  private async fetch(key: string): Promise<FetchOutcome> {
    const outcome = await fetchRobots(key, {
      userAgentHeader: this.userAgentHeader,
      fetch: this.fetchFn,
      maxOctets: this.maxBodyBytes,
      timeoutMs: this.timeoutMs,
    });
    this.fetches++;
    return outcome;
  }

  /**
   * The policy (RFC 9309 2.3.1, 2.4): the entry a fetch outcome makes, given
   * the previous one; and the record to share, unless it would be a stale copy
   * whose octets this cache no longer has (its parsed copy keeps serving here).
   */
  private settle(key: string, outcome: FetchOutcome, prior: Prior | undefined): { slot: Slot; record: RobotsRecord | undefined } {
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
    const fresh = (slot: Slot, body: Uint8Array | undefined) => ({
      slot,
      record: slot.entry.status === 'ok' && body === undefined ? undefined : { ...slot.entry.state(slot.failures), body },
    });
    if (outcome.status === 'ok') {
      const state: EntryState = { ...base, status: 'ok', expiresAt: now + this.freshness(key, outcome), stale: false, unreachableSince: undefined, failures: 0 };
      return fresh(this.okSlot(state, outcome.body!), outcome.body);
    }
    if (outcome.status === 'unavailable') {
      return fresh(slotOf({ ...base, status: 'unavailable', expiresAt: now + this.ttlMs, stale: false, unreachableSince: undefined, failures: 0 }, undefined), undefined);
    }
    const previous = prior?.state;
    const failures = (previous?.failures ?? 0) + 1;
    const since = previous?.unreachableSince ?? now;
    // Back-off, or longer when the server asked so with Retry-After (but not past ttlMs).
    const backoff = Math.min(this.retryMs * 2 ** Math.min(failures - 1, 40), this.maxRetryMs);
    const expiresAt = now + Math.max(backoff, Math.min(outcome.retryAfterMs ?? 0, this.ttlMs));
    if (previous?.status === 'ok') {
      // RFC 9309 2.3.1.4: keep using the cached copy while the file is unreachable.
      const state: EntryState = {
        ...previous,
        ...base,
        reason: `${outcome.reason}; using the copy fetched at ${new Date(previous.fetchedAt).toISOString()}`,
        finalUrl: previous.finalUrl,
        redirects: previous.redirects,
        reachedLimit: previous.reachedLimit,
        expiresAt,
        stale: true,
        unreachableSince: since,
        failures,
      };
      // The copy and its automaton carry over, unless the copy left the cache meanwhile.
      // (A prior from the store has the octets, one from this cache its slot.)
      const slot = prior!.slot;
      const matcher = slot === undefined || slot.evicted ? undefined : slot.matcher;
      if (matcher === undefined) return fresh(this.okSlot(state, prior!.body ?? unpackBody(slot!.entry.packed!)), prior!.body);
      slot!.matcher = undefined;
      return fresh(slotOf(state, slot!.entry.packed, matcher, slot!.entry.handOver(), slot!.answers), prior!.body);
    }
    const givenUp = now - since >= UNREACHABLE_GIVE_UP_MS;
    return fresh(slotOf({
      ...base,
      status: givenUp ? 'unavailable' : 'unreachable',
      reason: givenUp ? `unreachable since ${new Date(since).toISOString()} (over 30 days, so taken as unavailable): ${outcome.reason}` : outcome.reason,
      expiresAt,
      stale: false,
      unreachableSince: since,
      failures,
    }, undefined), undefined);
  }

  /** An ok entry's slot: its file parsed, compiled, and kept deflated. */
  private okSlot(state: EntryState, body: Uint8Array): Slot {
    return slotOf(state, packBody(body, this.parseOptions), this.compile(body, this.parseOptions));
  }

  /** The crawler's matcher of a robots.txt (no RobotsTxt kept: the cache keeps the matcher, and the octets deflated). */
  private compile(body: Uint8Array, options: ParseOptions): Matcher {
    return compileOctets(body, options, this.agent, { maxDfaBytes: this.maxDfaBytes });
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

  private keep(key: string, slot: Slot): void {
    const old = this.slots.get(key);
    if (old !== undefined) {
      this.slots.delete(key);
      this.bytes -= old.bytes;
      this.release(old);
    }
    this.slots.set(key, slot);
    this.bytes += slot.bytes;
    // A file parsed for entry.robots is kept with the entry, and weighed.
    slot.entry.keepParsed(() => this.reweigh(slot));
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
    slot.entry.leave();
  }
}

/** A slot for an entry's state and kept file, and its matcher (and what a stale entry carries over of its copy). */
function slotOf(state: EntryState, packed: PackedBody | undefined, matcher?: Matcher, robots?: RobotsTxt, answers?: Answers): Slot {
  const { failures, ...fields } = state;
  const entry = new CachedEntry(fields, packed, robots);
  const slot: Slot = { entry, matcher, bytes: 0, failures, evicted: false, answers };
  slot.bytes = slotBytes(slot);
  return slot;
}

function priorOf(slot: Slot): Prior {
  return { state: slot.entry.state(slot.failures), slot, body: undefined };
}

function slotBytes(slot: Slot): number {
  const entry = slot.entry;
  return ENTRY_OVERHEAD + packedBytes(entry.packed) + (slot.matcher?.heldBytes ?? 0) + (slot.answers?.bytes ?? 0) + (entry.parsed?.heldBytes ?? 0);
}

function positive(name: string, value: number | undefined, fallback: number, zeroOk = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || (value === 0 && !zeroOk)) {
    throw new RangeError(`${name} must be a ${zeroOk ? 'non-negative' : 'positive'} number, got ${String(value)}`);
  }
  return value;
}

// A crawler's robots.txt cache: one entry per origin, fetched on first use
// with the RFC 9309 policy (src/crawler/fetch-robots.ts), kept for 24 h or what
// Cache-Control says (freshness-policy.ts), LRU-bounded by entries and bytes
// (a MatcherLru of slots, cache-slot.ts). Concurrent lookups of an origin share
// one fetch; an unreachable origin is retried with back-off, and meanwhile an
// earlier good copy keeps being used. With a store (src/crawler/robots-store.ts;
// Redis: src/crawler/redis-store.ts; its calls behind store-breaker.ts), the
// outcomes are shared: one fetch per origin for every cache on the store, each
// process compiling its own matchers. Options: cache-options.ts.
import { fetchRobots, FetchOutcome, RobotsStatus } from './fetch-robots.js';
import type { Matcher } from '../engine/match/matcher.js';
import { MatcherLru } from '../engine/match/matcher-lru.js';
import { compileOctets, ParseOptions } from '../engine/robots-txt.js';
import { packBody, RobotsEntry, unpackBody } from './cached-entry.js';
import { robotsUrl } from '../engine/robots-url.js';
import { requestedPath } from '../engine/from-path.js';
import type { RobotsRecord } from './robots-store.js';
import { resolveCacheOptions, type ResolvedCacheOptions, type RobotsCacheOptions } from './cache-options.js';
import { StoreBreaker, StoreFailure } from './store-breaker.js';
import { EntryState, nextState, storeKeepMs, UNREACHABLE_GIVE_UP_MS } from './freshness-policy.js';
import { Answers, answersOf, keptChanged, Prior, priorOf, releaseSlot, Slot, slotBytes, slotOf } from './cache-slot.js';
import { loadCrawlerModules } from './crawler-modules.js';
import { usageOf, type Usage, type UsageOptions } from '../engine/usage/usage.js';
import { controlStatementsOf, controlTokensOf, operatorOf } from '../engine/usage/control-tokens.js';
import { operatorUsageOf, type OperatorUsage } from '../engine/usage/operator-usage.js';
import { isOther, noCrawlerUsage, sourceOf } from './any-crawler.js';
import type { Operator } from '../data/operators.js';

export type { RobotsCacheOptions, RobotsEntry };
export { UNREACHABLE_GIVE_UP_MS };

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

/** usage() options: the page's headers, the operators, and another crawler than the cache's own. */
export interface CacheUsageOptions extends UsageOptions {
  /** Answer for this crawler (its product token(s)) rather than the cache's agent, from the same fetch. */
  agent?: string | readonly string[];
}

/** Longest pause between two looks at the store while another cache fetches. */
const MAX_POLL_MS = 100;

export class RobotsCache {
  private readonly options: ResolvedCacheOptions;
  /** By robots.txt URL. A slot leaves (evicted, replaced or cleared) by releaseSlot: its matcher disposed, its parsed file dropped. */
  private readonly slots: MatcherLru<string, Slot>;
  private readonly inflight = new Map<string, Promise<Slot>>();
  private fetches = 0;
  private sharedHits = 0;
  private readonly store: StoreBreaker | undefined;

  constructor(options: RobotsCacheOptions) {
    const o = (this.options = resolveCacheOptions(options));
    this.slots = new MatcherLru({ maxBytes: o.maxBytes, maxEntries: o.maxEntries, weigh: slotBytes, release: releaseSlot });
    this.store = o.store !== undefined ? new StoreBreaker(o.store, o) : undefined;
    // Loaded now, while the crawler sets up, not at the package's import; the first refresh waits for them.
    loadCrawlerModules().catch(() => {}); // (a failed load fails that refresh, which loads again)
  }

  /** May the crawler fetch this URL? Fetches the origin's robots.txt when the cache has no fresh copy. */
  async isAllowed(url: string, agent?: string | readonly string[]): Promise<boolean> {
    const key = this.key(url);
    if (isOther(agent, this.options)) return sourceOf(await this.slotFor(key)).explain(requestedPath(url), agent).allowed;
    const slot = await this.slotFor(key);
    // The path a fetch of the URL requests, as WHATWG reads it (robotsUrl's reading of its origin):
    // as written, "http://h\evil/public" is the path "/public" of the host "h\evil" to the core.
    return this.verdict(key, slot, requestedPath(url));
  }

  /** The origin's entry, fetched when the cache has no fresh one. */
  async lookup(url: string): Promise<RobotsEntry> {
    return (await this.slotFor(this.key(url))).entry;
  }

  /** What a crawler asks for each URL, in one call: the verdict, and its origin's crawl-delay for this crawler
   * and sitemaps (found once per entry). */
  async policy(url: string, agent?: string | readonly string[]): Promise<RobotsPolicy> {
    const key = this.key(url);
    if (isOther(agent, this.options)) {
      const slot = await this.slotFor(key);
      const other = sourceOf(slot);
      const { sitemaps } = this.answers(key, slot);
      return { allowed: other.explain(requestedPath(url), agent).allowed, status: slot.entry.status, crawlDelay: other.crawlDelay(agent), sitemaps };
    }
    const slot = await this.slotFor(key);
    const allowed = this.verdict(key, slot, requestedPath(url));
    const { crawlDelay, sitemaps } = this.answers(key, slot);
    return { allowed, status: slot.entry.status, crawlDelay, sitemaps };
  }

  /** What the crawler may do with the URL's content, per purpose (RobotsTxt.usage): its origin's Content-Usage
   * and Content-Signal lines for this crawler (read once per entry), and the page's headers when given. An
   * unavailable robots.txt says nothing (all allowed, all unknown), nor an unreachable one (all disallowed);
   * the headers count in any case. */
  async usage(url: string, options?: CacheUsageOptions): Promise<Usage> {
    const key = this.key(url);
    const agent = options?.agent;
    if (isOther(agent, this.options)) {
      const slot = await this.slotFor(key);
      return this.kept(key, slot, () => sourceOf(slot).usage(requestedPath(url), agent, options));
    }
    const slot = await this.slotFor(key);
    const path = requestedPath(url);
    const { usage } = this.answers(key, slot);
    const verdict = usage === undefined ? { allowed: this.verdict(key, slot, path), line: 0 } : this.explained(key, slot, path);
    // Control tokens speak for this crawler (Googlebot: Google-Extended): their verdicts need the parsed file.
    const own = this.options.agent;
    const control = usage !== undefined && verdict.allowed && controlTokensOf(own, options?.operators).length > 0
      ? this.kept(key, slot, () => controlStatementsOf(sourceOf(slot), path, own, options?.operators))
      : undefined;
    return usageOf(usage ?? noCrawlerUsage(), verdict, path, options, control);
  }

  /** An operator's answer for the URL (RobotsTxt.operatorUsage), from the origin's one fetch. */
  async operatorUsage(url: string, operator: string | Operator, options?: UsageOptions): Promise<OperatorUsage> {
    const o = operatorOf(operator, options?.operators); // (a user mistake before any fetch)
    const key = this.key(url);
    const slot = await this.slotFor(key);
    return this.kept(key, slot, () => operatorUsageOf(sourceOf(slot), requestedPath(url), o, options));
  }

  /** Seconds between fetches the URL's origin asks of this crawler (Crawl-delay), or undefined. */
  async crawlDelay(url: string, agent?: string | readonly string[]): Promise<number | undefined> {
    const key = this.key(url);
    if (isOther(agent, this.options)) return sourceOf(await this.slotFor(key)).crawlDelay(agent);
    return this.answers(key, await this.slotFor(key)).crawlDelay;
  }

  /** The Sitemap URLs of the URL's origin's robots.txt (frozen; empty when none, or when it is not ok). */
  async sitemaps(url: string): Promise<readonly string[]> {
    const key = this.key(url);
    return this.answers(key, await this.slotFor(key)).sitemaps;
  }

  get stats(): RobotsCacheStats {
    return { entries: this.slots.size, bytes: this.slots.bytes, fetches: this.fetches, inflight: this.inflight.size, shared: this.sharedHits, storeDown: this.store?.down ?? false };
  }

  /** Drops every entry and frees the compiled matchers (fetches under way still complete). */
  clear(): void {
    this.slots.clear();
  }

  private key(url: string): string {
    const key = robotsUrl(url);
    // Node's fetch speaks HTTP only; a crawler's own fetch may know other schemes.
    if (this.options.fetch === undefined && !key.startsWith('http://') && !key.startsWith('https://')) {
      throw new TypeError(`without a fetch option, RobotsCache fetches http and https only: ${JSON.stringify(url.slice(0, 200))}`);
    }
    return key;
  }

  private slotFor(key: string): Promise<Slot> | Slot {
    const slot = this.slots.peek(key);
    if (slot !== undefined && this.options.now() < slot.entry.expiresAt) {
      this.slots.get(key); // (most recently used now)
      return slot;
    }
    let pending = this.inflight.get(key);
    if (pending === undefined) {
      pending = this.refresh(key, slot).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private verdict(key: string, slot: Slot, url: string): boolean {
    const { status } = slot.entry;
    if (status === 'unavailable') return true;
    if (status === 'unreachable' || slot.entry.packed === undefined) return false;
    const matcher = this.matcherOf(slot);
    try {
      return matcher.isAllowed(url);
    } finally {
      this.afterCheck(key, slot, matcher);
    }
  }

  /** verdict() with its deciding line, for an ok entry (usage()). */
  private explained(key: string, slot: Slot, url: string): { allowed: boolean; line: number } {
    const matcher = this.matcherOf(slot);
    try {
      return matcher.explain(url);
    } finally {
      this.afterCheck(key, slot, matcher);
    }
  }

  /** An ok entry's matcher: the slot's, or, for a slot dropped from the cache
   * while this lookup waited, a one-off compiled from its copy (see afterCheck). */
  private matcherOf(slot: Slot): Matcher {
    if (!slot.evicted && slot.matcher !== undefined) return slot.matcher;
    const packed = slot.entry.packed!;
    return this.compile(unpackBody(packed), packed.options);
  }

  /** After a check: a one-off matcher is freed at once; the slot's automaton,
   * which grows as URLs are checked (up to maxDfaBytes), is weighed again. */
  private afterCheck(key: string, slot: Slot, matcher: Matcher): void {
    if (matcher === slot.matcher && !slot.evicted) this.reweigh(key, slot);
    else matcher.dispose();
  }

  /** A slot's bytes again, once they may have changed (a growing automaton, a parsed file, answers). */
  private reweigh(key: string, slot: Slot): void {
    if (!slot.evicted) this.slots.reweigh(key);
  }

  /** An answer from the entry's parsed file (an operator's, another crawler's usage), after which the slot
   * is weighed again if what the file keeps changed (grew, or was dropped past its share of the budget): keptChanged(). */
  private kept<T>(key: string, slot: Slot, answer: () => T): T {
    try {
      return answer();
    } finally {
      if (keptChanged(slot, this.slots.maxBytes)) this.reweigh(key, slot);
    }
  }

  /** The entry's crawl-delay and sitemaps: read once from its file. */
  private answers(key: string, slot: Slot): Answers {
    if (slot.answers !== undefined) return slot.answers;
    const answers = (slot.answers = answersOf(slot, this.options.agent));
    this.reweigh(key, slot);
    return answers;
  }

  private async refresh(key: string, previous: Slot | undefined): Promise<Slot> {
    await loadCrawlerModules(); // (packing a body and the freshness policy use them)
    const store = this.store;
    if (store !== undefined && store.available) {
      try {
        return await this.refreshShared(key, previous, store);
      } catch (error) {
        if (!(error instanceof StoreFailure)) throw error;
        // The store failed before this cache fetched: it fetches on its own.
      }
    }
    const slot = this.settle(key, await this.fetch(key), previous && priorOf(previous)).slot;
    this.keep(key, slot);
    return slot;
  }

  /** The store's fresh record if there is one; else this cache takes the fetch lease, fetches and shares the
   * outcome; else another cache holds the lease and this one waits for its record (a holder that dies loses its
   * lease when it expires, and a waiter takes it). A lease still held after this cache's own lease period (a
   * holder with a longer one, a store whose leases do not end) is waited out no longer: this cache fetches and
   * writes the record, so that the others stop waiting, and says so (lease-overrun). Throws StoreFailure when
   * the store fails before this cache has fetched. */
  private async refreshShared(key: string, previous: Slot | undefined, store: StoreBreaker): Promise<Slot> {
    const leaseMs = this.options.leaseMs;
    const started = Date.now();
    const told = new Set<string>();
    for (let pause = 2; ; pause = Math.min(2 * pause, MAX_POLL_MS)) {
      const record = await store.read(key, told);
      if (record !== undefined && this.options.now() < record.expiresAt) return this.adopt(key, record);
      const token = await store.acquireLease(key);
      if (token !== undefined) {
        try {
          // Another cache may have shared its record between the read and the lease.
          const latest = await store.read(key, told);
          if (latest !== undefined && this.options.now() < latest.expiresAt) return this.adopt(key, latest);
          return await this.fetchAndShare(key, previous, latest, store);
        } finally {
          store.releaseLease(key, token);
        }
      }
      // Another cache is fetching: its record comes soon, or its lease ends.
      const waitedMs = Date.now() - started;
      if (waitedMs >= leaseMs) {
        store.tell({ type: 'lease-overrun', key, waitedMs });
        return await this.fetchAndShare(key, previous, record, store);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, leaseMs - waitedMs)));
    }
  }

  /** Fetches (with the store's record, if any, as the previous outcome), keeps the entry, and writes the record to the store. */
  private async fetchAndShare(key: string, previous: Slot | undefined, stored: RobotsRecord | undefined, store: StoreBreaker): Promise<Slot> {
    // The later of the store's record and this cache's own entry (one fetched while the store was down).
    const prior = stored !== undefined && !(previous !== undefined && previous.entry.fetchedAt > stored.fetchedAt)
      ? { state: stored, slot: undefined, body: stored.body }
      : previous && priorOf(previous);
    const { slot, record: shared } = this.settle(key, await this.fetch(key), prior);
    this.keep(key, slot);
    if (shared !== undefined) await store.write(key, shared, storeKeepMs(shared, this.options.now()));
    return slot;
  }

  /** A fresh record of the store becomes this cache's entry. */
  private adopt(key: string, record: RobotsRecord): Slot {
    this.sharedHits++;
    const { body, ...state } = record;
    const slot = record.status === 'ok' ? this.okSlot(state, body!) : slotOf(state, undefined);
    this.keep(key, slot);
    return slot;
  }

  private async fetch(key: string): Promise<FetchOutcome> {
    const { userAgentHeader, fetch, maxBodyOctets, timeoutMs } = this.options;
    const outcome = await fetchRobots(key, { userAgentHeader, fetch, maxOctets: maxBodyOctets, timeoutMs });
    this.fetches++;
    return outcome;
  }

  /** The slot a fetch outcome makes, given the previous one (the policy's state, freshness-policy.ts); and the
   * record to share, unless it would be a stale copy whose octets this cache no longer has (its parsed copy
   * keeps serving here). */
  private settle(key: string, outcome: FetchOutcome, prior: Prior | undefined): { slot: Slot; record: RobotsRecord | undefined } {
    const state: EntryState = nextState(key, outcome, prior?.state, this.options.now(), this.options);
    const fresh = (slot: Slot, body: Uint8Array | undefined) => ({
      slot,
      record: slot.entry.status === 'ok' && body === undefined ? undefined : { ...slot.entry.state(slot.failures), body },
    });
    if (!state.stale) return state.status === 'ok' ? fresh(this.okSlot(state, outcome.body!), outcome.body) : fresh(slotOf(state, undefined), undefined);
    // The copy and its automaton carry over, unless the copy left the cache meanwhile.
    // (A prior from the store has the octets, one from this cache its slot.)
    const slot = prior!.slot;
    const matcher = slot === undefined || slot.evicted ? undefined : slot.matcher;
    if (matcher === undefined) return fresh(this.okSlot(state, prior!.body ?? unpackBody(slot!.entry.packed!)), prior!.body);
    slot!.matcher = undefined;
    return fresh(slotOf(state, slot!.entry.packed, matcher, slot!.entry.handOver(), slot!.answers), prior!.body);
  }

  /** An ok entry's slot: its file parsed, compiled, and kept deflated. */
  private okSlot(state: EntryState, body: Uint8Array): Slot {
    const parseOptions = this.options.parseOptions;
    return slotOf(state, packBody(body, parseOptions), this.compile(body, parseOptions));
  }

  /** The crawler's matcher of a robots.txt (no RobotsTxt kept: the cache keeps the matcher, and the octets deflated). */
  private compile(body: Uint8Array, options: ParseOptions): Matcher {
    return compileOctets(body, options, this.options.agent, { maxDfaBytes: this.options.maxDfaBytes });
  }

  /** Holds the slot (releasing the one it replaces), then evicts the least recently used past the bounds. */
  private keep(key: string, slot: Slot): void {
    // A file parsed for entry.robots is kept with the entry, and weighed (until the slot leaves: releaseSlot).
    slot.entry.keepParsed(() => this.reweigh(key, slot));
    this.slots.set(key, slot);
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(RobotsCache, 'name', { value: 'RobotsCache' });

// RobotsCache's policy (RFC 9309 2.3.1, 2.4), as values: the state an origin's
// fetch outcome makes given its previous one (how long it is fresh, the
// back-off of an unreachable file, the earlier good copy kept while it is
// unreachable, the give-up after 30 days), and how long a store keeps a record.
// No cache state here: the cache builds its entries from these states.
// (http-cache-semantics: loaded by the first RobotsCache, crawler-modules.ts.)
import { crawlerModules } from './crawler-modules.js';
import type { ResolvedCacheOptions } from './cache-options.js';
import { DAY } from './cache-options.js';
import type { FetchOutcome } from './fetch-robots.js';
import type { RobotsRecord } from './robots-store.js';

/** RFC 9309 2.3.1.4: unreachable this long with no copy, the file is taken as unavailable. */
export const UNREACHABLE_GIVE_UP_MS = 30 * DAY;

/** A record without its body: what the policy reads of the previous outcome. */
export type EntryState = Omit<RobotsRecord, 'body'>;

type PolicyOptions = Pick<ResolvedCacheOptions, 'ttlMs' | 'minTtlMs' | 'retryMs' | 'maxRetryMs' | 'userAgentHeader'>;

/**
 * The state a fetch of `key` makes at `now`, given the previous one. An
 * unreachable fetch after an ok one keeps the ok copy (`stale`: its fields but
 * those of the fetch); the cache then carries the copy's file and matcher over.
 */
export function nextState(key: string, outcome: FetchOutcome, previous: EntryState | undefined, now: number, options: PolicyOptions): EntryState {
  const base = {
    robotsUrl: key,
    httpStatus: outcome.httpStatus,
    reason: outcome.reason,
    fetchedAt: now,
    finalUrl: outcome.finalUrl,
    redirects: outcome.redirects,
    reachedLimit: outcome.reachedLimit,
  };
  if (outcome.status === 'ok') {
    return { ...base, status: 'ok', expiresAt: now + freshness(key, outcome, options), stale: false, unreachableSince: undefined, failures: 0 };
  }
  if (outcome.status === 'unavailable') {
    return { ...base, status: 'unavailable', expiresAt: now + options.ttlMs, stale: false, unreachableSince: undefined, failures: 0 };
  }
  const failures = (previous?.failures ?? 0) + 1;
  const since = previous?.unreachableSince ?? now;
  // Back-off, or longer when the server asked so with Retry-After (but not past ttlMs).
  const backoff = Math.min(options.retryMs * 2 ** Math.min(failures - 1, 40), options.maxRetryMs);
  const expiresAt = now + Math.max(backoff, Math.min(outcome.retryAfterMs ?? 0, options.ttlMs));
  if (previous?.status === 'ok') {
    // RFC 9309 2.3.1.4: keep using the cached copy while the file is unreachable.
    return {
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
  }
  const givenUp = now - since >= UNREACHABLE_GIVE_UP_MS;
  return {
    ...base,
    status: givenUp ? 'unavailable' : 'unreachable',
    reason: givenUp ? `unreachable since ${new Date(since).toISOString()} (over 30 days, so taken as unavailable): ${outcome.reason}` : outcome.reason,
    expiresAt,
    stale: false,
    unreachableSince: since,
    failures,
  };
}

/** How long a store keeps a record written at `now`: while the policy may use it, fresh until
 * expiresAt, then as the copy (or the back-off state) of the next failed refreshes. */
export function storeKeepMs(record: RobotsRecord, now: number): number {
  const keepUntil = record.expiresAt + (record.status === 'unavailable' && record.unreachableSince === undefined ? 0 : UNREACHABLE_GIVE_UP_MS);
  return Math.max(1, keepUntil - now);
}

/** How long a fetched robots.txt is kept: Cache-Control/Expires when sent (RFC 9111), else ttlMs; within [minTtlMs, ttlMs]. */
function freshness(key: string, outcome: FetchOutcome, options: PolicyOptions): number {
  const headers = outcome.headers;
  if (headers === undefined || (!headers.has('cache-control') && !headers.has('expires'))) return options.ttlMs;
  const policy = new (crawlerModules().CachePolicy)(
    { url: new URL(key).pathname, method: 'GET', headers: { 'user-agent': options.userAgentHeader } },
    { status: outcome.httpStatus!, headers: Object.fromEntries(headers) },
    // The crawler's own cache, not a proxy: max-age, not s-maxage; `private` is fine.
    { shared: false },
  );
  return Math.min(options.ttlMs, Math.max(options.minTtlMs, policy.timeToLive()));
}

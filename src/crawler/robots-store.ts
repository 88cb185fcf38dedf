// Where RobotsCache keeps fetch outcomes so that several caches (processes,
// machines) share them: one robots.txt fetch per origin for a whole fleet.
// A store holds records and short leases; it never parses or decides. The
// cache owns the policy (RFC 9309 2.3-2.4): what a record says, how long it is
// kept, when to fetch again. Each process still compiles its own matchers.
import type { RobotsStatus } from './fetch-robots.js';

/**
 * One origin's fetch outcome as the cache shares it: what RobotsEntry says,
 * with the body instead of the parsed file, and the back-off state. Treat it
 * as immutable.
 */
export interface RobotsRecord extends FetchState {
  /** Consecutive unreachable fetches (the back-off doubles with each). */
  readonly failures: number;
  /** The robots.txt octets when status is 'ok' (on a stale record, the copy's). */
  readonly body: Uint8Array | undefined;
}

/** What an origin's last fetch said, in a record (RobotsRecord) and a cache entry (RobotsEntry) alike. */
export interface FetchState {
  /** The origin's robots.txt URL: the key. */
  readonly robotsUrl: string;
  /** ok: the rules decide. unavailable: every URL allowed. unreachable: every URL disallowed. */
  readonly status: RobotsStatus;
  /** HTTP status of the last response of the fetch; undefined when none came. */
  readonly httpStatus: number | undefined;
  /** Why this status, in words ('http 404', 'timeout after 10000 ms', ...). */
  readonly reason: string;
  /** When the fetch ended. */
  readonly fetchedAt: number;
  /** Until then it is fresh: the next lookup after it fetches again. */
  readonly expiresAt: number;
  /** The refresh failed (unreachable) and the rules are the copy from an earlier success. */
  readonly stale: boolean;
  /** The URL the body came from, after redirects. */
  readonly finalUrl: string;
  readonly redirects: number;
  /** Reading stopped at maxBodyOctets. */
  readonly reachedLimit: boolean;
  /** Start of the current run of unreachable fetches, if in one. */
  readonly unreachableSince: number | undefined;
}

/**
 * A shared store of records, by robots.txt URL. Every method may reject (the
 * store is down): the cache then fetches on its own and keeps the outcome in
 * memory, and tries the store again a little later. A method that does not
 * settle within the cache's `storeTimeoutMs` counts as failed.
 */
export interface RobotsStore {
  /** The record kept for the key; undefined when there is none, or it cannot be read (another format, damaged). */
  get(key: string): Promise<RobotsRecord | undefined>;
  /** Keeps the record for `keepMs` (it may drop it earlier, e.g. under memory pressure). */
  set(key: string, record: RobotsRecord, keepMs: number): Promise<void>;
  /**
   * Takes the key's fetch lease for `leaseMs` if nobody holds it: the taker
   * fetches, the others wait for its record. Resolves to a token that releases
   * it, or undefined when another holds it. A lease must end by itself after
   * `leaseMs` (its holder may die).
   */
  acquireLease(key: string, leaseMs: number): Promise<string | undefined>;
  /** Ends the lease if `token` still holds it. */
  releaseLease(key: string, token: string): Promise<void>;
}

/** What the cache says of its store: `store-down`/`store-up` once per change
 * (never per URL): a failed call (read or write) puts it down, the next call
 * that works up. `record-clamped`/`record-rejected`: a record read for `key`
 * held a field this cache's policy or clock could not have written (problems
 * says which, in words); clamped, it is used within the bounds; rejected, the
 * cache fetches and writes its own. `lease-overrun`: another cache's fetch lease
 * on `key` outlasted this cache's lease period (`waitedMs`), so this cache
 * fetched and wrote the record itself. */
export type StoreEvent =
  | { type: 'store-down'; error: unknown }
  | { type: 'store-up' }
  | { type: 'record-clamped' | 'record-rejected'; key: string; problems: string[] }
  | { type: 'lease-overrun'; key: string; waitedMs: number };

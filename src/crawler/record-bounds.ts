// A store's record as RobotsCache may use it. The store is shared by a fleet:
// another process's clock, bug or version (or whoever else writes there) must
// not poison this cache. So every field of a record is held to what this
// cache's own policy and clock could have written, as if the store were
// hostile: a field whose type is wrong, or that no honest writer could give,
// rejects the record (the cache fetches and writes its own); a field that is
// only too large for this cache's policy is clamped to it, and the record used.
import { MAX_REDIRECTS } from './fetch-robots.js';
import type { RobotsRecord } from './robots-store.js';

/** What the bounds come from: the reading cache's policy and clock. */
export interface RecordLimits {
  /** The cache's clock, now. */
  now: number;
  /** Longest a fetched (or unavailable) file is fresh: ttlMs. */
  ttlMs: number;
  /** Longest wait after an unreachable fetch: max(maxRetryMs, ttlMs) (Retry-After is held to ttlMs). */
  maxRetryMs: number;
  maxBodyBytes: number;
  /** How long after its expiry a writer keeps a record that later refreshes may use (UNREACHABLE_GIVE_UP_MS). */
  keptAfterExpiryMs: number;
}

/** A record's reason is cut here (it is words; the policy does not read it). */
export const MAX_REASON_CHARS = 4096;
/** A longer finalUrl rejects the record (Node's fetch takes headers of 16 KiB). */
export const MAX_URL_CHARS = 65_536;

export type Bounded =
  | { record: RobotsRecord; clamped: string[] }
  | { record: undefined; rejected: string };

const STATUSES = new Set(['ok', 'unavailable', 'unreachable']);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const reject = (why: string): Bounded => ({ record: undefined, rejected: why });

/** The record bounded for this cache; `clamped` says what was changed, `rejected` why it cannot be used. */
export function boundRecord(value: unknown, key: string, limits: RecordLimits): Bounded {
  if (value === null || typeof value !== 'object') return reject(`not a record (${value === null ? 'null' : typeof value})`);
  const r = value as Record<string, unknown>;
  if (r.robotsUrl !== key) return reject(`robotsUrl is not the key: ${shown(r.robotsUrl)}`);
  if (typeof r.status !== 'string' || !STATUSES.has(r.status)) return reject(`status ${shown(r.status)} is none of ok, unavailable, unreachable`);
  const status = r.status as RobotsRecord['status'];
  if (!isTime(r.fetchedAt)) return reject(`fetchedAt ${shown(r.fetchedAt)} is not a time`);
  if (typeof r.expiresAt !== 'number' || Number.isNaN(r.expiresAt)) return reject(`expiresAt ${shown(r.expiresAt)} is not a time`);
  if (typeof r.reason !== 'string') return reject(`reason ${shown(r.reason)} is not a string`);
  if (typeof r.finalUrl !== 'string' || r.finalUrl.length > MAX_URL_CHARS) return reject(`finalUrl is not a URL string of at most ${MAX_URL_CHARS} characters`);
  if (typeof r.stale !== 'boolean') return reject(`stale ${shown(r.stale)} is not a boolean`);
  if (typeof r.reachedLimit !== 'boolean') return reject(`reachedLimit ${shown(r.reachedLimit)} is not a boolean`);
  if (!Number.isSafeInteger(r.redirects) || (r.redirects as number) < 0) return reject(`redirects ${shown(r.redirects)} is not a count`);
  if (!Number.isSafeInteger(r.failures) || (r.failures as number) < 0) return reject(`failures ${shown(r.failures)} is not a count`);
  if (r.httpStatus !== undefined && typeof r.httpStatus !== 'number') return reject(`httpStatus ${shown(r.httpStatus)} is not a number`);
  if (r.unreachableSince !== undefined && !isTime(r.unreachableSince)) return reject(`unreachableSince ${shown(r.unreachableSince)} is not a time`);
  if (status === 'ok' && !(r.body instanceof Uint8Array)) return reject('an ok record without its body');

  const clamped: string[] = [];
  const { now } = limits;
  const inRun = r.unreachableSince !== undefined;
  // The longest this cache keeps an outcome fresh: a fetched (or missing) file ttlMs, an outage's back-off maxRetryMs.
  const life = inRun || status === 'unreachable' || r.stale === true ? Math.max(limits.ttlMs, limits.maxRetryMs) : limits.ttlMs;
  // Written by a writer that keeps records this long at most (their life, then the copy and back-off for later refreshes).
  const oldest = now - (life + limits.keptAfterExpiryMs);
  if (r.fetchedAt < oldest) {
    return reject(`fetchedAt ${iso(r.fetchedAt)} is older than any record is kept (${iso(oldest)}): a clock behind, or a store that ignores keepMs`);
  }
  let fetchedAt = r.fetchedAt;
  if (fetchedAt > now) {
    clamped.push(`fetchedAt ${iso(fetchedAt)} is ahead of this cache's clock: taken as now`);
    fetchedAt = now;
  }
  let expiresAt = r.expiresAt;
  if (expiresAt > fetchedAt + life) {
    clamped.push(`expiresAt ${iso(expiresAt)} is past the fetch plus ${life} ms (this cache's policy): expires at ${iso(fetchedAt + life)}`);
    expiresAt = fetchedAt + life;
  }
  let unreachableSince = r.unreachableSince as number | undefined;
  if (unreachableSince !== undefined) {
    // A run of failures starts at its first fetch (failures 1: then), and each
    // later failure came within a record's keeping of the one before.
    const earliest = fetchedAt - Math.max(0, (r.failures as number) - 1) * (life + limits.keptAfterExpiryMs);
    if (unreachableSince > fetchedAt) {
      clamped.push(`unreachableSince ${iso(unreachableSince)} is after the fetch: taken as the fetch's time`);
      unreachableSince = fetchedAt;
    } else if (unreachableSince < earliest) {
      clamped.push(`unreachableSince ${iso(unreachableSince)} is earlier than ${r.failures} failure(s) can go back: ${iso(earliest)}`);
      unreachableSince = earliest;
    }
  }
  let httpStatus = r.httpStatus as number | undefined;
  if (httpStatus !== undefined && !(Number.isInteger(httpStatus) && httpStatus >= 100 && httpStatus <= 999)) {
    clamped.push(`httpStatus ${shown(httpStatus)} is not an HTTP status: dropped`);
    httpStatus = undefined;
  }
  let redirects = r.redirects as number;
  if (redirects > MAX_REDIRECTS) {
    clamped.push(`redirects ${redirects} is more than ${MAX_REDIRECTS}: ${MAX_REDIRECTS}`);
    redirects = MAX_REDIRECTS;
  }
  let reason = r.reason;
  if (reason.length > MAX_REASON_CHARS) {
    clamped.push(`reason of ${reason.length} characters: cut to ${MAX_REASON_CHARS}`);
    reason = reason.slice(0, MAX_REASON_CHARS - 1) + '…';
  }
  let stale = r.stale;
  if (stale && status !== 'ok') {
    clamped.push(`stale on a ${status} record: not stale`);
    stale = false;
  }
  let body = r.body as Uint8Array | undefined;
  let reachedLimit = r.reachedLimit;
  if (status !== 'ok' && body !== undefined) {
    clamped.push(`a body on a ${status} record: dropped`);
    body = undefined;
  } else if (body !== undefined && body.length > limits.maxBodyBytes) {
    // As this cache's own fetch would have read it: the first maxBodyBytes octets.
    clamped.push(`a body of ${body.length} octets: cut to maxBodyBytes (${limits.maxBodyBytes})`);
    body = body.slice(0, limits.maxBodyBytes); // (a copy: the store's octets can go)
    reachedLimit = true;
  }
  const record: RobotsRecord = {
    robotsUrl: key,
    status,
    httpStatus,
    reason,
    fetchedAt,
    expiresAt,
    stale,
    finalUrl: r.finalUrl,
    redirects,
    reachedLimit,
    unreachableSince,
    failures: r.failures as number,
    body,
  };
  return { record, clamped };
}

function iso(t: number): string {
  return t >= -8.64e15 && t <= 8.64e15 ? new Date(t).toISOString() : String(t);
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) return String(value);
  return typeof value;
}

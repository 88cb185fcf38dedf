// Which of a URL's robots.txt captures speaks for it: the state RobotsCache's
// policy (freshness-policy.ts nextState) reaches over them, each capture taken
// as a fetch made at its WARC-Date. So a 5xx or 429 capture (or one cut short)
// after a good one keeps the good one, as the cache keeps its copy while the
// file is unreachable (RFC 9309 2.3.1.4, Google's reading), and a time series
// over crawls (--as-of) records no opt-out the site never made; unreachable for
// 30 days with no copy, the file is unavailable; a 4xx is no copy. A redirect
// counts as a copy: it is followed when the host is resolved (warc-robots.ts).
// The captures come in any order (WARCs and indexes as given): per URL, only
// those that can still change the state are kept.
import { responseStep, type FetchOutcome } from '../../../crawler/fetch-robots.js';
import { nextState, type EntryState } from '../../../crawler/freshness-policy.js';
import { DAY, HOUR } from '../../../crawler/cache-options.js';

/** What the policy reads of a capture. */
export interface PolicyCapture {
  /** WARC-Date, ms (NaN when it does not read). */
  date: number;
  status: number;
  location: string | null;
  /** Cut short (or near damage): unreachable. */
  damaged?: string;
  /** Set by the choice: unreachable for 30 days with no copy, so unavailable (the reason). */
  unavailable?: string;
}

/** The cache's defaults; the states read here (status, copy, unreachable since) do not depend on them. */
const POLICY = { ttlMs: DAY, minTtlMs: 60_000, retryMs: 60_000, maxRetryMs: HOUR, userAgentHeader: 'robots-wasm' };
const NO_VISITS: ReadonlySet<string> = new Set();
/** An undated capture's time: before every dated one (the earliest a Date holds, so the policy's reasons still write it). */
const UNDATED = -8.64e15;

/** A capture's time for the policy. */
function timeOf(c: PolicyCapture): number {
  return Number.isNaN(c.date) ? UNDATED : c.date;
}

export class CaptureChoice<T extends PolicyCapture> {
  /** Per URL, its latest capture that is not unreachable: whatever came before it no longer counts. */
  private readonly bases = new Map<string, T>();
  /** Per URL, its unreachable captures not older than its base (all of them without one), in the order read. */
  private readonly failures = new Map<string, T[]>();

  /** Can a capture of the URL dated `date` still count? (Else it need not be read.) */
  wants(key: string, date: number): boolean {
    const base = this.bases.get(key);
    return base === undefined || (Number.isNaN(date) ? UNDATED : date) >= timeOf(base);
  }

  /** A capture read (of equal dates, the one read later is the later fetch). */
  offer(key: string, capture: T): void {
    if (!this.wants(key, capture.date)) return;
    if (outcomeOf(key, capture).status === 'unreachable') {
      const failed = this.failures.get(key);
      if (failed === undefined) this.failures.set(key, [capture]);
      else failed.push(capture);
      return;
    }
    this.bases.set(key, capture);
    const failed = this.failures.get(key);
    if (failed === undefined) return;
    // (Those of its date were read before it: older.)
    const later = failed.filter((f) => timeOf(f) > timeOf(capture));
    if (later.length === 0) this.failures.delete(key);
    else this.failures.set(key, later);
  }

  /** Is the capture one that may still speak for its URL? */
  holds(key: string, capture: T): boolean {
    return this.bases.get(key) === capture || (this.failures.get(key)?.includes(capture) ?? false);
  }

  has(key: string): boolean {
    return this.bases.has(key) || this.failures.has(key);
  }

  /** The URLs with a capture. */
  *keys(): IterableIterator<string> {
    yield* this.bases.keys();
    for (const key of this.failures.keys()) if (!this.bases.has(key)) yield key;
  }

  /** The capture that speaks for the URL: the policy's state after its captures in date order (a copy of the
   * last one, with `unavailable` set, when the policy gave up on it). */
  chosen(key: string): T | undefined {
    const base = this.bases.get(key);
    const failed = this.failures.get(key);
    if (failed === undefined) return base;
    // (Stable: of equal dates, the order read.)
    const order = failed.length === 1 ? failed : [...failed].sort((a, b) => timeOf(a) - timeOf(b));
    let state: EntryState | undefined = base === undefined ? undefined : nextState(key, outcomeOf(key, base), undefined, timeOf(base), POLICY);
    for (const f of order) state = nextState(key, outcomeOf(key, f), state, timeOf(f), POLICY);
    const last = order[order.length - 1];
    if (state!.stale) return base!;
    return state!.status === 'unavailable' ? { ...last, unavailable: state!.reason } : last;
  }

  /** Every URL's chosen capture, in a map made of this choice's own (which is then spent). */
  settle(): Map<string, T> {
    for (const key of this.failures.keys()) this.bases.set(key, this.chosen(key)!);
    this.failures.clear();
    return this.bases;
  }
}

/** A capture as the fetch outcome the policy reads: ok (2xx, or a redirect, followed later), unavailable, unreachable. */
function outcomeOf(key: string, c: PolicyCapture): FetchOutcome {
  const step = c.damaged !== undefined ? { status: 'unreachable' as const, reason: c.damaged } : responseStep(c.status, c.location, key, NO_VISITS, 0);
  return {
    status: step.status === 'redirect' ? 'ok' : step.status,
    reason: step.reason,
    httpStatus: c.status === 0 ? undefined : c.status,
    finalUrl: key,
    redirects: 0,
    body: undefined,
    reachedLimit: false,
    headers: undefined,
    retryAfterMs: undefined,
  };
}

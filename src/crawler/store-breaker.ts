// RobotsCache's calls to its store, behind a circuit breaker: each call must
// settle within storeTimeoutMs; a failure puts the store down (told once, not
// per URL) and the cache leaves it alone for storeRetryMs, fetching on its own;
// the next call that works puts it up again. Records read are held to this
// cache's bounds (record-bounds.ts: the store is shared, and may be hostile).
import type { ResolvedCacheOptions } from './cache-options.js';
import { UNREACHABLE_GIVE_UP_MS } from './freshness-policy.js';
import { boundRecord } from './record-bounds.js';
import type { RobotsRecord, RobotsStore, StoreEvent } from './robots-store.js';

/** A store call failed (rejected, or did not settle in time): the cache fetches on its own. */
export class StoreFailure extends Error {}

export class StoreBreaker {
  /** The store failed and is being left alone for now. */
  private isDown = false;
  /** While the store is down, Date.now() before which it is left alone. */
  private retryAt = 0;

  constructor(
    private readonly store: RobotsStore,
    private readonly options: ResolvedCacheOptions,
  ) {}

  get down(): boolean {
    return this.isDown;
  }

  /** Not down, or down long enough to be tried again. */
  get available(): boolean {
    return !(this.isDown && Date.now() < this.retryAt);
  }

  /** The key's record, bounded, or undefined. `told`: what this refresh has said of the key's records already (its polls read the same one again). */
  async read(key: string, told: Set<string>): Promise<RobotsRecord | undefined> {
    const value: unknown = await this.call(() => this.store.get(key));
    if (value === undefined) return undefined;
    const { ttlMs, maxRetryMs, maxBodyOctets } = this.options;
    const bounded = boundRecord(value, key, { now: this.options.now(), ttlMs, maxRetryMs, maxBodyBytes: maxBodyOctets, keptAfterExpiryMs: UNREACHABLE_GIVE_UP_MS });
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

  /** The key's fetch lease for the cache's leaseMs: a token, or undefined when another cache holds it. */
  acquireLease(key: string): Promise<string | undefined> {
    return this.call(() => this.store.acquireLease(key, this.options.leaseMs));
  }

  /** Gives the lease back, in the background: not a sign of the store's health either way (it follows a write that may have failed). */
  releaseLease(key: string, token: string): void {
    Promise.resolve().then(() => this.store.releaseLease(key, token)).catch(() => {});
  }

  /** Shares a record for keepMs; a failure only puts the store down (the cache has its entry). */
  async write(key: string, record: RobotsRecord, keepMs: number): Promise<void> {
    await this.call(() => this.store.set(key, record, keepMs)).catch(() => {});
  }

  /** Runs a store call within storeTimeoutMs; a failure puts the store down (told once) and throws StoreFailure. */
  private async call<T>(call: () => Promise<T>): Promise<T> {
    const timeoutMs = this.options.storeTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const result = await Promise.race([
        Promise.resolve().then(call),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`the store did not answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      if (this.isDown) {
        this.isDown = false;
        this.tell({ type: 'store-up' });
      }
      return result;
    } catch (error) {
      this.retryAt = Date.now() + this.options.storeRetryMs;
      if (!this.isDown) {
        this.isDown = true;
        this.tell({ type: 'store-down', error });
      }
      throw new StoreFailure(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Tells the caller's onStoreEvent hook. */
  tell(event: StoreEvent): void {
    try {
      this.options.onStoreEvent?.(event);
    } catch {
      // A hook that throws must not stop the crawl.
    }
  }
}

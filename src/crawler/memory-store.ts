// A RobotsStore in this process's memory: RobotsCaches of one process (e.g.
// one per agent) share their fetches through it. It is also the
// reference for the store contract that the tests hold every store to.
import type { RobotsRecord, RobotsStore } from './robots-store.js';

export interface MemoryStoreOptions {
  /** Records kept (default 100,000); the oldest written go first. */
  maxRecords?: number;
  /** The clock for keepMs and leases, in ms (default Date.now). */
  now?: () => number;
}

export class MemoryStore implements RobotsStore {
  private readonly records = new Map<string, { record: RobotsRecord; until: number }>();
  private readonly leases = new Map<string, { token: string; until: number }>();
  private readonly maxRecords: number;
  private readonly now: () => number;
  private tokens = 0;

  constructor(options: MemoryStoreOptions = {}) {
    const max = options.maxRecords ?? 100_000;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxRecords must be a positive integer, got ${String(max)}`);
    this.maxRecords = max;
    this.now = options.now ?? Date.now;
  }

  async get(key: string): Promise<RobotsRecord | undefined> {
    const kept = this.records.get(key);
    if (kept === undefined) return undefined;
    if (this.now() >= kept.until) {
      this.records.delete(key);
      return undefined;
    }
    return kept.record;
  }

  async set(key: string, record: RobotsRecord, keepMs: number): Promise<void> {
    this.records.delete(key);
    this.records.set(key, { record, until: this.now() + keepMs });
    while (this.records.size > this.maxRecords) this.records.delete(this.records.keys().next().value!);
  }

  async acquireLease(key: string, leaseMs: number): Promise<string | undefined> {
    const now = this.now();
    const held = this.leases.get(key);
    if (held !== undefined && now < held.until) return undefined;
    // Leases of holders that never released them end here.
    if (this.leases.size >= 10_000) for (const [k, l] of this.leases) if (now >= l.until) this.leases.delete(k);
    const token = String(++this.tokens);
    this.leases.set(key, { token, until: now + leaseMs });
    return token;
  }

  async releaseLease(key: string, token: string): Promise<void> {
    if (this.leases.get(key)?.token === token) this.leases.delete(key);
  }

  get size(): number {
    return this.records.size;
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(MemoryStore, 'name', { value: 'MemoryStore' });

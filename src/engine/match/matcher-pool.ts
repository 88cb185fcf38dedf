// The matchers that RobotsTxt compiles for its own isAllowed/explain, held
// process-wide under one bound. No caller ever holds them, so none is left for
// the garbage collector: its FinalizationRegistry callbacks run only when the
// event loop turns, and WASM memory never shrinks, so a synchronous loop of
// `parse(body).isAllowed(url, agent)` grew until the process died when each
// RobotsTxt kept its matchers until it was collected. Here the least recently
// used are disposed at once when the bound is passed; a RobotsTxt whose matcher
// went compiles it again when asked.
import type { Matcher } from './matcher.js';

export class MatcherPool {
  /** Each matcher's weight when last measured; least recently used first. */
  private readonly weights = new Map<Matcher, number>();
  private total = 0;
  /** The most recently used, whose weight may have grown since it was measured. */
  private newest: Matcher | null = null;

  constructor(readonly maxBytes: number) {}

  /** Takes m in (it is then the pool's to dispose), disposing the least recently used past the bound. */
  add(m: Matcher): void {
    this.weighNewest();
    const w = m.heldBytes;
    this.weights.set(m, w);
    this.total += w;
    this.newest = m;
    for (const [old, weight] of this.weights) {
      if (this.total <= this.maxBytes || old === m) break;
      this.weights.delete(old);
      this.total -= weight;
      old.dispose();
    }
  }

  /** m (in the pool) was just used: it goes last. */
  use(m: Matcher): void {
    if (m === this.newest) return;
    this.weighNewest();
    const w = this.weights.get(m)!;
    this.weights.delete(m);
    this.weights.set(m, w);
    this.newest = m;
  }

  /** Gives m back to its owner (who disposes it). */
  remove(m: Matcher): void {
    const w = this.weights.get(m);
    if (w === undefined) return;
    this.weights.delete(m);
    this.total -= w;
    if (m === this.newest) this.newest = null;
  }

  /** Matchers held and their weight in bytes (for tests and stats). */
  get stats(): { matchers: number; bytes: number } {
    this.weighNewest();
    return { matchers: this.weights.size, bytes: this.total };
  }

  /** The newest matcher's automaton grows as it walks URLs: measure it again. */
  private weighNewest(): void {
    const n = this.newest;
    if (n === null) return;
    const w = n.heldBytes;
    this.total += w - this.weights.get(n)!;
    this.weights.set(n, w); // (an existing key keeps its place)
  }
}

// robots index's captures between the reader and the shards (warc-index.ts's `each`).
import { SUSPECT_OCTETS } from './warcio-captures.js';

/**
 * robots index's captures on their way to `each`, held while a damage could still mark them: the
 * reader (warcio-captures.ts) trusts all but the last SUSPECT_OCTETS of uncompressed WARC before the
 * damage, which lies past every capture read, so a capture SUSPECT_OCTETS before the latest one read
 * can no longer be marked and is handed on. Memory: the bodies of the records in those 64 KiB.
 * A capture is any object whose `damaged` a damage sets.
 */
export class HeldCaptures {
  private held: { offset: number; capture: { damaged?: string }; handOn: () => void }[] = [];
  private head = 0;

  add(offset: number, capture: { damaged?: string }, handOn: () => void): void {
    this.held.push({ offset, capture, handOn });
    this.release(offset - SUSPECT_OCTETS);
  }

  /** Marks the held captures read at or after `trustedBefore`; how many were not marked already. */
  markFrom(trustedBefore: number, why: string): number {
    let marked = 0;
    for (let k = this.head; k < this.held.length; k++) {
      const { offset, capture } = this.held[k];
      if (offset >= trustedBefore && capture.damaged === undefined) {
        capture.damaged = why; // (its body kept: a capture damaged when read has none)
        marked++;
      }
    }
    return marked;
  }

  /** Hands on the captures read before `offset`, in the order read. */
  release(offset: number): void {
    const held = this.held;
    while (this.head < held.length && held[this.head].offset < offset) {
      held[this.head++].handOn();
    }
    if (this.head === held.length) {
      this.held = [];
      this.head = 0;
    } else if (this.head > 1024) {
      this.held = held.slice(this.head);
      this.head = 0;
    }
  }
}

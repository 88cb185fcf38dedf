// Worker threads for a robots.txt per host (--robots-dir, --robots-warc): the
// main thread reads the input, routes each block's lines to the threads by
// host (host-router.ts: each host is loaded by one thread, and a thread's cache
// holds its share of the hosts), and puts their output lines back in input
// order as they come back. Blocks stay in flight meanwhile, so a thread never
// waits for another's turn to write.
import type { ClassifiedBlock, ClassifyConfig } from '../classify-config.js';
import { BufferPool } from './buffer-pool.js';
import { readLinesOfRange, type FileRange } from '../sources/file-ranges.js';
import { HostRouter, type RoutedBlock } from '../classify/host-router.js';
import { MAX_LINE_OCTETS } from '../sources/line-blocks.js';
import { PoolWorker, type BlockReply } from './worker-pool.js';

/** Smallest shared block buffer made, so that it fits most later blocks (they are about BLOCK_OCTETS). */
const MIN_SHARED = 2 << 20;

export class RoutedPool {
  private readonly workers: PoolWorker[];
  private readonly router: HostRouter;
  /** Shared buffers for the blocks in flight (free again once every thread has answered). */
  private readonly shared: SharedArrayBuffer[] = [];
  /** Buffers of the merged output (back from the caller once written: recycle). */
  private readonly outputs = new BufferPool();
  /** Each thread's output buffers that came back, to go with its next request. */
  private readonly spares: ArrayBuffer[][];
  private seq = 0;

  /** Threads that classify the lines routed to them, with `config` (its shard is the router's to apply). */
  constructor(threads: number, config: ClassifyConfig) {
    this.router = new HostRouter(threads, config.shard);
    const data = { config: { ...config, shard: undefined }, turns: new SharedArrayBuffer(8), fd: -1, outName: '' };
    this.workers = Array.from({ length: threads }, () => new PoolWorker(data, new BufferPool(0)));
    this.spares = this.workers.map(() => []);
  }

  /** Settles when every thread has built its classifier (or stopped). */
  ready(): Promise<void> {
    return Promise.all(this.workers.map((w) => w.ready)).then(() => {});
  }

  /** Classifies a block of whole lines, given in parts as read. */
  classify(parts: readonly Uint8Array[]): Promise<ClassifiedBlock> {
    return this.dispatch(this.router.route(parts));
  }

  /** Classifies the lines that start in a range of the input file (read here, into the router's core). */
  async classifyRange(range: FileRange): Promise<ClassifiedBlock> {
    let first = true;
    const block = readLinesOfRange(range, MAX_LINE_OCTETS, (n) => {
      if (!first) return new Uint8Array(n); // (a range whose last line runs long: copied into the core by route())
      first = false;
      return this.router.inputArea(n);
    });
    return this.dispatch(this.router.route(block));
  }

  private async dispatch(routed: RoutedBlock): Promise<ClassifiedBlock> {
    const seq = this.seq++;
    const block = routed.block;
    let buffer = this.shared.pop();
    if (buffer === undefined || buffer.byteLength < block.length) buffer = new SharedArrayBuffer(Math.max(block.length, MIN_SHARED));
    const shared = new Uint8Array(buffer, 0, block.length);
    shared.set(block);
    const replies = await Promise.all(this.workers.map((w, t) => {
      const spans = routed.spans[t];
      if (spans.length === 0) return null;
      const spare = this.spares[t].pop();
      return w.request({ seq, shared, spans, counts: routed.counts[t], spare }, spare === undefined ? [] : [spare]);
    }));
    this.shared.push(buffer);
    const output = this.merge(routed, replies);
    replies.forEach((r, t) => {
      if (r?.output !== undefined && r.output.buffer.byteLength > 0) this.spares[t].push(r.output.buffer as ArrayBuffer);
    });
    return total(output, replies);
  }

  /** The threads' output lines in input order: each segment's from its thread, in turn. */
  private merge(routed: RoutedBlock, replies: (BlockReply | null)[]): Uint8Array {
    const size = replies.reduce((n, r) => n + (r?.output?.length ?? 0), 0);
    const merged = this.outputs.take(size);
    const segment = replies.map(() => 0);
    const at = replies.map(() => 0);
    let to = 0;
    for (const t of routed.order) {
      const r = replies[t]!;
      const n = r.segments![segment[t]++];
      merged.set(r.output!.subarray(at[t], at[t] + n), to);
      at[t] += n;
      to += n;
    }
    return merged;
  }

  /** The merged output is written: its buffer is free again. */
  recycle(output: Uint8Array): void {
    this.outputs.give(output.buffer);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
  }
}

/** The block's result: its output, and the threads' counts added up. */
function total(output: Uint8Array, replies: (BlockReply | null)[]): ClassifiedBlock {
  const sum: ClassifiedBlock = { output, urls: 0, allowed: 0, newHosts: [], loads: 0, evictions: 0, unreadable: [] };
  for (const reply of replies) {
    const r = reply?.result;
    if (r === undefined) continue;
    sum.urls += r.urls;
    sum.allowed += r.allowed;
    if (r.allowedBy !== undefined) {
      sum.allowedBy ??= r.allowedBy.map(() => 0);
      r.allowedBy.forEach((n, j) => (sum.allowedBy![j] += n));
    }
    if (r.usageBy !== undefined) {
      sum.usageBy ??= r.usageBy.map(() => 0);
      r.usageBy.forEach((n, j) => (sum.usageBy![j] += n));
    }
    if (r.byRobots !== undefined) {
      sum.byRobots ??= { ok: 0, unavailable: 0, unreachable: 0, missing: 0 };
      for (const k of Object.keys(r.byRobots) as (keyof typeof r.byRobots)[]) sum.byRobots[k] += r.byRobots[k];
    }
    for (const h of r.newHosts) sum.newHosts.push(h);
    sum.loads += r.loads;
    sum.evictions += r.evictions;
    for (const why of r.unreadable) sum.unreadable.push(why);
  }
  return sum;
}

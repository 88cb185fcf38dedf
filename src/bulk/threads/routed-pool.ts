// Threads for a robots.txt per host (--robots-dir, --robots-warc, --robots-index):
// the main thread reads the input, routes each block's lines to the threads by
// host (host-router.ts: each host is loaded by one thread, and a thread's cache
// holds its share of the hosts), and puts their output lines back in input
// order as they come back. Blocks stay in flight meanwhile, so a thread never
// waits for another's turn to write. The main thread is one of the threads: it
// classifies a share itself, while the worker threads classify theirs (a worker
// in its place, with the main thread only routing, cost a third isolate: its
// start, its own JIT warm-up and heap, on 2 cores a thread more than cores).
import { BlockClassifier, type ClassifiedBlock, type ClassifyConfig } from '../classify/classify-config.js';
import { BufferPool } from '../base/buffer-pool.js';
import { readLinesOfRange, type FileRange } from '../sources/file-ranges.js';
import { gatherSpans, HostRouter, segmentOctets, spanOctets, type RoutedBlock } from '../classify/host-router.js';
import { MAX_LINE_OCTETS } from '../sources/line-blocks.js';
import { PoolWorker, type BlockReply } from './worker-pool.js';
import { shareCaptures } from './shared-captures.js';

/** What routing a URL costs the main thread against classifying it (thread CPU on the corpus probes ×25,
 * with --robots-dir and with --robots-index: about a tenth). */
const ROUTING_PER_CLASSIFYING = 0.1;

/** This thread's share of the hosts against a worker's, so that its routing and its share take what a
 * worker's share does: 0.82 with 2 threads, 0.64 with 4, none from 11 (routing all it can do then). */
export function mainThreadWeight(threads: number): number {
  return Math.max(0, (1 - (threads - 1) * ROUTING_PER_CLASSIFYING) / (1 + ROUTING_PER_CLASSIFYING));
}

export class RoutedPool {
  /** The worker threads: shares 1 to threads - 1 of the router's (share 0 is this thread's). */
  private readonly workers: PoolWorker[];
  /** Each worker's buffers for the lines routed to it (gathered here, transferred, and back with its reply). */
  private readonly routedLines: BufferPool[];
  private readonly router: HostRouter;
  /** This thread's classifier, for share 0, and the buffers of its output (back once merged). */
  private readonly here: BlockClassifier;
  private readonly hereOutputs = new BufferPool(4);
  /** Buffers of the merged output (back from the caller once written: recycle). */
  private readonly outputs = new BufferPool();
  /** Each thread's output buffers that came back, to go with its next request. */
  private readonly spares: ArrayBuffer[][];
  private seq = 0;

  /** Threads that classify the lines routed to them, with `config` (its shard is the router's to apply). */
  constructor(threads: number, config: ClassifyConfig) {
    this.router = new HostRouter(threads, config.shard, mainThreadWeight(threads));
    const unsharded = { ...config, shard: undefined };
    this.here = new BlockClassifier(unsharded);
    // A WARC index's captures cross once, into shared memory, not copied into each thread.
    const sharedWarc = config.warc === undefined ? undefined : shareCaptures(config.warc);
    const data = { config: { ...unsharded, warc: undefined }, sharedWarc, turns: new SharedArrayBuffer(8), fd: -1, outName: '' };
    this.routedLines = Array.from({ length: threads - 1 }, () => new BufferPool(4));
    this.workers = this.routedLines.map((lines) => new PoolWorker(data, lines));
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
    // The workers' shares gathered from the block and sent first (each in a buffer of its own, transferred: a block
    // copied whole into shared memory, for each thread to gather its lines from, cost twice the copying, and V8
    // copies to and from shared memory in relaxed atomic steps, slower than memcpy), this thread's classified meanwhile.
    const asked = this.workers.map((w, k) => {
      const spans = routed.spans[k + 1];
      if (spans.length === 0) return null;
      const lines = gatherSpans(routed.block, spans, this.routedLines[k].take(spanOctets(spans)));
      const spare = this.spares[k].pop();
      const transfer = [lines.buffer as ArrayBuffer];
      if (spare !== undefined) transfer.push(spare);
      return w.request({ seq, routed: lines, counts: routed.counts[k + 1], spare }, transfer);
    });
    let here: BlockReply | null;
    try {
      here = this.classifyHere(seq, routed, routed.spans[0], routed.counts[0]);
    } catch (e) {
      void Promise.allSettled(asked); // (their failures, if any, are this one's: not unhandled)
      throw e;
    }
    const replies = [here, ...(await Promise.all(asked))];
    const output = this.merge(routed, replies);
    if (here?.output !== undefined) this.hereOutputs.give(here.output.buffer);
    replies.forEach((r, t) => {
      if (t > 0 && r?.output !== undefined && r.output.buffer.byteLength > 0) this.spares[t - 1].push(r.output.buffer as ArrayBuffer);
    });
    return total(output, replies);
  }

  /** Share 0 of a block, classified in this thread (its lines gathered into the core's input area, as a worker does). */
  private classifyHere(seq: number, routed: RoutedBlock, spans: Int32Array, counts: Int32Array): BlockReply | null {
    if (spans.length === 0) return null;
    // (The area first: making room may grow the core's memory, which the block's view is then of.)
    const area = this.here.inputArea(spanOctets(spans));
    const lines = gatherSpans(this.router.lastBlock(), spans, area);
    const result = this.here.classify(lines, (n) => this.hereOutputs.take(n));
    return { seq, result, output: result.output, segments: segmentOctets(result.output, counts) };
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
    this.here.close();
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

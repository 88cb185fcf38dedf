// bulk's front door for a classification: a config (classify/classify-config.ts)
// and a URL input in, one output line per URL out, in input order, over as many
// threads as asked; the counts back for a summary. What robots.txt the URLs are
// decided by (one, a directory, WARC captures, an index) is in the config; the
// captures are indexed first, by the readers this door gives as well.
// `robots classify` (src/cli/classify.ts) parses its flags into a config, calls
// this, and prints.
import { closeSync, createReadStream, fstatSync, openSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { BufferPool } from './base/buffer-pool.js';
import { BulkError, reason } from './base/errors.js';
import { OutputSink } from './base/output-sink.js';
import { writeAllSync } from './base/write-turns.js';
import { LineClassifier, MAX_COUNTED_HOSTS } from './classify/line-classifier.js';
import { BlockClassifier, type ClassifiedBlock, type ClassifyConfig } from './classify/classify-config.js';
import type { RobotsKind } from './classify/classification.js';
import { HostSet } from './classify/host-set.js';
import { BLOCK_OCTETS, lineBlocks, MAX_LINE_OCTETS } from './sources/line-blocks.js';
import type { FileRange } from './sources/file-ranges.js';
import { OutputClosed, WorkerPool } from './threads/worker-pool.js';
import { RoutedPool } from './threads/routed-pool.js';
import { DirReader } from './threads/dir-reader.js';
import { RangesAhead } from './threads/ranges-ahead.js';
import { readLinesOfRange } from './sources/file-ranges.js';

export type { ClassifyConfig } from './classify/classify-config.js';
export { MAX_CRAWLERS, type OutputFormat } from './classify/classification.js';
export { MAX_COUNTED_HOSTS } from './classify/line-classifier.js';
export { indexWarcs, type WarcIndex } from './sources/warc/warc-index.js';
export { readRobotsIndexes } from './index/robots-index-reader.js';

/** Largest thread count a classification takes. */
export const MAX_THREADS = 256;

/** Input octets per thread that pay for its start (its JIT warming up, its
 * automata built anew): on 2 cores, two threads overtake one from about 40 MB
 * of input, with one robots.txt or with one per host. */
const OCTETS_PER_THREAD = 32 << 20;

/** The threads when none are asked for: the cores, or fewer for an input file too short to share. Stdin: the cores. */
function threadsFor(size: number | null): number {
  const cores = Math.min(availableParallelism(), MAX_THREADS);
  return size === null ? cores : Math.max(1, Math.min(cores, Math.ceil(size / OCTETS_PER_THREAD)));
}

/** Blocks in flight per thread: enough to keep each busy while the main thread reads and writes. */
const IN_FLIGHT_PER_THREAD = 3;

/** Where a classification reads and writes, and whom it tells how it goes. */
export interface ClassificationRun {
  /** A file of URLs, one a line; undefined or '-': stdin. */
  input: string | undefined;
  /** A file written whole or not at all (output-sink.ts); undefined: stdout. */
  out: string | undefined;
  /** Threads that classify; undefined: the cores, fewer for a short file. */
  threads: number | undefined;
  /** The threads are ready and the input's octets known (0 for a stream): the run's clock starts now. */
  started?(inputOctets: number): void;
  /** After each block written: the input's octets read so far, the URLs classified. */
  progressed?(consumed: number, urls: number): void;
  /** A host file that could not be read (its URLs disallowed), once per file for the run, why. */
  unreadable?(why: string): void;
}

/** A classification's counts, summed over its blocks. */
export interface ClassificationTotals {
  urls: number;
  allowed: number;
  /** With crawlers or operators: allowed per slot (the crawlers', then three per operator). */
  allowedBy?: number[];
  /** With purposes: per slot, per purpose, URLs allowed then disallowed (BlockResult.usageBy). */
  usageBy?: number[];
  /** With a robots.txt per host: URLs by what it was. */
  byRobots?: Record<RobotsKind, number>;
  /** Hosts seen (up to MAX_COUNTED_HOSTS), by the blocks' keys (BlockResult.newHosts). */
  hosts: HostSet;
  loads: number;
  evictions: number;
  /** Why each host file that could not be read failed. */
  unreadable: Set<string>;
}

/** What a run did: its counts, its time from the threads ready to the last line written, its threads. */
export interface ClassificationDone {
  totals: ClassificationTotals;
  ms: number;
  threads: number;
}

/**
 * Classifies the run's input under the config. A user's mistake (an input that cannot be read, an
 * output that cannot be written) is a BulkError naming what became of the output; the output is then
 * not left half written.
 */
export async function runClassification(config: ClassifyConfig, run: ClassificationRun): Promise<ClassificationDone> {
  const input = openInput(run.input);
  const size = input.size;
  const threads = run.threads ?? threadsFor(input.fd === null ? null : size);
  const sink = new OutputSink(run.out);
  if ((config.crawlers !== undefined || config.operators !== undefined) && config.format === 'tsv') {
    // The header first, before any thread writes (they write to the descriptor themselves).
    try {
      writeAllSync(sink.fd, LineClassifier.header(config.crawlers ?? [], config.usage, config.operators));
    } catch (e) {
      input.close();
      sink.abandon();
      throw new BulkError(`cannot write ${sink.name}: ${reason(e)}`);
    }
  }
  let engine: Engine;
  try {
    // A robots.txt per host: hosts routed to threads (each loads its own); one for all: blocks to any thread.
    const perHost = config.robotsDir !== undefined || config.warc !== undefined;
    engine = threads === 1 ? inThisThread(config, sink, input.fd === null ? null : size) : perHost ? new RoutedPool(threads, config) : new WorkerPool(threads, config, sink.fd, sink.name);
  } catch (e) {
    input.close();
    sink.abandon();
    throw e;
  }
  // The rate counts from when the classifiers are built: in this thread, or in every worker.
  await engine.ready?.();
  run.started?.(size);
  // (Slots: the crawlers', then three per operator: operator-slots.ts.)
  const slots = (config.crawlers?.length ?? 0) + 3 * (config.operators?.length ?? 0);
  const multi = slots > 0;
  const totals: ClassificationTotals = { urls: 0, allowed: 0, allowedBy: multi ? new Array<number>(slots).fill(0) : undefined, usageBy: multi && (config.usage || config.operators !== undefined) ? new Array<number>(6 * slots).fill(0) : undefined, hosts: new HostSet(), loads: 0, evictions: 0, unreadable: new Set<string>() };
  const began = performance.now();
  /** When the last line was written (the threads stopped and the host cache freed after it, out of the run's time). */
  let ended = 0;
  try {
    const inFlight: { result: Promise<ClassifiedBlock>; consumed: number }[] = [];
    const settle = async () => {
      const { result, consumed } = inFlight.shift()!;
      let r: ClassifiedBlock;
      try {
        r = await result;
      } catch (e) {
        if (!(e instanceof OutputClosed)) throw e;
        sink.closedByReader = true; // a thread met the closed reader: what is in flight is dropped
        return;
      }
      await sink.write(r.output, () => engine.recycle(r.output));
      totals.urls += r.urls;
      totals.allowed += r.allowed;
      r.allowedBy?.forEach((n, j) => (totals.allowedBy![j] += n));
      r.usageBy?.forEach((n, j) => (totals.usageBy![j] += n));
      if (r.byRobots !== undefined) {
        totals.byRobots ??= { ok: 0, unavailable: 0, unreachable: 0, missing: 0 };
        for (const k of Object.keys(r.byRobots) as RobotsKind[]) totals.byRobots[k] += r.byRobots[k];
      }
      totals.loads += r.loads;
      totals.evictions += r.evictions;
      for (const why of r.unreadable) {
        // Once per file for the run, whichever thread met it (each keeps its own cache).
        if (totals.unreadable.has(why)) continue;
        totals.unreadable.add(why);
        run.unreadable?.(why);
      }
      for (const h of r.newHosts) if (totals.hosts.size < MAX_COUNTED_HOSTS) totals.hosts.addKey(h);
      run.progressed?.(consumed, totals.urls);
    };
    const submit = async (result: Promise<ClassifiedBlock>, consumed: number) => {
      result.catch(() => {}); // handled when its turn comes (settle); not an unhandled rejection meanwhile
      inFlight.push({ result, consumed });
      if (inFlight.length >= (engine.inFlight ?? threads * IN_FLIGHT_PER_THREAD)) await settle();
    };
    if (engine.classifyRange !== undefined && input.fd !== null) {
      // A regular file: read by ranges (by each thread itself, when any thread can take any block).
      for (let start = 0; start < size && !sink.closedByReader; start += BLOCK_OCTETS) {
        const end = Math.min(size, start + BLOCK_OCTETS);
        await submit(engine.classifyRange({ fd: input.fd, start, end, size }), end);
      }
    } else {
      for await (const { parts, consumed } of lineBlocks(input.stream)) {
        await submit(engine.classify(parts), consumed);
        if (sink.closedByReader) break;
      }
    }
    while (inFlight.length > 0) await settle();
    await sink.finish();
    ended = performance.now();
  } catch (e) {
    const what = sink.abandon();
    if (e instanceof BulkError) throw new BulkError(`${e.message}; ${what}`);
    throw e;
  } finally {
    await engine.close(); // the threads are stopped before the input they read is closed
    input.close();
  }
  return { totals, ms: ended - began, threads };
}

/** The URL input: a stream, and for a regular file its descriptor and size (threads read ranges of it). */
interface Input {
  stream: Readable;
  fd: number | null;
  size: number;
  close(): void;
}

function openInput(path: string | undefined): Input {
  if (path === undefined || path === '-') {
    if (process.stdin.isTTY) throw new BulkError('no URLs: give a file of URLs or pipe them to stdin (robots classify --help)');
    return { stream: process.stdin, fd: null, size: 0, close: () => process.stdin.destroy() };
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new BulkError(`cannot read URL file ${path}: ${reason(e)}`);
  }
  const stat = fstatSync(fd);
  if (stat.isDirectory()) {
    closeSync(fd);
    throw new BulkError(`cannot read URL file ${path}: is a directory`);
  }
  if (stat.isFile()) {
    // Read by the threads at offsets, or (one thread) as a stream; the descriptor stays
    // open until close() (destroying the stream closes it).
    const stream = createReadStream('', { fd, autoClose: false, highWaterMark: BLOCK_OCTETS });
    return { stream, fd, size: stat.size, close: () => stream.destroy() };
  }
  // A FIFO, a device: a stream only.
  const stream = createReadStream('', { fd, highWaterMark: BLOCK_OCTETS });
  return { stream, fd: null, size: 0, close: () => stream.destroy() };
}

interface Engine {
  /** Settles when the threads are ready to classify. */
  ready?(): Promise<void>;
  /** Blocks in flight at most (default: IN_FLIGHT_PER_THREAD a thread). */
  inFlight?: number;
  classify(parts: readonly Uint8Array[]): Promise<ClassifiedBlock>;
  /** The lines that start in a range of a regular file: read by the engine. */
  classifyRange?(range: FileRange): Promise<ClassifiedBlock>;
  /** An output buffer, written: for reuse. */
  recycle(output: Uint8Array): void;
  close(): Promise<void>;
}

/**
 * Whether a block's lines go out from the core's memory as it writes them, as the worker threads
 * write theirs, in order and without a copy: a verdict per crawler (and its purposes), or an
 * operator's word per purpose, make lines of kilobytes (163 crawlers with --usage: ~5.5 KiB of TSV
 * a URL; --operators @ai: 42 columns), a block's output tens of MiB (copied out and joined, it cost
 * 2.5 times the classification).
 */
export function writesFromCore(config: Pick<ClassifyConfig, 'crawlers' | 'operators'>): boolean {
  return config.crawlers !== undefined || config.operators !== undefined;
}

/**
 * The classifier in this thread. With a --robots-dir, a thread of its own reads the host files ahead
 * (dir-reader.ts): of a file of two blocks or more it reads the ranges too; of a stream it gets the blocks
 * from the third on.
 * Each block is classified once its files are read, in order.
 */
function inThisThread(config: ClassifyConfig, sink: OutputSink, size: number | null): Engine {
  const classifier = new BlockClassifier(config);
  const outputs = new BufferPool();
  const take = (n: number) => outputs.take(n);
  const writer = { write: (octets: Uint8Array) => writeDirect(sink, octets) };
  const output = writesFromCore(config) ? writer : take;
  const engine: Engine = {
    classify: async (parts) => classifier.classify(parts, output),
    recycle: (o) => {
      if (output === take) outputs.give(o.buffer);
    },
    close: async () => classifier.close(),
  };
  if (config.robotsDir === undefined) return engine;
  let reader: DirReader | null = null;
  let blocks = 0;
  /** The last block's classification (settled either way): the next one follows it. */
  let previous: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(ready: Promise<T>, work: (got: T) => ClassifiedBlock): Promise<ClassifiedBlock> => {
    const done = previous.then(() => ready).then(work);
    previous = done.catch(() => {});
    return done;
  };
  engine.inFlight = READ_AHEAD_BLOCKS;
  engine.close = async () => {
    await reader?.close();
    classifier.close();
  };
  if (size !== null && size >= READ_AHEAD_FROM) {
    // (The run's clock starts once the reader has, as a pool's does once its threads have.)
    const r = (reader = new DirReader(config));
    engine.ready = () => r.started;
    const inputs = new BufferPool(2);
    const ahead = new RangesAhead((range) => r.readRange(range), RANGES_AHEAD, BLOCK_OCTETS);
    engine.classifyRange = (range) =>
      inOrder(ahead.take(range), (got) => {
        ahead.begin(range);
        if (got === null) {
          // The reader failed: the range read here (the same lines, the same errors).
          const lines = readLinesOfRange(range, MAX_LINE_OCTETS, (n) => inputs.take(n));
          const result = classifier.classify(lines, output);
          inputs.give(lines.buffer);
          return result;
        }
        const result = classifier.classify(got.lines, output, got.files);
        r.giveBack(got.files, got.lines);
        return result;
      });
    return engine;
  }
  engine.classify = async (parts) => {
    if (++blocks === 2) reader = new DirReader(config);
    if (reader === null || blocks === 2) return inOrder(Promise.resolve(), () => classifier.classify(parts, output));
    const r = reader;
    return inOrder(r.read(parts), (files) => {
      if (files === null) return classifier.classify(parts, output);
      const result = classifier.classify(parts, output, files);
      r.giveBack(files);
      return result;
    });
  };
  return engine;
}

/** Input octets from which a --robots-dir's host files (and the input's ranges) are read ahead: a shorter file starts no reader. */
const READ_AHEAD_FROM = 2 * BLOCK_OCTETS;
/** Blocks in flight with a reader: it reads several blocks ahead, so that the classifier finds the next one ready
 * when it is done with one (with a few, the two threads took turns: the reader idle while the classifier went
 * through the blocks read, the classifier idle while the reader read the next). */
const READ_AHEAD_BLOCKS = 5;
/** Ranges of the input file the reader is asked for past the one being classified (ranges-ahead.ts): each costs a
 * block's lines and host files held until classified. */
const RANGES_AHEAD = 4;

/** Octets to the output's descriptor now (the sink's own stream left unused); a reader gone is OutputClosed. */
function writeDirect(sink: OutputSink, octets: Uint8Array): void {
  try {
    writeAllSync(sink.fd, octets);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EPIPE') throw new OutputClosed();
    throw new BulkError(`cannot write ${sink.name}: ${reason(e)}`); // (as a worker thread says it)
  }
}

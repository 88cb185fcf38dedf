// Bulk classification of URL lines (the `robots classify` command): a block of
// input octets in, output octets out. The core splits the lines, decides them
// and writes the output lines itself; JavaScript steps in once per run of
// consecutive URLs of one host (to find that host's matcher), never per URL
// when one robots.txt serves them all.
import { isUtf8 } from 'node:buffer';
import { domainToASCII } from 'node:url';
import { core, Core } from '../../engine/wasm/core.js';
import { CoreInput } from './core-input.js';
import { HostSet } from './host-set.js';
import { canonicaliseRuns, type CanonicalRuns } from './origin-runs.js';
import type { Matcher } from '../../engine/match/matcher.js';
import { concatOctets } from '../../engine/parse/octets.js';
import { CLASSIFY_MAX_CRAWLERS, H_TEXTS_MAX, LINE_RECORD, RUN_RECORD, UNREACHABLE_MATCHER } from '../../engine/wasm/layout.js';

export type OutputFormat = 'tsv' | 'jsonl';

/** The matcher for an origin, by a 53-bit key of it (equal for every spelling
 * of one origin: see origin-runs.ts), with its parts on request (a cache
 * miss): the host as urlOrigin() names it ('' when the URL names none).
 * null means no robots.txt: all allowed; UNREACHABLE, all disallowed. */
export type MatcherSource = (key: number, origin: () => Origin) => Matcher | null | typeof UNREACHABLE | LabelledMatcher;
/** A MatcherSource for a classification with crawlers. */
export type CrawlerSource = (key: number, origin: () => Origin) => CrawlerMatchers;

/** A matcher with what JSON lines say of its robots.txt: `label` is the line's
 * text after the URL's string up to the verdict, ASCII, at most LABEL_MAX
 * octets, e.g. `","robots":"unavailable","http":404`. */
export interface LabelledMatcher {
  matcher: Matcher | null | typeof UNREACHABLE;
  label: string;
  /** What the robots.txt was, for the summary's count (else from the matcher). */
  kind?: RobotsKind;
}

/** What a host's robots.txt was: its rules, a 4xx (all allowed), none that could be had (all disallowed), or none at all. */
export type RobotsKind = 'ok' | 'unavailable' | 'unreachable' | 'missing';
export const LABEL_MAX = 240;

/** Several crawlers' matchers for one origin (classify with crawlers): one per
 * crawler, in the crawlers' order; crawlers given the same Matcher share one
 * walk. `label` as LabelledMatcher's (defaults from the matchers). */
export interface CrawlerMatchers {
  matchers: (Matcher | null | typeof UNREACHABLE)[];
  label?: string;
  kind?: RobotsKind;
}
/** Most crawlers of one classification. */
export const MAX_CRAWLERS = CLASSIFY_MAX_CRAWLERS; // (the core's array of verdicts: layout.ts)

/** A MatcherSource's answer for a robots.txt that cannot be read: every URL disallowed (RFC 9309 2.3.1.3). */
export const UNREACHABLE = 'unreachable';

/** A URL's origin: its host as MatcherSource describes it, the lower-cased
 * scheme ('' after a bare `//`) and the port as written ('' when none). */
export interface Origin {
  host: string;
  scheme: string;
  port: string;
}

/** Where output octets are copied to: a buffer of exactly n octets (a view). */
export type OutputBuffers = (n: number) => Uint8Array;
/** Or where they are handed as they are: a view of the core's memory, valid
 * only during the call (whole lines; a block may come in several). */
export interface OutputWriter {
  write(octets: Uint8Array): void;
  /**
   * Offered a block's last piece instead of write(): true when the writer keeps
   * it for later (a thread whose turn to write has not come classifies its next
   * block meanwhile). It then stays in the core's memory, see LineClassifier.kept,
   * until released; one block's output at a time (release the one before first).
   */
  keep?(octets: Uint8Array): boolean;
}
const newBuffer: OutputBuffers = (n) => new Uint8Array(n);

export interface BlockResult {
  /** One line per URL, in input order (empty when an OutputWriter took them). */
  output: Uint8Array;
  urls: number;
  /** URLs allowed (with crawlers: allowed for the first crawler; see allowedBy). */
  allowed: number;
  /** With crawlers: URLs allowed for each. */
  allowedBy?: number[];
  /** With a robots.txt per host: URLs by what their host's robots.txt was. */
  byRobots?: Record<RobotsKind, number>;
  /** Keys of hosts this classifier had not seen before (see hostKey). */
  newHosts: number[];
}

const MAX_RECORDS = 1 << 15;
/** Output area: a block's lines fit at once (1 MiB of short URLs writes ~1.5 MiB of TSV). */
const OUT_SIZE = 4 << 20;
/** Distinct hosts remembered for the summary; past this the count is a lower bound. */
export const MAX_COUNTED_HOSTS = 1 << 22;

const utf8 = new TextDecoder();


export class LineClassifier {
  private readonly core: Core;
  private readonly json: boolean;
  private readonly input: CoreInput;
  private readonly recs: number;
  private readonly runs: number;
  private outPtr = 0;
  private outCap = 0;
  private outLen = 0;
  /** The other output area, and the output kept in it (see OutputWriter.keep). */
  private sparePtr = 0;
  private spareCap = 0;
  private keptLen = 0;
  private pieces: Uint8Array[] = [];
  /** Where the block being classified goes. */
  private target: OutputBuffers | OutputWriter = newBuffer;
  private memory: Buffer = Buffer.alloc(0);
  private readonly seenHosts = new HostSet();
  private readonly labelPtr: number;
  /** With crawlers: their count, and in the core their matchers, name fragments and allowed counts. */
  private readonly crawlers: number;
  private msPtr = 0;
  private namesPtr = 0;
  private countsPtr = 0;
  private namesLen = 0;

  /** --shard: only the URLs whose host's shard this is are classified (see shardOf). */
  private readonly shard: Shard | undefined;
  /** The origin of the run being looked up, for its MatcherSource (one function, not a closure per run). */
  private runBuf = 0;
  private runFirst = 0;
  /** The run's origin when its host was not written as the origin names it (see origin-runs.ts). */
  private runCanonical: Origin | undefined;
  private readonly canonical: CanonicalRuns = { runs: [], origins: [] };
  private readonly runOrigin = (): Origin => this.runCanonical ?? this.originOf(this.runBuf, this.runFirst);

  constructor(format: OutputFormat, crawlers?: readonly string[], shard?: Shard) {
    this.shard = shard;
    this.core = core();
    this.input = new CoreInput(this.core);
    this.json = format === 'jsonl';
    this.recs = this.core.alloc(MAX_RECORDS * LINE_RECORD);
    this.runs = this.core.alloc(MAX_RECORDS * RUN_RECORD);
    this.labelPtr = this.core.alloc(LABEL_MAX);
    this.crawlers = crawlers?.length ?? 0;
    if (crawlers !== undefined) {
      if (crawlers.length === 0 || crawlers.length > MAX_CRAWLERS) throw new RangeError(`from 1 to ${MAX_CRAWLERS} crawlers, got ${crawlers.length}`);
      const fragments = crawlers.map((name, j) => new TextEncoder().encode(`${j === 0 ? '' : ','}${JSON.stringify(name)}:{"allowed":`));
      const size = fragments.reduce((n, f) => n + f.length, 0);
      this.namesLen = size;
      this.msPtr = this.core.alloc(4 * crawlers.length);
      this.countsPtr = this.core.alloc(4 * crawlers.length);
      this.namesPtr = this.core.alloc(8 * crawlers.length + size);
      let at = this.namesPtr + 8 * crawlers.length;
      fragments.forEach((f, j) => {
        this.core.u32[(this.namesPtr >>> 2) + 2 * j] = at - this.namesPtr; // (offsets from the table)
        this.core.u32[(this.namesPtr >>> 2) + 2 * j + 1] = f.length;
        this.core.u8.set(f, at);
        at += f.length;
      });
    }
    this.reserveOutput(OUT_SIZE);
  }

  /** The TSV header line of a classification with crawlers: `url<TAB>A<TAB>B…`. */
  static header(crawlers: readonly string[]): Uint8Array {
    return new TextEncoder().encode(['url', ...crawlers].join('\t') + '\n');
  }

  /**
   * The core's input area, room for n octets: input read straight into it is
   * classified where it is (pass the view itself to classify(), before any other
   * call into the core).
   */
  inputArea(n: number): Uint8Array {
    return this.input.area(n);
  }

  /** True once more distinct hosts were seen than are remembered. */
  get hostsOverflowed(): boolean {
    return this.seenHosts.size >= MAX_COUNTED_HOSTS;
  }

  /**
   * Classifies the lines of input (whole lines; the last may lack its LF;
   * given whole or in parts, as read) against one matcher, or the matcher of
   * each URL's host. The output is copied out of the core into a buffer from
   * `output` (a pool, say), or handed to a writer without a copy.
   */
  classify(input: Uint8Array | readonly Uint8Array[], source: Matcher | MatcherSource | CrawlerMatchers | CrawlerSource, output: OutputBuffers | OutputWriter = newBuffer): BlockResult {
    this.target = output;
    const c = this.core;
    const x = c.exports;
    const length = this.input.stage(input);
    const multi = this.crawlers > 0;
    if (multi) c.u32.fill(0, this.countsPtr >>> 2, (this.countsPtr >>> 2) + this.crawlers);
    const result: BlockResult = { output: new Uint8Array(0), urls: 0, allowed: 0, newHosts: [] };
    for (let pos = 0; pos < length; ) {
      const buf = this.input.ptr + pos;
      const count = x.splitLines(buf, length - pos, this.recs, this.runs, MAX_RECORDS);
      const nruns = x.lastRunCount();
      const canonical = this.canonical;
      canonicaliseRuns(c, buf, this.recs, this.runs, nruns, canonical);
      let nextCanonical = 0;
      pos += x.lastSplitEnd();
      result.urls += count;
      const shard = this.shard;
      for (let r = 0; r < nruns; r++) {
        const q = (this.runs >>> 2) + r * 4;
        const first = c.i32[q];
        const end = r + 1 < nruns ? c.i32[q + 4] : count;
        if (shard !== undefined) {
          if (shardOf(c.u32[q + 1], shard.count) !== shard.index) {
            result.urls -= end - first; // another machine's
            continue;
          }
          if (typeof source !== 'function') {
            // (One robots.txt for all: decided run by run, the runs of other shards left out.)
            this.countHost(c.u32[q + 1], c.u32[q + 2], result.newHosts);
            if (multi) this.decideAll(source as CrawlerMatchers, buf, first, end);
            else result.allowed += this.decide((source as Matcher).address, buf, first, end);
            continue;
          }
        }
        this.countHost(c.u32[q + 1], c.u32[q + 2], result.newHosts);
        if (typeof source === 'function') {
          // The host's key, mixed with the scheme and port's (53 bits).
          const key = ((c.u32[q + 1] ^ Math.imul(c.u32[q + 3], 0x9e3779b1)) >>> 0) * 0x200000 + (c.u32[q + 2] >>> 11);
          this.runBuf = buf;
          this.runFirst = first;
          // (Runs of other shards were skipped: the list may be ahead of them.)
          while (nextCanonical < canonical.runs.length && canonical.runs[nextCanonical] < r) nextCanonical++;
          this.runCanonical = canonical.runs[nextCanonical] === r ? canonical.origins[nextCanonical] : undefined;
          let m = source(key, this.runOrigin);
          const byRobots = (result.byRobots ??= { ok: 0, unavailable: 0, unreachable: 0, missing: 0 });
          if (multi) {
            const all = m as CrawlerMatchers;
            byRobots[all.kind ?? kindOf(all.matchers[0])] += end - first;
            this.decideAll(all, buf, first, end);
            continue;
          }
          let labelLen = 0;
          let kind: RobotsKind | undefined;
          if (m !== null && typeof m === 'object' && 'label' in m) {
            labelLen = this.json ? this.writeLabel((m as LabelledMatcher).label) : 0;
            kind = (m as LabelledMatcher).kind;
            m = (m as LabelledMatcher).matcher;
          }
          byRobots[kind ?? kindOf(m as Matcher | null | typeof UNREACHABLE)] += end - first;
          result.allowed += this.decide(addressOf(m as Matcher | null | typeof UNREACHABLE), buf, first, end, labelLen);
        }
      }
      if (typeof source !== 'function' && shard === undefined) {
        if (multi) this.decideAll(source as CrawlerMatchers, buf, 0, count);
        else result.allowed += this.decide((source as Matcher).address, buf, 0, count);
      }
    }
    if (multi) {
      result.allowedBy = Array.from(c.u32.subarray(this.countsPtr >>> 2, (this.countsPtr >>> 2) + this.crawlers));
      result.allowed = result.allowedBy[0];
    }
    result.output = this.takeOutput();
    return result;
  }

  /** Decides records [from, to) for every crawler into the output (their allowed counts add up in the core). */
  private decideAll(all: CrawlerMatchers, buf: number, from: number, to: number): void {
    const c = this.core;
    const k = this.crawlers;
    if (all.matchers.length !== k) throw new Error(`${all.matchers.length} matchers for ${k} crawlers`);
    for (let j = 0; j < k; j++) c.u32[(this.msPtr >>> 2) + j] = addressOf(all.matchers[j]);
    const labelLen = this.json ? this.writeLabel(all.label ?? defaultLabel(all.matchers)) : 0;
    const x = c.exports;
    const extra = 64 + LABEL_MAX + this.namesLen + k * 24; // (the core's bound, names included)
    for (let i = from; i < to; ) {
      const next = x.classifyLinesMulti(this.msPtr, k, this.namesPtr, this.countsPtr, buf, this.recs, i, to, this.outPtr + this.outLen, this.outPtr + this.outCap, this.json, this.labelPtr, labelLen);
      this.wrote(i, next, to, extra);
      i = next;
    }
  }

  private countHost(h1: number, h2: number, fresh: number[]): void {
    if (h1 === 0 || this.seenHosts.size >= MAX_COUNTED_HOSTS) return;
    if (this.seenHosts.add(h1, h2)) fresh.push(h1 * 0x200000 + (h2 >>> 11)); // 53 bits of the two hashes
  }

  /** The lower-case host of line record i of buf ('' when none; IDN as punycode). */
  private hostOf(buf: number, i: number): string {
    const q = (this.recs >>> 2) + i * 4;
    const start = buf + this.core.i32[q + 2];
    const len = this.core.i32[q + 3];
    if (len === 0) return '';
    const mem = this.memoryBuffer();
    let ascii = true;
    for (let k = start; k < start + len; k++) if (mem[k] >= 0x80) { ascii = false; break; }
    if (ascii) return mem.toString('latin1', start, start + len).toLowerCase();
    const host = utf8.decode(mem.subarray(start, start + len));
    return domainToASCII(host) || host.toLowerCase();
  }

  /** The scheme and port of line record i of buf (see Origin). A run of lines
   * is one origin (the core splits runs where scheme, host or port change). */
  private originOf(buf: number, i: number): Origin {
    const q = (this.recs >>> 2) + i * 4;
    const i32 = this.core.i32;
    const line = buf + i32[q];
    const lineEnd = line + i32[q + 1];
    const host = buf + i32[q + 2];
    const hostEnd = host + i32[q + 3];
    if (i32[q + 3] === 0) return { host: '', scheme: '', port: '' };
    const mem = this.memoryBuffer();
    // The scheme ends at the first ':' (the core found "://" there, or the URL starts with "//").
    let sep = line;
    while (sep < host && mem[sep] !== 0x3a) sep++;
    const scheme = sep === host ? '' : schemeName(mem, line, sep);
    let end = hostEnd;
    if (hostEnd < lineEnd && mem[hostEnd] === 0x3a) {
      end++;
      while (end < lineEnd && mem[end] >= 0x30 && mem[end] <= 0x39) end++;
    }
    return { host: this.hostOf(buf, i), scheme, port: end > hostEnd + 1 ? mem.toString('latin1', hostEnd + 1, end) : '' };
  }

  /** A label's octets into the core (see LabelledMatcher); its length. */
  private writeLabel(label: string): number {
    const n = Math.min(label.length, LABEL_MAX);
    const u8 = this.core.u8;
    for (let k = 0; k < n; k++) u8[this.labelPtr + k] = label.charCodeAt(k) & 0x7f;
    return n;
  }

  /** Decides records [from, to) into the output; returns how many were allowed. */
  private decide(m: number, buf: number, from: number, to: number, labelLen = 0): number {
    const c = this.core;
    // (JSON escapes take 6 octets at most, the rule's text included.)
    const textMax = m > UNREACHABLE_MATCHER ? c.u32[(m + H_TEXTS_MAX) >>> 2] : 0;
    const x = c.exports;
    const extra = textMax * 6 + 96 + LABEL_MAX;
    let allowed = 0;
    for (let i = from; i < to; ) {
      const next = x.classifyLines(m, buf, this.recs, i, to, this.outPtr + this.outLen, this.outPtr + this.outCap, this.json, this.labelPtr, labelLen);
      allowed += x.lastAllowedCount();
      this.wrote(i, next, to, extra);
      i = next;
    }
    return allowed;
  }

  /**
   * After a core writer (classifyLines, classifyLinesMulti) wrote the lines of
   * records [i, next) of [.., to) into the output area: takes them in. When it
   * stopped short, a full area is flushed; a line bigger than all of it gets
   * room for its octets times 6 plus `extra`, as the core bounds it. (One step
   * each writer's loop calls: a loop taking the writer as a closure cost two
   * closures per call, once per URL of an interleaved input.)
   */
  private wrote(i: number, next: number, to: number, extra: number): void {
    const c = this.core;
    if (c.u8.length === 0) c.refresh(); // building states may have grown the memory
    this.outLen = c.exports.lastOutEnd() - this.outPtr;
    if (next < to) {
      if (next === i && this.outLen === 0) this.reserveOutput(this.lineLength(next) * 6 + extra);
      else this.flush();
    }
  }

  /** Octets of line record i. */
  private lineLength(i: number): number {
    return this.core.i32[(this.recs >>> 2) + i * 4 + 1];
  }

  private flush(last = false): void {
    if (this.outLen === 0) return;
    const written = this.core.u8.subarray(this.outPtr, this.outPtr + this.outLen);
    const length = this.outLen;
    this.outLen = 0;
    const target = this.target;
    if (typeof target !== 'function') {
      const octets = this.json ? validUtf8(written) : written;
      if (last && octets === written && target.keep?.(octets)) {
        if (this.keptLen !== 0) throw new Error('OutputWriter.keep: the output kept before was not released');
        // Kept where it is: the next block goes to the other area.
        [this.outPtr, this.outCap, this.sparePtr, this.spareCap] = [this.sparePtr, this.spareCap, this.outPtr, this.outCap];
        this.keptLen = length;
        if (this.outCap < this.spareCap) this.reserveOutput(this.spareCap);
        return;
      }
      return target.write(octets);
    }
    const piece = target(written.length);
    piece.set(written);
    this.pieces.push(piece);
  }

  /** The output a writer kept (a fresh view: the memory may have grown since); empty when none. */
  get kept(): Uint8Array {
    return this.core.u8.subarray(this.sparePtr, this.sparePtr + this.keptLen);
  }

  /** The kept output is written: its area is free again. */
  releaseKept(): void {
    this.keptLen = 0;
  }

  private takeOutput(): Uint8Array {
    this.flush(true);
    const target = this.target;
    if (typeof target !== 'function') return new Uint8Array(0);
    const pieces = this.pieces;
    this.pieces = [];
    const out = pieces.length === 1 ? pieces[0] : pieces.length === 0 ? target(0) : concatOctets(pieces);
    return this.json ? validUtf8(out) : out;
  }

  private memoryBuffer(): Buffer {
    const buffer = this.core.exports.memory.buffer;
    if (this.memory.buffer !== buffer) this.memory = Buffer.from(buffer);
    return this.memory;
  }


  private reserveOutput(n: number): void {
    if (n <= this.outCap) return;
    this.flush();
    if (this.outPtr) this.core.free(this.outPtr);
    this.outCap = n;
    this.outPtr = this.core.alloc(n);
  }
}

/** --shard i/N: this machine's part of the input. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * The shard of a URL's host, from the core's 32-bit hash of it (FNV-1a of the
 * host as urlOrigin() names it, see origin-runs.ts; its lowest bit is always set,
 * so it is dropped): every URL of a host lands in the same shard on every
 * machine. A line that names no host is in shard 0.
 */
export function shardOf(hostHash: number, count: number): number {
  return hostHash === 0 ? 0 : (hostHash >>> 1) % count;
}

/** A matcher's address for the core: 0 none (all allowed), UNREACHABLE_MATCHER all disallowed. */
function addressOf(m: Matcher | null | typeof UNREACHABLE): number {
  return m === null ? 0 : m === UNREACHABLE ? UNREACHABLE_MATCHER : m.address;
}

/** What a robots.txt known only by its matcher was. */
function kindOf(m: Matcher | null | typeof UNREACHABLE): RobotsKind {
  return m === null ? 'missing' : m === UNREACHABLE ? 'unreachable' : 'ok';
}

/** What JSON lines say of a robots.txt known only by its matchers. */
function defaultLabel(matchers: readonly (Matcher | null | typeof UNREACHABLE)[]): string {
  return `","robots":"${kindOf(matchers[0])}"`;
}

/** JSON text is UTF-8: a URL's invalid octets become U+FFFD (the core copies
 * octets >= 0x80 as they are; everything else it writes is ASCII). */
function validUtf8(octets: Uint8Array): Uint8Array {
  return isUtf8(octets) ? octets : new TextEncoder().encode(utf8.decode(octets));
}

/** The lower-cased scheme mem[from, to): "http" and "https" without a new string. */
function schemeName(mem: Uint8Array, from: number, to: number): string {
  const n = to - from;
  if ((n === 4 || n === 5) && (mem[from] | 0x20) === 0x68 && (mem[from + 1] | 0x20) === 0x74 && (mem[from + 2] | 0x20) === 0x74 && (mem[from + 3] | 0x20) === 0x70) {
    if (n === 4) return 'http';
    if ((mem[from + 4] | 0x20) === 0x73) return 'https';
  }
  return new TextDecoder('latin1').decode(mem.subarray(from, to)).toLowerCase();
}

// Bulk classification of URL lines (the `robots classify` command): a block of
// input octets in, output octets out. The core splits the lines, decides them
// and writes the output lines itself; JavaScript steps in once per run of
// consecutive URLs of one host (to find that host's matcher), never per URL
// when one robots.txt serves them all.
//
// In: URL lines (CoreInput) and what decides them (classification.ts: one
// matcher, a MatcherSource per origin, or matchers per crawler). Out: a
// BlockResult, the lines through CoreOutput. Each run's origin comes from
// RunOrigins (origin-runs.ts). Invariants: output lines are in input order, one
// per URL of this shard; a host is counted once (up to MAX_COUNTED_HOSTS).
import type { Matcher } from '../../index.js';
import { core, Core } from '../../engine/wasm/core.js';
import { CoreInput } from './core-input.js';
import { CoreOutput, newBuffer } from './core-output.js';
import { HostSet } from './host-set.js';
import { LineSplitter, type LineSplits } from './line-splits.js';
import { originKey, RunOrigins } from './origin-runs.js';
import { H_TEXTS_MAX, LINE_RECORD, RUN_RECORD, UNREACHABLE_MATCHER, USAGE_JSON_OCTETS, USAGE_TSV_OCTETS } from '../../engine/wasm/layout.js';
import { LINE_AT, LINE_LEN, LINE_U32, RUN_FIRST, RUN_H1, RUN_H2, RUN_U32 } from './record-fields.js';
import {
  type BlockResult, type CrawlerMatchers, type CrawlerSource, LABEL_MAX, type LabelledMatcher, MAX_CRAWLERS, type MatcherSource,
  type OutputBuffers, type OutputFormat, type OutputWriter, type PurposeCode, type RobotsKind, UNREACHABLE,
} from './classification.js';
import { shardOf, type Shard } from '../hosts/shard.js';
import { headerColumns, hasNoCrawler, slotsOf, slotFragment, type Slots } from './operator-slots.js';

/** Line records a splitLines call writes at most (a block is split in as many calls as it needs). */
export const MAX_RECORDS = 1 << 15;
/** Output area: a block's lines fit at once (1 MiB of short URLs writes ~1.5 MiB of TSV). */
const OUT_SIZE = 4 << 20;
/** Distinct hosts remembered for the summary; past this the count is a lower bound. */
export const MAX_COUNTED_HOSTS = 1 << 22;

export class LineClassifier {
  private readonly core: Core;
  private readonly json: boolean;
  private readonly input: CoreInput;
  private readonly output: CoreOutput;
  private readonly recs: number;
  private readonly runs: number;
  private readonly seenHosts = new HostSet();
  private readonly labelPtr: number;
  /** With crawlers: their count, and in the core their matchers, name fragments and allowed counts. */
  private readonly crawlers: number;
  private readonly crawlerTable: CrawlerTable | undefined;
  /** --shard: only the URLs whose host's shard this is are classified (see shardOf). */
  private readonly shard: Shard | undefined;
  /** With crawlers and usage: each crawler's purposes follow its verdict (see classifyLinesMulti). */
  private readonly usage: boolean;
  /** The origin of each run, for its MatcherSource. */
  private readonly origins: RunOrigins;

  /** Per slot of the crawler table: 1 where it is an operator's purpose without a crawler (operator-slots.ts); null when none is. */
  private readonly noCrawler: Uint8Array | null;
  readonly splitter: LineSplitter; // (each block split, or another thread's split of it replayed: line-splits.ts)

  /** usage: with crawlers, their use purposes too (JSON lines: always). slots: the crawlers' and operators' (operator-slots.ts), whose names are `crawlers`. */
  constructor(format: OutputFormat, crawlers?: readonly string[], shard?: Shard, usage = false, slots?: Slots) {
    this.shard = shard;
    slots ??= crawlers === undefined ? undefined : slotsOf(crawlers, undefined, usage || format === 'jsonl');
    this.noCrawler = slots?.kinds.some(hasNoCrawler) ? Uint8Array.from(slots.kinds, (k) => (hasNoCrawler(k) ? 1 : 0)) : null;
    // (Operators' words come of their crawlers' purpose codes.)
    this.usage = crawlers !== undefined && (usage || format === 'jsonl' || (slots !== undefined && slots.operators.length > 0));
    this.core = core();
    this.input = new CoreInput(this.core);
    this.json = format === 'jsonl';
    this.recs = this.core.alloc(MAX_RECORDS * LINE_RECORD);
    this.runs = this.core.alloc(MAX_RECORDS * RUN_RECORD);
    this.splitter = new LineSplitter(this.core, this.recs, this.runs, MAX_RECORDS);
    this.origins = new RunOrigins(this.core, this.recs);
    this.labelPtr = this.core.alloc(LABEL_MAX);
    this.crawlers = crawlers?.length ?? 0;
    this.crawlerTable = crawlers === undefined ? undefined : writeCrawlerTable(this.core, slots!, this.usage);
    this.output = new CoreOutput(this.core, this.json, OUT_SIZE);
  }

  /** The TSV header line of a classification with crawlers: `url<TAB>A<TAB>B…`; with usage each crawler's purposes after it
   * (`A<TAB>A:search<TAB>A:train-ai<TAB>A:ai-use`); then per operator `<id>:search<TAB><id>:train-ai<TAB><id>:ai-use`. */
  static header(crawlers: readonly string[], usage = false, operators?: readonly string[]): Uint8Array {
    return new TextEncoder().encode(headerColumns(slotsOf(crawlers, operators, usage), usage).join('\t') + '\n');
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
   * `output` (a pool, say), or handed to a writer without a copy; `splits`:
   * another thread's split of the input, replayed if it fits (line-splits.ts).
   */
  classify(input: Uint8Array | readonly Uint8Array[], source: Matcher | MatcherSource | CrawlerMatchers | CrawlerSource, output: OutputBuffers | OutputWriter = newBuffer, splits?: LineSplits): BlockResult {
    this.output.begin(output);
    const c = this.core;
    const length = this.input.stage(input);
    const multi = this.crawlers > 0;
    if (multi) {
      const t = this.crawlerTable!;
      c.u32.fill(0, t.countsPtr >>> 2, (t.countsPtr >>> 2) + this.crawlers);
      if (t.usagePtr !== 0) c.u32.fill(0, (t.usagePtr >>> 2) + this.crawlers, (t.usagePtr >>> 2) + 7 * this.crawlers);
    }
    const result: BlockResult = { output: new Uint8Array(0), urls: 0, allowed: 0, newHosts: [] };
    this.splitter.begin(length, splits);
    for (let pos = 0; pos < length; pos += this.splitter.octets) {
      const buf = this.input.ptr + pos;
      const { lines: count, runs: nruns } = this.splitter.next(buf, length - pos);
      this.origins.split(buf, this.runs, nruns);
      result.urls += count;
      const shard = this.shard;
      for (let r = 0; r < nruns; r++) {
        const q = (this.runs >>> 2) + r * RUN_U32;
        const first = c.i32[q + RUN_FIRST];
        const end = r + 1 < nruns ? c.i32[q + RUN_U32 + RUN_FIRST] : count;
        if (shard !== undefined) {
          if (shardOf(c.u32[q + RUN_H1], shard.count) !== shard.index) {
            result.urls -= end - first; // another machine's
            continue;
          }
          if (typeof source !== 'function') {
            // (One robots.txt for all: decided run by run, the runs of other shards left out.)
            this.countHost(c.u32[q + RUN_H1], c.u32[q + RUN_H2], result.newHosts);
            if (multi) this.decideAll(source as CrawlerMatchers, buf, first, end);
            else result.allowed += this.decide((source as Matcher).address, buf, first, end);
            continue;
          }
        }
        this.countHost(c.u32[q + RUN_H1], c.u32[q + RUN_H2], result.newHosts);
        if (typeof source === 'function') {
          const key = originKey(c.u32, q);
          // (Runs of other shards were skipped: the origins' list may be ahead of them.)
          this.origins.at(r, buf, first);
          let m = source(key, this.origins.current);
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
      const counts = this.crawlerTable!.countsPtr >>> 2;
      result.allowedBy = Array.from(c.u32.subarray(counts, counts + this.crawlers));
      result.allowed = result.allowedBy[0];
      const usage = this.crawlerTable!.usagePtr >>> 2;
      if (usage !== 0) result.usageBy = Array.from(c.u32.subarray(usage + this.crawlers, usage + 7 * this.crawlers));
    }
    result.output = this.output.take();
    return result;
  }

  /** Decides records [from, to) for every crawler into the output (their allowed counts add up in the core). */
  private decideAll(all: CrawlerMatchers, buf: number, from: number, to: number): void {
    const c = this.core;
    const k = this.crawlers;
    const t = this.crawlerTable!;
    if (all.matchers.length !== k) throw new Error(`${all.matchers.length} matchers for ${k} crawlers`);
    // (A slot without a crawler says unknown: no walk.)
    const none = this.noCrawler;
    for (let j = 0; j < k; j++) c.u32[(t.msPtr >>> 2) + j] = none !== null && none[j] === 1 ? 0 : addressOf(all.matchers[j]);
    const labelLen = this.json ? this.writeLabel(all.label ?? defaultLabel(all.matchers)) : 0;
    const x = c.exports;
    const out = this.output;
    // (The core's bound, names and purposes included.)
    const extra = 64 + LABEL_MAX + t.namesLen + k * (24 + (t.usagePtr === 0 ? 0 : this.json ? USAGE_JSON_OCTETS : USAGE_TSV_OCTETS));
    const byUrl = t.usagePtr === 0 ? null : this.setPurposes(all.usage);
    if (byUrl !== null) {
      // Content-Usage path patterns or a control token's verdicts decide for some crawler: its code URL by URL,
      // and the lines of consecutive URLs with the same codes written in one call (most of a host's URLs, as a rule).
      const n = byUrl.length;
      const codes = new Array<number>(n);
      const ahead = new Array<number>(n);
      const codesOf = (i: number, into: number[]) => {
        let url: string | undefined;
        const text = () => (url ??= this.lineText(buf, i));
        const q = (this.recs >>> 2) + i * LINE_U32;
        const ptr = buf + c.i32[q + LINE_AT];
        const len = c.i32[q + LINE_LEN];
        for (let b = 0; b < n; b++) {
          const code = byUrl[b][1];
          into[b] = typeof code === 'function' ? code(text()) : code.at(ptr, len, text);
        }
      };
      codesOf(from, codes);
      for (let i = from; i < to; ) {
        let end = i + 1;
        let differs = false;
        while (end < to) {
          codesOf(end, ahead);
          for (let b = 0; b < n && !differs; b++) differs = ahead[b] !== codes[b];
          if (differs) break;
          end++;
        }
        // (The codes first: a matcher may grow the core's memory, and a view taken before would be detached.)
        for (let b = 0; b < n; b++) for (const j of byUrl[b][0]) c.u32[(t.usagePtr >>> 2) + j] = codes[b];
        for (let s = i; s < end; ) {
          const next = x.classifyLinesMulti(t.msPtr, k, t.namesPtr, t.countsPtr, buf, this.recs, s, end, out.ptr + out.len, out.ptr + out.cap, this.json, this.labelPtr, labelLen, t.usagePtr);
          this.wrote(s, next, end, extra);
          s = next;
        }
        i = end;
        if (differs) for (let b = 0; b < n; b++) codes[b] = ahead[b];
      }
      return;
    }
    for (let i = from; i < to; ) {
      const next = x.classifyLinesMulti(t.msPtr, k, t.namesPtr, t.countsPtr, buf, this.recs, i, to, out.ptr + out.len, out.ptr + out.cap, this.json, this.labelPtr, labelLen, t.usagePtr);
      this.wrote(i, next, to, extra);
      i = next;
    }
  }

  /** The crawlers' constant purpose codes into the core (0 for a function's); the codes by URL with the slots that have each, or null when none is. */
  private setPurposes(usage: readonly PurposeCode[] | undefined): [number[], Exclude<PurposeCode, number>][] | null {
    const u32 = this.core.u32;
    const at = this.crawlerTable!.usagePtr >>> 2;
    let byUrl: [number[], Exclude<PurposeCode, number>][] | null = null;
    const none = this.noCrawler;
    for (let j = 0; j < this.crawlers; j++) {
      // (A slot without a crawler reads no code.)
      const code = none !== null && none[j] === 1 ? 0 : usage?.[j] ?? 0;
      if (typeof code === 'number') {
        u32[at + j] = code;
      } else {
        u32[at + j] = 0;
        // (Slots of one crawler share its code: asked once per URL.)
        const same = byUrl?.find((b) => b[1] === code);
        if (same !== undefined) same[0].push(j);
        else (byUrl ??= []).push([[j], code]);
      }
    }
    return byUrl;
  }

  /** Line record i's text (a URL, for purposes decided by path). */
  private lineText(buf: number, i: number): string {
    const q = (this.recs >>> 2) + i * LINE_U32;
    const start = buf + this.core.i32[q + LINE_AT];
    return lineDecoder.decode(this.core.u8.subarray(start, start + this.core.i32[q + LINE_LEN]));
  }

  private countHost(h1: number, h2: number, fresh: number[]): void {
    if (h1 === 0 || this.seenHosts.size >= MAX_COUNTED_HOSTS) return;
    if (this.seenHosts.add(h1, h2)) fresh.push(h1 * 0x200000 + (h2 >>> 11)); // 53 bits of the two hashes
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
    const out = this.output;
    const extra = textMax * 6 + 96 + LABEL_MAX;
    let allowed = 0;
    for (let i = from; i < to; ) {
      const next = x.classifyLines(m, buf, this.recs, i, to, out.ptr + out.len, out.ptr + out.cap, this.json, this.labelPtr, labelLen);
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
    const out = this.output;
    if (c.u8.length === 0) c.refresh(); // building states may have grown the memory
    out.wroteTo(c.exports.lastOutEnd());
    if (next < to) {
      if (next === i && out.len === 0) out.reserve(this.lineLength(next) * 6 + extra);
      else out.flush();
    }
  }

  /** Octets of line record i. */
  private lineLength(i: number): number {
    return this.core.i32[(this.recs >>> 2) + i * LINE_U32 + LINE_LEN];
  }

  /** The output a writer kept (a fresh view: the memory may have grown since); empty when none. */
  get kept(): Uint8Array {
    return this.output.kept;
  }

  /** The kept output is written: its area is free again. */
  releaseKept(): void {
    this.output.releaseKept();
  }
}

/** A classification's crawlers in the core: their matchers' addresses (set per
 * run), their JSON name fragments (`,"B":{"allowed":`) and allowed counts. */
interface CrawlerTable {
  msPtr: number;
  namesPtr: number;
  countsPtr: number;
  namesLen: number;
  /** With usage: the crawlers' purpose codes (set per run, or per URL), then 6 counts each; else 0. */
  usagePtr: number;
}

const lineDecoder = new TextDecoder();

function writeCrawlerTable(c: Core, slots: Slots, usage: boolean): CrawlerTable {
  const crawlers = slots.names;
  if (crawlers.length === 0 || crawlers.length > MAX_CRAWLERS) throw new RangeError(`from 1 to ${MAX_CRAWLERS} crawlers, got ${crawlers.length}`);
  const fragments = crawlers.map((_, j) => new TextEncoder().encode(slotFragment(slots, j)));
  const size = fragments.reduce((n, f) => n + f.length, 0);
  const msPtr = c.alloc(4 * crawlers.length);
  const countsPtr = c.alloc(4 * crawlers.length);
  const namesPtr = c.alloc(8 * crawlers.length + size);
  let at = namesPtr + 8 * crawlers.length;
  fragments.forEach((f, j) => {
    c.u32[(namesPtr >>> 2) + 2 * j] = at - namesPtr; // (offsets from the table)
    c.u32[(namesPtr >>> 2) + 2 * j + 1] = f.length;
    c.u8.set(f, at);
    at += f.length;
  });
  // With purposes: k codes, 6k counts, then k kinds (layout.ts's SLOT_*).
  const usagePtr = usage ? c.alloc(4 * 8 * crawlers.length) : 0;
  if (usage) slots.kinds.forEach((kind, j) => (c.u32[(usagePtr >>> 2) + 7 * crawlers.length + j] = kind));
  return { msPtr, namesPtr, countsPtr, namesLen: size, usagePtr };
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

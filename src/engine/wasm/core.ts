/// <reference path="./wasm.d.ts" />
// The WASM core, loaded once per process (per worker), on first use (the first
// compile, not the import): its exports, views of its memory, and the scratch
// area URLs are written to before a call.
// The core's octets, embedded in the bundle by the build (esbuild's base64
// loader): no file to find beside it, so a bundled app, Deno without
// --allow-read and any runtime load it the same way. Decoded when the core is
// made, not at import (esbuild's binary loader decodes at import, in a JS loop
// where the runtime has no Uint8Array.fromBase64: a fresh process's import paid
// for it, where Buffer decodes it in a small part of that). In the workerd build it is a
// WebAssembly.Module imported from robots.wasm beside the bundle: workerd
// compiles no WASM from octets at run time. (Test runs give it as octets.)
import wasmCore from '../../../build/robots.wasm';
import { CORE_READ_SLACK, H_BUILDER, RANGE_RECORD, TOKENIZE_RESULT, TOKENS_WRITE_SLACK, UTF16_READ_SLACK } from './layout.js';

interface CoreExports {
  memory: WebAssembly.Memory;
  alloc(size: number): number;
  free(ptr: number): void;
  allocatedBytes(): number;
  heapAllocations(): number;
  check(matcher: number, url: number, len: number): number;
  checkBatch(matcher: number, utf16: number, lens: number, count: number, text: number, out: number): void;
  pathOf(url: number, len: number, stopAtNul: boolean, out: number): void;
  normalize(src: number, len: number, dst: number): number;
  dropDotSegments(path: number, len: number): number;
  lexBegin(body: number, len: number): void;
  lexRun(out: number, cap: number): number;
  lexRunGroupKeys(out: number, cap: number): number;
  lexDone(): number;
  lexLines(): number;
  selectBegin(body: number, len: number, names: number, usageRule: boolean): void;
  selectRun(out: number, cap: number): number;
  selectDone(): number;
  selectWanted(): number;
  selectKeep(out: number, count: number): number;
  groupsApplying(values: number, entries: number, count: number, names: number, byLines: boolean, wildcard: boolean, out: number): number;
  /** The whole core's only (assembly/bulk/audit-group-choice.ts). */
  groupsApplyingEach(values: number, entries: number, count: number, names: number, crawlers: number, out: number, stride: number, answers: number): void;
  agentNameIndex(start: number, end: number, names: number): number;
  isUtf8(ptr: number, len: number): number;
  tokenizeRules(body: number, ranges: number, count: number, rfc: boolean, toks: number, room: number, out: number): number;
  gatherRuns(src: number, runs: number, count: number, dst: number): void;
  compileColdRules(body: number, records: number, count: number, rfc: boolean, google: boolean, out: number): number;
  selectCompileCold(body: number, len: number, names: number, usageRule: boolean, rfc: boolean, google: boolean, out: number): number;
  splitLines(buf: number, n: number, recs: number, runs: number, maxRecords: number): number;
  classifyLines(m: number, buf: number, recs: number, from: number, to: number, out: number, outLimit: number, json: boolean, label: number, labelLen: number): number;
  classifyLinesMulti(ms: number, k: number, names: number, counts: number, buf: number, recs: number, from: number, to: number, out: number, outLimit: number, json: boolean, label: number, labelLen: number, usage: number): number;
  lastSplitEnd(): number;
  lastRunCount(): number;
  lastOutEnd(): number;
  lastAllowedCount(): number;
  buildLiteralHeads(list: number, count: number, nodes: number): number;
  planStarRuleList(list: number, count: number, facts: number, tailRulesMax: number, trie: number): number;
  lastStarPlanOctets(): number;
  lastStarPlanTried(): number;
  starHeavyRules(list: number, count: number): number;
  lastGramHeavyRules(): number;
  auditWitnesses(toks: number, results: number, kinds: number, count: number, rfc: boolean, bound: number, path: number, masks: number, out: number): void;
}

/** Builds a matcher's transitions (its LazyDfa, called with the row and byte
 * class of the one to build): an object, not a closure per matcher. */
export interface TransitionBuilder {
  build(row: number, cls: number): number;
}

/** checkMany's batches: at most this many URLs, and UTF-16 units in all. */
const BATCH_URLS = 1024;
/** Node's (and Bun's) Buffer: one write() puts a batch of URLs in the core as
 * UTF-16; in a runtime without it (browsers, Deno, workers) a loop does. */
const NodeBuffer = (globalThis as { Buffer?: BufferClass }).Buffer;
/** What of Node's Buffer the batch encoder uses (typed here: the engine builds without Node's types). */
interface BufferClass {
  from(buffer: ArrayBufferLike, offset: number, length: number): BufferView;
  from(text: string, encoding: 'base64'): Uint8Array<ArrayBuffer>;
}
interface BufferView { write(text: string, offset: number, encoding: 'utf16le'): number }
const BATCH_UNITS = 1 << 15;

/** Octets of a scratch area (a body's, the URL's) kept between compilations:
 * past it, a large file's body or a long URL is not held for good. The core's
 * memory never shrinks, but the matchers compiled next fill what is freed: on
 * the corpus, the body area of its largest file, kept, held a few hundred octets
 * per compiled host of the bench's memory workload. */
const KEPT_AREA_OCTETS = 1 << 16;

/** A block of the core's memory that grows (doubling, from 16 KiB) and is freed only when released. */
class ScratchArea {
  ptr = 0;
  private cap = 0;
  /** How many times the block was replaced (what was written there is gone then, even at the same address). */
  moves = 0;

  /** Frees the block if it holds more than `kept` octets; returns whether it did. */
  release(core: Core, kept: number): boolean {
    if (this.cap <= kept) return false;
    core.free(this.ptr);
    this.ptr = 0;
    this.cap = 0;
    this.moves++;
    return true;
  }

  /** The block's address, with room for n octets (the core's views may be refreshed). */
  reserve(core: Core, n: number): number {
    if (n > this.cap) {
      if (this.ptr) core.free(this.ptr);
      this.cap = Math.max(n, this.cap * 2, 16 << 10);
      this.ptr = core.alloc(this.cap);
      this.moves++;
    }
    return this.ptr;
  }
}

export class Core {
  readonly exports: CoreExports;
  u8!: Uint8Array;
  u16!: Uint16Array;
  u32!: Uint32Array;
  i32!: Int32Array;
  /** The builders, each at the slot its matcher's header holds (H_BUILDER; slot 0: none), and the
   * slots free for the next: a crawler registers and drops a matcher per host, and a Map's set and
   * delete (hashing, and a rehash as the table filled with deleted entries) were a share of a small
   * file's compile that an array's store is not. */
  private readonly builders: (TransitionBuilder | undefined)[] = [{ build: () => 0 }];
  private readonly freeSlots: number[] = [];
  private lastMatcher = 0;
  private lastBuilder: TransitionBuilder = { build: () => 0 };
  /** @internal */
  urlPtr = 0;
  private urlCap = 0;
  /** The URL scratch area as a view, for TextEncoder.encodeInto (measured faster
   * than a charCodeAt loop storing octets one by one). */
  private urlView: Uint8Array = new Uint8Array(0);
  private readonly encoder = new TextEncoder();

  constructor() {
    const imports = {
      robots: {
        buildTransition: (m: number, row: number, cls: number) => {
          // The core may have grown its memory in this call (the cold walk's working set, a scratch path).
          if (this.u8.length === 0) this.refresh();
          // A walk builds its transitions one after another: the last builder is most often the one.
          if (m !== this.lastMatcher) {
            this.lastBuilder = this.builders[m === 0 ? 0 : this.u32[(m + H_BUILDER) >>> 2]]!;
            this.lastMatcher = m;
          }
          return this.lastBuilder.build(row, cls);
        },
      },
    };
    this.exports = new WebAssembly.Instance(coreModule(), { ...imports, env: { abort: (msg: number, file: number, line: number, column: number) => this.abort(msg, file, line, column) } }).exports as unknown as CoreExports;
    this.refresh();
    this.reserveUrl(4096);
  }

  /** The core's abort() (an AssemblyScript assertion or a failed allocation,
   * which the release build keeps), thrown as @assemblyscript/loader threw it:
   * the core needs nothing else of that loader, whose own load was a share of the import. */
  private abort(msg: number, file: number, line: number, column: number): never {
    throw new Error(`abort: ${this.stringAt(msg)} at ${this.stringAt(file)}:${line}:${column}`);
  }

  /** An AssemblyScript string in the core's memory: UTF-16, its byte length in the four octets before it. */
  private stringAt(ptr: number): string {
    const memory = (this.exports as CoreExports | undefined)?.memory; // (undefined: an abort in the core's start)
    if (memory === undefined) return '<unknown>';
    const buffer = memory.buffer;
    const units = new Uint32Array(buffer)[(ptr - 4) >>> 2] >>> 1;
    return String.fromCharCode(...new Uint16Array(buffer, ptr, units));
  }

  /** Re-creates the views after the memory grew (the old ones are detached). */
  refresh(): void {
    const buf = this.exports.memory.buffer;
    this.u8 = new Uint8Array(buf);
    this.u16 = new Uint16Array(buf);
    this.u32 = new Uint32Array(buf);
    this.i32 = new Int32Array(buf);
    this.urlView = this.u8.subarray(this.urlPtr, this.urlPtr + this.urlCap);
    if (this.batchUtf16 && NodeBuffer !== undefined) this.batchView = NodeBuffer.from(buf, this.batchUtf16, BATCH_UNITS * 2);
  }

  alloc(size: number): number {
    const p = this.exports.alloc(size);
    if (p === 0) throw new RangeError(`WASM allocation of ${size} bytes failed`);
    if (this.u8.length === 0) this.refresh();
    return p;
  }

  free(ptr: number): void {
    this.exports.free(ptr);
  }

  private lexRecords = 0;
  /** Scratch areas, grown to the largest use (the lexer's, the compiler's and the group choice's). */
  private readonly areas = { body: new ScratchArea(), ranges: new ScratchArea(), tokens: new ScratchArea(), out: new ScratchArea(), choice: new ScratchArea(), lineNames: new ScratchArea() };

  /** The lexer's input and output areas, grown to fit a body of n octets. */
  lexerBuffers(n: number, recordOctets: number): { bodyPtr: number; recordsPtr: number } {
    if (this.lexRecords === 0) this.lexRecords = this.alloc(recordOctets);
    this.heldBody = null; // (the lexer writes a body there now)
    return { bodyPtr: this.areas.body.reserve(this, n + CORE_READ_SLACK), recordsPtr: this.lexRecords };
  }

  /** The selector's areas (assembly/parse/select.ts): the body's (the lexer's, grown
   * to n octets), then the crawler's names and its output, one after the other
   * in the compiler's ranges' area (selecting is done before compiling starts). */
  selectorBuffers(n: number, namesOctets: number, outOctets: number): { body: number; names: number; out: number } {
    const { areas } = this;
    const body = areas.body.reserve(this, n + CORE_READ_SLACK);
    const names = (namesOctets + 3) & ~3;
    const at = areas.ranges.reserve(this, names + outOctets);
    return { body, names: at, out: at + names };
  }

  /** The area of assembly/parse/group-choice.ts groupsApplying (agents.ts lays it out, and may keep
   * what it wrote there for the next question), with room for n octets. */
  groupChoiceArea(n: number): number {
    return this.areas.choice.reserve(this, n);
  }

  /** How many times the group choice's area was replaced: what was written there before is gone. */
  get groupChoiceMoves(): number {
    return this.areas.choice.moves;
  }

  /** An area for names that group-choice.ts agentNameIndex reads (crawler-lines.ts keeps them there from file to file). */
  lineNamesBuffer(namesOctets: number): number {
    return this.areas.lineNames.reserve(this, namesOctets);
  }

  /** The body the body area holds (at heldAt), so that a body lexed and then
   * compiled (parse(...).compile(...)) is copied to the core once. */
  private heldBody: Uint8Array | null = null;
  private heldAt = 0;

  /** The body area no longer counts as holding body (its owner may change it). */
  forgetBody(body: Uint8Array): void {
    if (this.heldBody === body) this.heldBody = null;
  }

  /** The crawler's names the ranges area starts with (selectorBuffers' callers put them there), and
   * that area's moves when they were put: a crawler compiles host after host for the same names. */
  private heldNames: Uint8Array | null = null;
  private heldNamesMoves = -1;

  /** Puts the encoded names at `at` (selectorBuffers' names), unless they are there already. */
  putNames(names: Uint8Array, at: number): void {
    const moves = this.areas.ranges.moves;
    if (this.heldNames === names && this.heldNamesMoves === moves) return;
    this.u8.set(names, at);
    this.heldNames = names;
    this.heldNamesMoves = moves;
  }

  /** Puts body at `at`, the body area, unless it is there already. */
  putBody(body: Uint8Array, at: number): void {
    if (this.heldBody === body && this.heldAt === at) return;
    this.u8.set(body, at);
    this.heldBody = body;
    this.heldAt = at;
  }

  /** After a compilation: the body area and the URL's freed if a large body or a
   * long URL grew them past KEPT_AREA_OCTETS (the next use reserves them again). */
  releaseLargeAreas(): void {
    if (this.areas.body.release(this, KEPT_AREA_OCTETS)) this.heldBody = null;
    if (this.urlCap > KEPT_AREA_OCTETS) {
      this.free(this.urlPtr);
      this.urlPtr = 0;
      this.urlCap = 0;
      this.reserveUrl(4096);
    }
  }

  /** The compiler's areas (see tokenizeRules in assembly/parse/tokenize.ts): the body
   * (shared with the lexer: a body is lexed, then compiled), room for the
   * ranges of `rules` rules and for `tokens` tokens, and per-rule results. */
  compilerBuffers(bodyOctets: number, rules: number, tokens: number): { body: number; ranges: number; tokens: number; out: number } {
    const { areas } = this;
    this.heldNames = null; // (the ranges are written where the names were)
    return {
      body: areas.body.reserve(this, bodyOctets + CORE_READ_SLACK),
      ranges: areas.ranges.reserve(this, rules * RANGE_RECORD),
      tokens: areas.tokens.reserve(this, tokens * 2 + TOKENS_WRITE_SLACK),
      out: areas.out.reserve(this, rules * TOKENIZE_RESULT + 4), // (and the count of tokens written)
    };
  }

  /** The core's calls for the matcher at this header go to builder (its header written: the slot goes in H_BUILDER). */
  register(matcher: number, builder: TransitionBuilder): void {
    const slot = this.freeSlots.length > 0 ? this.freeSlots.pop()! : this.builders.length;
    this.builders[slot] = builder;
    this.u32[(matcher + H_BUILDER) >>> 2] = slot;
  }

  /** The matcher at this header is being freed (its header still its own). */
  unregister(matcher: number): void {
    const at = (matcher + H_BUILDER) >>> 2;
    const slot = this.u32[at];
    if (slot !== 0) {
      this.builders[slot] = undefined;
      this.freeSlots.push(slot);
      this.u32[at] = 0;
    }
    if (matcher === this.lastMatcher) this.lastMatcher = 0; // its address may be reused
  }

  private reserveUrl(octets: number): void {
    if (octets <= this.urlCap) return;
    if (this.urlPtr) this.free(this.urlPtr);
    const cap = Math.max(octets, this.urlCap * 2);
    // The core may read past a URL (SIMD scans): keep those octets in the block.
    this.urlPtr = this.alloc(cap + CORE_READ_SLACK);
    this.urlCap = cap;
    this.refresh();
  }

  /** Writes url as UTF-8 to the scratch area; returns its length in octets. */
  writeUrl(url: string): number {
    if (url.length * 3 > this.urlCap) this.reserveUrl(url.length * 3);
    if (this.u8.length === 0) this.refresh();
    return this.encoder.encodeInto(url, this.urlView).written;
  }

  /** Decides the URL last written by writeUrl. The views are fresh afterwards
   * (alloc() refreshes them when building states grows the memory; this is the backstop). */
  check(matcher: number, len: number): number {
    const verdict = this.exports.check(matcher, this.urlPtr, len);
    if (this.u8.length === 0) this.refresh();
    return verdict;
  }

  /**
   * Decides many URLs, one verdict octet each into out (1 allowed). They go to
   * the core a batch at a time, concatenated and written as UTF-16 by one
   * Buffer.write where there is Buffer (the fixed cost of a call per URL is most of encoding one),
   * with their lengths; the core encodes them to UTF-8 one by one (exactly as
   * TextEncoder would) and decides them all in one call.
   */
  checkMany(matcher: number, urls: readonly string[], out: Uint8Array): void {
    if (this.batchUtf16 === 0) this.reserveBatch();
    for (let i = 0; i < urls.length; ) {
      const lens = this.batchLens >>> 2;
      const u32 = this.u32.length === 0 ? (this.refresh(), this.u32) : this.u32;
      let joined = '';
      let units = 0;
      let j = i;
      for (; j < urls.length && j - i < BATCH_URLS; j++) {
        const url = urls[j];
        if (typeof url !== 'string') throw new TypeError(`urls[${j}] must be a string, got ${typeof url}`);
        if (units + url.length > BATCH_UNITS) break;
        u32[lens + j - i] = url.length;
        joined += url;
        units += url.length;
      }
      if (j === i) {
        out[i] = this.check(matcher, this.writeUrl(urls[i])); // longer than a batch: alone
        i++;
        continue;
      }
      if (this.batchView !== null) {
        this.batchView.write(joined, 0, 'utf16le');
      } else {
        const u16 = this.u16;
        for (let k = 0, at = this.batchUtf16 >>> 1; k < units; k++) u16[at + k] = joined.charCodeAt(k);
      }
      this.exports.checkBatch(matcher, this.batchUtf16, this.batchLens, j - i, this.batchText, this.batchOut);
      if (this.u8.length === 0) this.refresh();
      // (A loop: a subarray and set() cost more than copying a batch's verdicts.)
      const u8 = this.u8;
      for (let k = i, from = this.batchOut - i; k < j; k++) out[k] = u8[from + k];
      i = j;
    }
  }

  private batchUtf16 = 0;
  private batchText = 0;
  private batchLens = 0;
  private batchOut = 0;
  /** The batch's UTF-16 area as a Buffer, for write(); null where there is no Buffer. */
  private batchView: BufferView | null = null;

  private reserveBatch(): void {
    // The core reads past the UTF-16 (SIMD); UTF-8 takes at most 3 octets per
    // unit, 9 when `rfc` escapes them, and the core writes and reads past them.
    this.batchUtf16 = this.alloc(BATCH_UNITS * 2 + UTF16_READ_SLACK);
    this.batchText = this.alloc(BATCH_UNITS * 9 + CORE_READ_SLACK);
    this.batchLens = this.alloc(BATCH_URLS * 4);
    this.batchOut = this.alloc(BATCH_URLS);
    this.refresh();
  }
}

/** The compiled core: the workerd build's module, else compiled from its octets (base64 in a bundle). */
function coreModule(): WebAssembly.Module {
  if (wasmCore instanceof WebAssembly.Module) return wasmCore;
  return new WebAssembly.Module(typeof wasmCore === 'string' ? octetsOfBase64(wasmCore) : wasmCore);
}

/** Octets of base64 text: Buffer where there is one (Node, Bun), else the
 * runtime's Uint8Array.fromBase64, else atob (browsers, Deno, workers). */
function octetsOfBase64(text: string): Uint8Array<ArrayBuffer> {
  if (NodeBuffer !== undefined) return NodeBuffer.from(text, 'base64');
  const fromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;
  if (fromBase64 !== undefined) return fromBase64(text);
  const binary = atob(text);
  const octets = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) octets[i] = binary.charCodeAt(i);
  return octets;
}

let instance: Core | null = null;

/** The process's core, instantiated on first use. */
export function core(): Core {
  return (instance ??= new Core());
}

/** @internal The core's linear memory in bytes (it never shrinks), for tests. */
export function coreMemoryBytes(): number {
  return core().exports.memory.buffer.byteLength;
}

/** @internal Octets of the core's memory in blocks the host holds (matchers, areas), for tests. */
export function coreAllocatedBytes(): number {
  return core().exports.allocatedBytes();
}

/** @internal Allocations the core's TLSF made (a block reused from assembly/base/alloc.ts's lists is none), for tests. */
export function coreHeapAllocations(): number {
  return core().exports.heapAllocations();
}

/** @internal The core's UTF-8 validation of some octets, for tests. */
export function coreIsUtf8(octets: Uint8Array): boolean {
  const c = core();
  const p = c.alloc(octets.length + CORE_READ_SLACK);
  try {
    c.u8.set(octets, p);
    return c.exports.isUtf8(p, octets.length) !== 0;
  } finally {
    c.free(p);
  }
}

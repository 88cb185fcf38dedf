// The origins of a block's runs of URL lines (the core's splitLines), as
// urlOrigin() names them. The core hashes a host as written when that is
// already its origin's name (lower-case ASCII letters, digits, '-' and '.',
// not a number: nearly every host of a crawl, at no cost per URL); any other
// spelling (percent-escapes, IDN, IPv4 numbers, IPv6, a trailing dot, a port,
// a backslash...) it flags, and this rewrites that run's hashes from the
// WHATWG origin, so that --robots-dir, --robots-warc and --shard find one
// robots.txt and one shard for every spelling of a host. RunOrigins then
// gives each run's origin, on request (a MatcherSource's cache miss), read from
// the line as written or taken from the canonicalisation.
import { domainToASCII } from 'node:url';
import type { Core } from '../../engine/wasm/core.js';
import { LINE_AT, LINE_HOST_LEN, LINE_LEN, LINE_U32, RUN_FIRST, RUN_H1, RUN_H2, RUN_ORIGIN, RUN_U32 } from './record-fields.js';
import { urlOrigin } from '../../engine/robots-url.js';
import type { Origin } from '../hosts/origin.js';
import { HOST_HASHES, hashHost, schemeAndPortHash } from '../hosts/host-hash.js';

const utf8 = new TextDecoder();

/** The runs canonicalised (in order), with their origins (the other runs' origins are as written). */
export interface CanonicalRuns {
  runs: number[];
  origins: Origin[];
}

/** The origin's key of the run record at u32 index q (after canonicaliseRuns): the host's hashes mixed with the
 * scheme and port's, 53 bits. The host cache's key, and the files read ahead's (host-files-ahead.ts). */
export function originKey(u32: Uint32Array, q: number): number {
  return ((u32[q + RUN_H1] ^ Math.imul(u32[q + RUN_ORIGIN], 0x9e3779b1)) >>> 0) * 0x200000 + (u32[q + RUN_H2] >>> 11);
}

/**
 * The origin of each run of a block, for its MatcherSource: set to a run with
 * at(), asked through `current` (one function, not a closure per run).
 */
export class RunOrigins {
  private readonly canonical: CanonicalRuns = { runs: [], origins: [] };
  /** The next of canonical.runs not passed yet. */
  private nextCanonical = 0;
  /** The run's first line: its block and record. */
  private buf = 0;
  private first = 0;
  /** The run's origin when its host was not written as the origin names it. */
  private runCanonical: Origin | undefined;
  private memory: Buffer = Buffer.alloc(0);
  /** The origin of the run at() set. */
  readonly current = (): Origin => this.runCanonical ?? this.originOf(this.buf, this.first);

  /** For the line records at `recs` (LINE_RECORD each). */
  constructor(
    private readonly core: Core,
    private readonly recs: number,
  ) {}

  /** After a splitLines of the block at buf: canonicalises its flagged runs (canonicaliseRuns). */
  split(buf: number, runs: number, nruns: number): void {
    canonicaliseRuns(this.core, buf, this.recs, runs, nruns, this.canonical);
    this.nextCanonical = 0;
  }

  /** Run r, whose first line is record `first` of buf, is the current one (runs in order; some may be skipped). */
  at(r: number, buf: number, first: number): void {
    const canonical = this.canonical;
    this.buf = buf;
    this.first = first;
    while (this.nextCanonical < canonical.runs.length && canonical.runs[this.nextCanonical] < r) this.nextCanonical++;
    this.runCanonical = canonical.runs[this.nextCanonical] === r ? canonical.origins[this.nextCanonical] : undefined;
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

  private memoryBuffer(): Buffer {
    const buffer = this.core.exports.memory.buffer;
    if (this.memory.buffer !== buffer) this.memory = Buffer.from(buffer);
    return this.memory;
  }
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

/**
 * Canonicalises the flagged runs of the last splitLines of the block at `buf`
 * (an even hash1 other than 0): their hashes are rewritten from the origin,
 * listed in `into` (emptied first).
 */
export function canonicaliseRuns(core: Core, buf: number, recs: number, runs: number, nruns: number, into?: CanonicalRuns): void {
  const u32 = core.u32;
  if (into !== undefined) into.runs.length = into.origins.length = 0;
  for (let r = 0, q = runs >>> 2; r < nruns; r++, q += RUN_U32) {
    const h1 = u32[q + RUN_H1];
    if (h1 === 0 || (h1 & 1) === 1) continue;
    const rec = (recs >>> 2) + u32[q + RUN_FIRST] * LINE_U32;
    const i32 = core.i32;
    const start = buf + i32[rec + LINE_AT];
    const line = core.u8.subarray(start, start + i32[rec + LINE_LEN]);
    const origin = lineOrigin(line);
    if (origin === null) {
      // No origin WHATWG URL can name (no fetch could be made of it): the host as written, as before.
      u32[q + RUN_H1] = i32[rec + LINE_HOST_LEN] === 0 ? 0 : h1 | 1;
      if (u32[q + RUN_H1] === 0) u32[q + RUN_H2] = 0;
      continue;
    }
    hashHost(origin.host);
    u32[q + RUN_H1] = HOST_HASHES[0];
    u32[q + RUN_H2] = HOST_HASHES[1];
    u32[q + RUN_ORIGIN] = schemeAndPortHash(origin.scheme, origin.port);
    into?.runs.push(r);
    into?.origins.push(origin);
  }
}

/** The origin of a URL line as `robots classify` reads it: a leading `//` is http's (its scheme kept as ''); null when WHATWG URL names none. */
export function lineOrigin(octets: Uint8Array): Origin | null {
  // (WHATWG drops leading controls and spaces, and every tab and newline.)
  const text = utf8.decode(octets).replace(/^[\x00-\x20]+/, '').replace(/[\t\n\r]/g, '');
  const relative = text.startsWith('//');
  const origin = urlOrigin(relative ? `http:${text}` : text);
  if (typeof origin === 'string') return null;
  return { host: origin.host, scheme: relative ? '' : origin.scheme, port: origin.port };
}

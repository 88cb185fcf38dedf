// The matchers of a --robots-dir: DIR/<host> parsed and compiled once per host,
// kept in an LRU cache bounded by bytes, so millions of URLs over hundreds of
// thousands of hosts run in bounded memory. No file means no robots.txt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type Matcher, type Profile } from '../index.js';
import { CliError, reason } from './errors.js';

/** What an entry costs beyond its robots.txt and automaton (objects, map slots). */
const ENTRY_OVERHEAD = 512;
/** A host name that can be a file name in the directory (no '/', not '.' or '..'). */
const FILE_NAME = /^[a-z0-9._~!$&'()*+,;=%:[\]-]+$/;

interface Entry {
  matcher: Matcher | null;
  /** Octets the matcher's rules point into (its robots.txt), or the host name's. */
  source: number;
  bytes: number;
}

export interface HostMatchersOptions {
  dir: string;
  agents: string[];
  profile: Profile;
  maxBytes: number;
  /** Bound on the bytes held (robots.txt bodies and automata), approximately. */
  cacheBytes: number;
}

export class HostMatchers {
  private readonly entries = new Map<string, Entry>(); // in use order: oldest first
  private held = 0;
  /** Hosts parsed and compiled (more than the distinct hosts when the cache evicted). */
  loads = 0;
  evictions = 0;

  constructor(private readonly options: HostMatchersOptions) {}

  /** The host's matcher, or null when the directory has no robots.txt for it. */
  get(host: string): Matcher | null {
    let entry = this.entries.get(host);
    if (entry !== undefined) {
      this.entries.delete(host); // move to the young end
      this.entries.set(host, entry);
      // The automaton grows as it is used: re-measure on each use.
      const bytes = sizeOf(entry);
      this.held += bytes - entry.bytes;
      entry.bytes = bytes;
    } else {
      entry = this.load(host);
      this.entries.set(host, entry);
      this.held += entry.bytes;
    }
    this.evict(host);
    return entry.matcher;
  }

  private load(host: string): Entry {
    const none = { matcher: null, source: host.length, bytes: ENTRY_OVERHEAD + host.length };
    if (!FILE_NAME.test(host) || host === '.' || host === '..') return none; // (no host, or not one a file can be named after: no load)
    this.loads++;
    const file = join(this.options.dir, host);
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return none;
      throw new CliError(`cannot read ${file}: ${reason(e)}`);
    }
    const { profile, maxBytes, agents } = this.options;
    const matcher = parse(body, { profile, maxBytes }).compile(agents);
    const entry = { matcher, source: Math.min(body.length, maxBytes), bytes: 0 };
    entry.bytes = sizeOf(entry);
    return entry;
  }

  /** Drops the least recently used entries until the cache fits (never the one just used). */
  private evict(keep: string): void {
    for (const [host, entry] of this.entries) {
      if (this.held <= this.options.cacheBytes || host === keep) break;
      this.entries.delete(host);
      this.held -= entry.bytes;
      entry.matcher?.dispose();
      this.evictions++;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.held;
  }
}

/** Bytes an entry holds: its matcher (automaton, trie, rule table), what the rules point into, and overhead. */
function sizeOf(entry: Entry): number {
  const m = entry.matcher;
  return ENTRY_OVERHEAD + entry.source + (m === null ? 0 : m.heldBytes);
}

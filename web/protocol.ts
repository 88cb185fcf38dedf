// The messages between the page and its classification worker.
import type { Profile } from '../src/index.js';

/** One classification: the file (and, comparing, its next version), the URLs, the crawler. */
export interface Job {
  seq: number;
  body: string;
  /** The next version of the file when comparing, else null. */
  bodyNext: string | null;
  urls: string[];
  agents: string[];
  profile: Profile;
}

/** Verdicts of URLs [from, from + verdicts.length): 1 allowed, 0 disallowed; lines 0 when no rule decided. */
export interface Chunk {
  type: 'chunk';
  seq: number;
  from: number;
  verdicts: Uint8Array;
  lines: Uint32Array;
  verdictsNext: Uint8Array | null;
  linesNext: Uint32Array | null;
  /** The URLs' notes (url-notes.ts's codes, 0 for none). */
  notes: Uint8Array;
  /**
   * What the crawler may do with each URL's content (RobotsTxt.usage, this
   * version): 3 codes a URL, its search, train-ai and ai-use (PURPOSES order),
   * each PREFERENCE_CODE's (the core's numbers); null when the crawler's groups hold no
   * Content-Usage or Content-Signal line (every purpose unknown).
   */
  purposes: Uint8Array | null;
}

/** A purpose's preference as a chunk carries it (PREFERENCE_OF[code]): the core's numbers. */
export { PREFERENCE_CODE, PREFERENCE_OF } from '../src/engine/usage/preference-codes.js';

/** What the worker found of the list as a whole (url-notes.ts), before its first chunk. */
export interface Notes {
  type: 'notes';
  seq: number;
  summary: string[];
  site: string | null;
}

export type Reply = Notes | Chunk | { type: 'done'; seq: number } | { type: 'error'; seq: number; message: string };

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
}

/** What the worker found of the list as a whole (url-notes.ts), before its first chunk. */
export interface Notes {
  type: 'notes';
  seq: number;
  summary: string[];
  site: string | null;
}

export type Reply = Notes | Chunk | { type: 'done'; seq: number } | { type: 'error'; seq: number; message: string };

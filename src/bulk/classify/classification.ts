// The vocabulary of bulk classification, shared by the line classifier, the
// host matchers, the routers and the threads (it imports of bulk/ only the
// hosts' words: an origin, a shard, ../hosts/).
//
// In a block's classification: URL lines, and the matchers they are decided by
// (one, or one per origin from a MatcherSource, or one per crawler). Out: a
// BlockResult and output lines in an OutputFormat, to an OutputWriter or
// OutputBuffers.
import type { Matcher } from '../../index.js';
import { CLASSIFY_MAX_CRAWLERS } from '../../engine/wasm/layout.js';
import type { Origin } from '../hosts/origin.js';

export type OutputFormat = 'tsv' | 'jsonl';

/** A MatcherSource's answer for a robots.txt that cannot be read: every URL disallowed (RFC 9309 2.3.1.3). */
export const UNREACHABLE = 'unreachable';

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
  /** With usage: each crawler's purposes for the URLs it may fetch (absent: all unknown). */
  usage?: PurposeCode[];
  /** Matchers the purposes read (control tokens' of groups no crawler has): owned with the crawlers'. */
  extra?: Matcher[];
}

/** A crawler's use purposes for the URLs it may fetch (purpose-codes.ts): one
 * code (layout.ts's USAGE_BITS) for every URL, or, where Content-Usage path
 * patterns decide, the code for a URL's text. */
export type PurposeCode = number | ((url: string) => number) | LineCode;
/** A code decided on the URL line's octets in the core (a control token's verdict: no string made), and, when it
 * needs one, on the line's text (`text()`, made once for the URL). */
export interface LineCode {
  at(ptr: number, len: number, text: () => string): number;
}
/** Most crawlers of one classification. */
export const MAX_CRAWLERS = CLASSIFY_MAX_CRAWLERS; // (the core's array of verdicts: layout.ts)

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

export interface BlockResult {
  /** One line per URL, in input order (empty when an OutputWriter took them). */
  output: Uint8Array;
  urls: number;
  /** URLs allowed (with crawlers: allowed for the first crawler; see allowedBy). */
  allowed: number;
  /** With crawlers: URLs allowed for each. */
  allowedBy?: number[];
  /** With usage: per crawler, per purpose (search, train-ai, ai-use), the URLs it may fetch whose purpose is allowed, then disallowed (6 a crawler). */
  usageBy?: number[];
  /** With a robots.txt per host: URLs by what their host's robots.txt was. */
  byRobots?: Record<RobotsKind, number>;
  /** Keys of hosts this classifier had not seen before (see hostKey). */
  newHosts: number[];
}
